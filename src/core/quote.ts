import path from 'node:path';
import type { Invocation } from '../runners/types.js';

const SAFE = /^[\w@%+=:,./-]+$/;

/** POSIX shell quoting, for showing a command to a person. run-tests itself never runs
 * commands through a shell. */
export const shellQuote = (word: string): string => (SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The command as a person would type it in the project root: the environment run-tests
 * set that matters, and paths inside the root made relative where that reads the same. */
export function displayCommand(invocation: Pick<Invocation, 'argv' | 'thenArgv' | 'shownArgv' | 'env' | 'shownEnv' | 'cwd' | 'readsAsPath'>): string {
  const word = (w: string, program = false) => shellQuote(shortened(invocation, w, program));
  const assignments = (invocation.shownEnv ?? []).flatMap((key) => {
    const value = invocation.env[key];
    return value === undefined ? [] : [`${key}=${word(value)}`];
  });
  const shown = invocation.shownArgv ?? ((argv: readonly string[]) => argv);
  const commands = [invocation.argv, ...(invocation.thenArgv ?? [])].map(shown)
    .map((argv) => [...assignments, ...argv.map((w, i) => word(w, i === 0))].join(' '));
  return commands.join(' ; ');
}

/** A word under the root, relative to it, unless that would mean something else: a form
 * starting with `-` reads as an option, a program without a `/` is looked up on PATH,
 * and some runners tell a path by its shape (Invocation.readsAsPath). Those stay as run. */
function shortened(invocation: Pick<Invocation, 'cwd' | 'readsAsPath'>, word: string, program: boolean): string {
  const prefix = `${invocation.cwd}${path.sep}`;
  if (!word.startsWith(prefix)) return word;
  const relative = word.slice(prefix.length);
  if (relative === '' || relative.startsWith('-') || (program && !relative.includes('/'))) return word;
  return invocation.readsAsPath === undefined || invocation.readsAsPath(relative) ? relative : word;
}
