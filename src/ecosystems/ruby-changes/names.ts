/** How a word in Ruby code is matched to the file an autoloader would load for it:
 * `Admin::UserProfile`, `:user_profiles` and `user_profile` all name user_profile.rb.
 * A name is compared lowercased, without underscores (so an acronym inflection,
 * `HTMLParser` for html_parser.rb, still matches), and a word is tried in its own form and
 * in every singular it could be the plural of: a wrong singular only adds a match. */
import type { ProjectFacts } from '../../project/facts.js';

/** ActiveSupport's irregular plurals, and what ends like them. */
const IRREGULAR: readonly (readonly [string, string])[] = [
  ['people', 'person'], ['men', 'man'], ['children', 'child'], ['sexes', 'sex'], ['moves', 'move'],
  ['zombies', 'zombie'], ['mice', 'mouse'], ['lice', 'louse'], ['oxen', 'ox'], ['quizzes', 'quiz'],
  ['matrices', 'matrix'], ['vertices', 'vertex'], ['indices', 'index'], ['aliases', 'alias'], ['statuses', 'status'],
];

/** The key a file's name gives: `user_profile` -> `userprofile`. */
export const nameKey = (name: string): string => name.toLowerCase().replace(/_/g, '');

/** The keys a word may name: itself and each singular it may be the plural of. */
export function wordKeys(word: string, irregular: ReadonlyMap<string, string> = new Map()): string[] {
  const key = nameKey(word.replace(/[?!]$/, ''));
  const keys = new Set([key]);
  for (const [plural, singular] of [...IRREGULAR, ...irregular]) {
    if (key.endsWith(plural)) keys.add(key.slice(0, -plural.length) + singular);
  }
  if (key.endsWith('s')) keys.add(key.slice(0, -1));
  if (key.endsWith('es')) keys.add(key.slice(0, -2));
  if (key.endsWith('ies')) keys.add(`${key.slice(0, -3)}y`);
  if (key.endsWith('ves')) keys.add(`${key.slice(0, -3)}f`).add(`${key.slice(0, -3)}fe`);
  if (key.endsWith('ses')) keys.add(`${key.slice(0, -3)}sis`);
  if (key.endsWith('a')) keys.add(`${key.slice(0, -1)}um`).add(`${key.slice(0, -1)}on`);
  if (key.endsWith('i')) keys.add(`${key.slice(0, -1)}us`);
  return [...keys];
}

/** What the project's own inflections add, read from the files that call them (a
 * changed config file is the whole suite; a changed lib file is read as changed):
 * `inflect.irregular "octopus", "octopi"` as a plural and its singular, and Zeitwerk's
 * `inflect("v2_api" => "APIv2")` as another key for files named `v2_api`. */
export interface Inflections {
  readonly irregular: ReadonlyMap<string, string>;
  /** A file name's key -> the other keys its constant has. */
  readonly aliases: ReadonlyMap<string, readonly string[]>;
}

export function projectInflections(facts: ProjectFacts, files: readonly string[]): Inflections {
  const irregular = new Map<string, string>();
  const aliases = new Map<string, string[]>();
  for (const file of files) {
    const text = facts.read(file) ?? '';
    if (!text.includes('inflect')) continue;
    for (const m of text.matchAll(/\birregular[\s(]+["'](\w+)["']\s*,\s*["'](\w+)["']/g)) {
      irregular.set(nameKey(m[2] ?? ''), nameKey(m[1] ?? ''));
    }
    for (const m of text.matchAll(/["'](\w+)["']\s*=>\s*["'](\w+)["']/g)) {
      const [from, to] = [nameKey(m[1] ?? ''), nameKey(m[2] ?? '')];
      if (from !== to) aliases.set(from, [...(aliases.get(from) ?? []), to]);
    }
  }
  return { irregular, aliases };
}

/** `spec/models/user_spec.rb` -> `models/user`: a test file's path below its test
 * directory, without the test's suffix or prefix; null for a file named like no test. */
export function testedName(unit: string): string | null {
  const parts = unit.split('/');
  const start = parts.findIndex((part) => part === 'spec' || part === 'test' || part === 'tests');
  const name = parts.at(-1) ?? '';
  const stem = /^(.+)_(?:spec|test)\.rb$/.exec(name)?.[1] ?? /^test_(.+)\.rb$/.exec(name)?.[1];
  if (stem === undefined) return null;
  return [...parts.slice(start + 1, -1), stem].join('/');
}
