import type { ProjectFacts } from '../detect/facts.js';

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
