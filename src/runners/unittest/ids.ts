/** unittest's test ids and what a rerun gives `python -m unittest` for them. A test
 * method's id is its dotted name (`tests.test_cart.CartTest.test_total`), which unittest
 * takes on its command line; a test no dotted name selects (a doctest that a module's
 * load_tests adds) has the id `<that module>::<its own id>`; an error outside tests has
 * the module's or class's dotted name. */
import type { FailedTestRecord } from '../../model/results.js';

/** The dotted name that selects a recorded test: the module that loaded it, for a test
 * its own name cannot select. */
export const selector = (id: string): string => (id.includes('::') ? id.slice(0, id.indexOf('::')) : id);

/** Each selector once, and none inside another: unittest runs a test as often as it is
 * named, and a module named whole (a load error) already holds its classes' tests. */
export function rerunArguments(rerun: readonly FailedTestRecord[]): string[] {
  const all = [...new Set(rerun.map((t) => selector(t.id)))];
  return all.filter((name) => !all.some((other) => name.startsWith(`${other}.`)));
}

/** Root-relative directories a rerun imports from: where each recorded test's module
 * lies, read from its dotted name and its file (`test_a.C.test_x` in `tests/test_a.py`
 * was imported from `tests/`), and the project's own top-level directory (for tests whose
 * file is not their module's, such as a doctest's). */
export function rerunPaths(rerun: readonly FailedTestRecord[], top: string): string[] {
  const paths = rerun.flatMap((t) => {
    const base = t.file === null ? null : importedFrom(selector(t.id), t.file);
    return base === null ? [] : [base];
  });
  return [...new Set([...(top === '.' ? [] : [top]), ...paths])].filter((p) => p !== '.');
}

/** `tests` for `test_a.Cls.test_x` in `tests/test_a.py`; `.` for `tests.test_a…`. */
function importedFrom(name: string, file: string): string | null {
  const stem = file.replace(/(?:\/__init__)?\.py$/, '');
  const parts = name.split('.');
  for (let k = parts.length; k > 0; k -= 1) {
    const module = parts.slice(0, k).join('/');
    if (stem === module) return '.';
    if (stem.endsWith(`/${module}`)) return stem.slice(0, -module.length - 1);
  }
  return null;
}
