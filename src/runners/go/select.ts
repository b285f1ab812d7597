/** What `go test` runs for the files and `--name` of a request. go tests whole
 * packages: a directory is every package below it (`./dir/...`); a `_test.go` file is
 * the Test, Example and Fuzz functions it declares (`-run '^TestA$|^ExampleB$'` on its
 * package), as cargo narrows a file to its target; any other .go file is its package,
 * whose tests are the tests of the code the file holds. */
import path from 'node:path';
import { usageError } from '../../model/errors.js';
import type { ProjectFacts } from '../../project/facts.js';
import type { NameFilter } from '../../model/request.js';

export interface GoCommand {
  /** The -run pattern, or null for the whole package. */
  readonly run: string | null;
  readonly packages: readonly string[];
}

export interface GoSelection {
  readonly commands: readonly GoCommand[];
  readonly notes: readonly string[];
}

/** Go's regexp.QuoteMeta: the text matched literally by RE2. */
export const escapeGoRegex = (text: string): string => text.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);

/** `--name` as `-run`. go matches -run one subtest level at a time, splitting it at each
 * `/` outside brackets: a plain name without `/` matches top-level tests whose name
 * contains it (their subtests run with them); `Table/wrong` matches subtests named
 * `wrong…` of a top-level test named `…Table`. A /regex/ is passed on as written. */
export function goRunPattern(name: NameFilter): string {
  if (name.regex) return name.text;
  const parts = name.text.split('/').map(escapeGoRegex);
  if (parts.length === 1) return parts[0] ?? '';
  const last = parts.length - 1;
  return parts.map((part, i) => (i === 0 ? `${part}$` : i === last ? `^${part}` : `^${part}$`)).join('/');
}

/** Commands for the request's files (none: the whole module) and --name. Packages that
 * share a selection share a command; a file's package given whole as well runs whole. */
export function selectionCommands(files: readonly string[], name: NameFilter | null, facts: ProjectFacts): GoSelection {
  const pattern = name === null ? null : goRunPattern(name);
  if (files.length === 0) return { commands: [{ run: pattern, packages: ['./...'] }], notes: [] };
  const whole = new Set<string>();
  const functions = new Map<string, Set<string>>();
  const notes: string[] = [];
  for (const file of files) {
    const clean = file.replace(/\/+$/, '');
    if (clean === '' || clean === '.') whole.add('./...');
    else if (facts.isDirectory(clean)) whole.add(`./${clean}/...`);
    else if (clean.endsWith('_test.go')) {
      const pkg = packageOf(clean);
      functions.set(pkg, new Set([...(functions.get(pkg) ?? []), ...testFunctions(clean, facts)]));
    } else {
      whole.add(packageOf(clean));
      notes.push(`${clean} is not a _test.go file: its package's tests run`);
    }
  }
  const commands: GoCommand[] = whole.size === 0 ? [] : [{ run: pattern, packages: [...whole] }];
  const byRun = new Map<string, string[]>();
  for (const [pkg, names] of functions) {
    if ([...whole].some((w) => covers(w, pkg))) continue;
    const run = narrowed([...names].sort(), pattern);
    byRun.set(run, [...(byRun.get(run) ?? []), pkg]);
  }
  for (const [run, packages] of byRun) commands.push({ run, packages });
  return { commands, notes };
}

/** --shard's part: exactly its packages (`./lib`, not `./lib/...`, which would run the
 * packages below it too), with --name. */
export function unitCommands(units: readonly string[], name: NameFilter | null): GoSelection {
  if (units.length === 0) throw usageError('--shard: this part holds no go package');
  const packages = units.map((unit) => (unit === '.' ? '.' : `./${unit}`));
  return { commands: [{ run: name === null ? null : goRunPattern(name), packages }], notes: [] };
}

const packageOf = (file: string): string => {
  const dir = path.posix.dirname(file);
  return dir === '.' ? '.' : `./${dir}`;
};

/** Whether the package pattern `whole` (`./a/...`, `./a`) includes the package `pkg`. */
function covers(whole: string, pkg: string): boolean {
  if (whole === pkg || whole === './...') return true;
  const below = whole.endsWith('/...') ? whole.slice(0, -'/...'.length) : null;
  return below !== null && (pkg === below || pkg.startsWith(`${below}/`));
}

/** The functions go test runs (without -bench): TestXxx, FuzzXxx (Xxx not starting
 * with a lower-case letter) and examples, declared at the start of a line. */
const DECLARATION = /^func\s+((?:Test|Fuzz|Example)\w*)\s*(?:\[[^\]]*\])?\s*\(/gm;

function testFunctions(file: string, facts: ProjectFacts): string[] {
  const names = [...(facts.read(file) ?? '').matchAll(DECLARATION)].map((m) => m[1] ?? '')
    .filter((n) => n.startsWith('Example') || !/^(?:Test|Fuzz)[a-z]/.test(n));
  if (names.length === 0) throw usageError(`${file} declares no Test, Fuzz or Example function: there is no test in it to run`);
  return names;
}

/** `^TestA$|^TestB$`, or with --name, those of the file's functions its first level
 * matches, each followed by its deeper levels. */
function narrowed(names: readonly string[], pattern: string | null): string {
  if (pattern === null) return names.map((n) => `^${escapeGoRegex(n)}$`).join('|');
  const [first = '', ...rest] = goLevels(pattern);
  let matches: (n: string) => boolean;
  try {
    const top = new RegExp(first);
    matches = (n) => top.test(n);
  } catch {
    matches = () => true; // RE2 syntax JavaScript lacks: go decides
  }
  const deeper = rest.map((level) => `/(?:${level})`).join('');
  const kept = names.filter(matches);
  // No function of the file matches: a pattern no test name can match, so nothing runs.
  return kept.length === 0 ? '^$' : kept.map((n) => `^${escapeGoRegex(n)}$${deeper}`).join('|');
}

/** A -run pattern's levels, split at each `/` outside brackets and parentheses, as go does. */
function goLevels(pattern: string): string[] {
  const levels: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' || c === '(') depth++;
    else if ((c === ']' || c === ')') && depth > 0) depth--;
    else if (c === '/' && depth === 0) {
      levels.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  return [...levels, pattern.slice(start)];
}
