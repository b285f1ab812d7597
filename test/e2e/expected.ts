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

/** jest-mixed's first failure as jest shows it: the assertion, then jest's code frame. */
export const ADDS_NEGATIVES = "expect(received).toBe(expected) // Object.is equality\n\nExpected: -3\nReceived: -2\n\n   9 |     it('adds negatives', () => {\n  10 |       console.log('noise from a test: {\"type\":\"end\"}');\n> 11 |       expect(add(-1, -1)).toBe(-3);\n     |                           ^\n  12 |     });\n  13 |   });\n  14 |";
export const BEFORE_BROKE = 'Error: before broke\n\n  1 | describe(\'with before\', () => {\n  2 |   beforeAll(() => {\n> 3 |     throw new Error(\'before broke\');\n    |           ^\n  4 |   });\n  5 |   test(\'one\', () => {});\n  6 |   test(\'two\', () => {});';

export const HOOKS_PLAIN = "expect(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 1\n\n  15 |\n  16 | test('plain', () => {\n> 17 |   expect(1).toBe(2);\n     |             ^\n  18 | });\n  19 |";

/** test/fixtures/projects/node-test-mixed, on every node: its failures, and their messages. */
export const NODE_TEST_MIXED_FAILURES = [
  ['math > adds wrongly', 'test/math.test.js', 11, 'failed'],
  ['math > explodes', 'test/math.test.js', 15, 'error'],
  ['with subtests > second fails', 'test/math.test.js', 36, 'failed'],
];
export const NODE_TEST_MIXED_MESSAGES = ['Expected values to be strictly equal:\n\n2 !== 3', 'TypeError: widget exploded: too hot', 'second is false'];
