/** rspec's part of a change's plan: the files every spec loads before its own code, the
 * `--require` options rspec reads from the same places its listing does. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rubyChanges } from '../../ecosystems/ruby-changes/affected.js';
import type { AffectedRequest } from '../types.js';

/** Words of an options file as rspec reads one: a line at a time, `#` lines left out. */
const optionWords = (text: string): string[] =>
  text.split('\n').filter((line) => !/^\s*#/.test(line)).flatMap((line) => line.trim().split(/\s+/))
    .filter((word) => word !== '').map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));

/** The names given to `--require` / `-r` in these words. */
export function requiredNames(words: readonly string[]): string[] {
  const names: string[] = [];
  for (const [i, word] of words.entries()) {
    const next = words[i + 1];
    if ((word === '--require' || word === '-r') && next !== undefined) names.push(next);
    else if (word.startsWith('--require=')) names.push(word.slice('--require='.length));
    else if (/^-r[^-]/.test(word)) names.push(word.slice(2));
  }
  return names;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** rspec's option sources, as ConfigurationOptions reads them: the global and project
 * files, .rspec-local, a custom `--options` file, SPEC_OPTS and the command line. */
export function rspecPreloads(request: AffectedRequest): string[] {
  const home = request.env.HOME ?? os.homedir();
  const xdg = request.env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  const args = [...optionWords(request.env.SPEC_OPTS ?? ''), ...(request.runnerArgs ?? [])];
  const custom = args.flatMap((word, i) => (word === '--options' || word === '-O' ? [args[i + 1] ?? ''] : []));
  const words = [
    ...[path.join(xdg, 'rspec', 'options'), path.join(home, '.rspec')].map(readText),
    request.facts.read('.rspec') ?? '', request.facts.read('.rspec-local') ?? '',
    ...custom.map((file) => readText(path.resolve(request.root, file))),
  ].flatMap(optionWords);
  return requiredNames([...words, ...args]);
}

export const rspecChanges = rubyChanges({ preloads: rspecPreloads });
