import { describe, expect, it } from '@jest/globals';
import { lineInFile, stackFrames } from '../../../../src/ecosystems/node/stack.js';

const STACK = `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

1 !== 2

    at assertEqual (/p/test/helpers.js:4:10)
    at Context.<anonymous> (/p/test/math.test.js:12:5)
    at async Promise.all (index 0)
    at file:///p/test/esm.test.mjs:7:3
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

describe('stackFrames', () => {
  it('reads V8 frames with and without a function name, and file URLs', () => {
    expect(stackFrames(STACK)).toEqual([
      { file: '/p/test/helpers.js', line: 4, column: 10 },
      { file: '/p/test/math.test.js', line: 12, column: 5 },
      { file: '/p/test/esm.test.mjs', line: 7, column: 3 },
      { file: 'node:internal/process/task_queues', line: 95, column: 5 },
    ]);
  });
});

describe('lineInFile', () => {
  it('takes the first frame inside the test file, not the helper that threw', () => {
    expect(lineInFile(STACK, '/p/test/math.test.js')).toBe(12);
    expect(lineInFile(STACK, '/p/test/esm.test.mjs')).toBe(7);
    expect(lineInFile(STACK, '/p/test/other.test.js')).toBeNull();
    expect(lineInFile(undefined, '/p/a.js')).toBeNull();
  });
});
