import picomatch from 'picomatch';
import type { ProjectFacts } from '../../project/facts.js';

/** How the JavaScript runners are given files: always as files, and a directory as
 * every test file below it. */

/** A project-relative file as an operand a runner can never read as an option: a file
 * named `--test-only.test.js` is `./--test-only.test.js`. */
export const fileOperand = (file: string): string => (/^(?:\.{0,2}\/)/.test(file) ? file : `./${file}`);

/** node --test's default test files (node 20): `*.test.js`, `*-test.js`, `*_test.js`,
 * `test-*.js`, `test.js` (and .cjs, .mjs) anywhere, and every such script under a
 * `test` directory. */
const NODE_TEST_NAME = /^(?:.*[.\-_])?test\.[cm]?js$|^test-.*\.[cm]?js$/;
export const isNodeTestFile = (file: string): boolean => {
  const parts = file.split('/');
  return NODE_TEST_NAME.test(parts.at(-1) ?? '') || (/\.[cm]?js$/.test(file) && parts.slice(0, -1).includes('test'));
};

/** Directories no runner looks in for tests. */
const SKIPPED = (name: string): boolean => name === 'node_modules' || name.startsWith('.');

/** The files below a directory (relative to the project root, sorted) that `isTest`
 * accepts; at most `limit` of them. */
export function filesBelow(facts: ProjectFacts, dir: string, isTest: (file: string) => boolean, limit = Infinity): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const name of [...facts.list(relative)].sort()) {
      if (found.length >= limit) return;
      const child = relative === '.' ? name : `${relative}/${name}`;
      if (facts.isDirectory(child)) {
        if (!SKIPPED(name)) walk(child);
      } else if (isTest(child)) {
        found.push(child);
      }
    }
  };
  walk(dir.replace(/\/+$/, '') || '.');
  return found;
}

/** The operands for a runner that does not search a directory (deeply) itself: each
 * directory becomes the test files below it, each file stays itself. A directory with
 * none stays as given, so the runner says what it finds there; never an empty list,
 * which would mean the whole suite. */
export function expandDirectories(facts: ProjectFacts, files: readonly string[], isTest: (file: string) => boolean): string[] {
  return [...new Set(files.flatMap((file) => {
    if (!facts.isDirectory(file)) return [file];
    const below = filesBelow(facts, file, isTest);
    return below.length > 0 ? below : [file];
  }))];
}

/** How many files a glob may expand to: a bound on the walk, far above a test suite. */
const GLOB_LIMIT = 10_000;

/** Path operands from scripts.test with their globs expanded as the shell that runs the
 * script (`npm test`) would: node 20 takes `dist/test/*.js` as one literal path (node 21
 * and later expand globs themselves). The walk starts at the glob's fixed base and skips
 * node_modules and dot directories; a glob matching nothing stays as given, as a shell
 * leaves it, so node says what it could not find. Options stay as they are. */
export function expandGlobs(facts: ProjectFacts, args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    const scan = picomatch.scan(arg);
    if (arg.startsWith('-') || !scan.isGlob) return [arg];
    const pattern = arg.replace(/^\.\//, '');
    const matches = picomatch(pattern, { dot: false });
    const base = scan.base.replace(/^\.\/?/, '') || '.';
    const found = facts.isDirectory(base) ? filesBelow(facts, base, (file) => matches(file), GLOB_LIMIT) : [];
    return found.length > 0 ? found.map(fileOperand) : [arg];
  });
}
