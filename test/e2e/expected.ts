/** What the mixed fixtures' runs must report, for every version of their runner: the
 * failed tests as [name, file, line, status], sorted as `sorted` sorts them. */

/** test/fixtures/projects/jest-mixed. */
export const JEST_MIXED_FAILURES = [
  ['load error: test/broken.test.js', 'test/broken.test.js', 3, 'error'],
  ['math › add › adds negatives', 'test/math.test.js', 11, 'failed'],
  ['math › fails [with] (brackets) too', 'test/math.test.js', 30, 'failed'],
  ['math › parses config', 'test/math.test.js', 16, 'error'],
  ['top level fails', 'test/second.test.js', 6, 'failed'],
];

/** test/fixtures/projects/vitest-mixed. */
export const VITEST_MIXED_FAILURES = [
  ['load error: test/broken.test.ts', 'test/broken.test.ts', 3, 'error'],
  ['math > add > adds negatives', 'test/math.test.ts', 15, 'failed'],
  ['math > fails [with] (brackets) too', 'test/math.test.ts', 34, 'failed'],
  ['math > parses config', 'test/math.test.ts', 20, 'error'],
  ['math > times out', 'test/math.test.ts', 37, 'error'],
  ['top level fails', 'test/second.test.ts', 8, 'failed'],
];

/** Rows in a fixed order, for comparing lists whose order the runner does not fix. */
export const sorted = <T>(rows: T[]): T[] => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
