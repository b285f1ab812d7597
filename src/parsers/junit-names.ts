/** What a JUnit testcase means for each producer that writes JUnit XML: its name, its
 * id and where it lives. Every producer fills `classname` and `name` its own way:
 *
 * | producer (detected by) | name | id |
 * |---|---|---|
 * | gotestsum (`go.version` property) | `TestTable/case`, as go names it | `<import path> <name>`, as the go parser |
 * | pytest (`<testsuite name="pytest">`) | `classname.name` (`test_mod.TestGroup.test_x[1]`) | `classname::name` |
 * | vitest (`<testsuites name="vitest tests">`) | name (`a > b`); classname is the file | `<file>::<name>`, as the vitest parser |
 * | node:test (`classname="test"`) | enclosing suites and the test joined by ` > ` | `::<name>` |
 * | minitest-reporters (`assertions` attribute) | `Class#test_name` | the same |
 * | jest-junit, mocha-junit-reporter, rspec_junit_formatter, run-tests `--junit` | name: it already holds the full title | `<file>::<name>` |
 * | mocha's xunit (a `<testsuite name="Mocha Tests">` root) | classname (the suites' titles) and name joined by a space, as mocha shows it | `<file>::<name>` |
 * | anything else (Surefire, …) | `classname.name` | `classname::name` |
 *
 * A name that already contains its classname (the full-title producers) is never
 * qualified twice. */
import { relativeFile } from './fields.js';

export type Dialect = 'go' | 'pytest' | 'vitest' | 'node' | 'minitest' | 'full-title' | 'mocha-xunit' | 'generic';

export interface CaseFacts {
  readonly classname: string;
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  /** Names of the enclosing <testsuite> elements, outermost first. */
  readonly suites: readonly string[];
  /** The nearest `file` attribute of an enclosing <testsuite>. */
  readonly suiteFile: string | null;
}

/** The dialect the root element (`element`) announces, if any. */
export function dialectOfRoot(attrs: Readonly<Record<string, string>>, element = 'testsuites'): Dialect | null {
  const name = attrs['name'] ?? '';
  if (name === 'Mocha Tests' && element === 'testsuite') return 'mocha-xunit';
  if (name === 'vitest tests') return 'vitest';
  // run-tests' own --junit output (`run-tests <framework>`) names each testcase in full.
  if (name === 'jest tests' || name === 'Mocha Tests' || name.startsWith('run-tests')) return 'full-title';
  return null;
}

export function dialectOfSuite(attrs: Readonly<Record<string, string>>): Dialect | null {
  const name = attrs['name'] ?? '';
  if (name === 'pytest') return 'pytest';
  if (name === 'rspec') return 'full-title';
  return null;
}

export function dialectOfCase(known: Dialect | null, attrs: Readonly<Record<string, string>>): Dialect {
  if (known !== null) return known;
  if (attrs['assertions'] !== undefined) return 'minitest';
  if (attrs['classname'] === 'test') return 'node';
  return 'generic';
}

export interface Naming {
  readonly name: string;
  readonly id: string;
  /** A file the naming implies (vitest's classname), before making it relative. */
  readonly file: string | null;
}

export function nameOf(dialect: Dialect, c: CaseFacts, root: string): Naming {
  const name = c.name.trim();
  const cls = c.classname.trim();
  const file = c.attrs['file'] ?? c.suiteFile;
  const fileId = (n: string) => `${file === null || file === undefined ? '' : relativeFile(stripLine(file), root)}::${n}`;
  switch (dialect) {
    case 'go': return { name, id: `${cls} ${name}`, file: null };
    case 'vitest': return { name, id: `${relativeFile(cls, root)}::${name}`, file: cls === '' ? null : cls };
    case 'node': {
      const full = [...c.suites, name].join(' > ');
      return { name: full, id: `::${full}`, file: null };
    }
    case 'minitest': {
      const full = cls === '' ? name : `${cls}#${name}`;
      return { name: full, id: full, file: null };
    }
    case 'full-title': return { name, id: fileId(name), file: null };
    case 'mocha-xunit': {
      const full = cls === '' ? name : `${cls} ${name}`;
      return { name: full, id: fileId(full), file: null };
    }
    case 'pytest':
    case 'generic': {
      if (cls === '' || name === cls || name.startsWith(`${cls} `) || name.endsWith(` ${cls}`)) return { name, id: cls === '' || name === cls ? name : `${cls}::${name}`, file: null };
      return { name: `${cls}.${name}`, id: `${cls}::${name}`, file: null };
    }
  }
}

/** `file="x.js:38"`: the path without its line. */
export const stripLine = (file: string): string => file.replace(/:\d+(?::\d+)?$/, '');

/** The line in `file="x.js:38"`, if any. */
export function lineOfFileAttr(file: string): number | null {
  const m = /:(\d+)(?::\d+)?$/.exec(file);
  return m?.[1] === undefined ? null : positive(Number(m[1]));
}

export const positive = (n: number): number | null => (Number.isInteger(n) && n > 0 ? n : null);
