import path from 'node:path';
import type { Invocation } from '../adapters/types.js';

const SAFE = /^[\w@%+=:,./-]+$/;

/** POSIX shell quoting, for showing a command to a person. run-tests itself never runs
 * commands through a shell. */
export const shellQuote = (word: string): string => (SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The command as a person would type it in the project root: the environment run-tests
 * set that matters, and paths inside the root made relative. */
export function displayCommand(invocation: Pick<Invocation, 'argv' | 'thenArgv' | 'shownArgv' | 'env' | 'shownEnv' | 'cwd'>): string {
  const prefix = `${invocation.cwd}${path.sep}`;
  const word = (w: string) => shellQuote(w.startsWith(prefix) ? w.slice(prefix.length) : w);
  const assignments = (invocation.shownEnv ?? []).flatMap((key) => {
    const value = invocation.env[key];
    return value === undefined ? [] : [`${key}=${word(value)}`];
  });
  const shown = invocation.shownArgv ?? ((argv: readonly string[]) => argv);
  const commands = [invocation.argv, ...(invocation.thenArgv ?? [])].map(shown).map((argv) => [...assignments, ...argv.map(word)].join(' '));
  return commands.join(' ; ');
}
