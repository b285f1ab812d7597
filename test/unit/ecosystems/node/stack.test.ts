import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { failureStack, lineInFile, stackFrames } from '../../../../src/ecosystems/node/stack.js';
import { parseText } from '../../../../src/parsers/stream.js';
import { loadParser, type ParserId } from '../../../../src/runners/parsers.js';

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
      { file: '/p/test/helpers.js', line: 4, column: 10, function: 'assertEqual' },
      { file: '/p/test/math.test.js', line: 12, column: 5, function: 'Context.<anonymous>' },
      { file: '/p/test/esm.test.mjs', line: 7, column: 3, function: null },
      { file: 'node:internal/process/task_queues', line: 95, column: 5, function: 'process.processTicksAndRejections' },
    ]);
  });
});

describe('failureStack', () => {
  it('keeps the frames in the project, root-relative: not node_modules, node itself or other directories', () => {
    const stack = `${STACK}
    at run (/p/node_modules/mocha/lib/runner.js:1:1)
    at main (/elsewhere/x.js:2:2)
    at \u001b[2mlib/y.js:3:3\u001b[22m`;
    expect(failureStack(stack, '/p')).toEqual({
      stack: [
        { file: 'test/helpers.js', line: 4, function: 'assertEqual' },
        { file: 'test/math.test.js', line: 12, function: 'Context.<anonymous>' },
        { file: 'test/esm.test.mjs', line: 7, function: null },
        { file: 'lib/y.js', line: 3, function: null },
      ],
    });
  });

  it('is nothing without a stack, and an empty list for a stack without a frame in the project', () => {
    expect(failureStack(null, '/p')).toEqual({});
    expect(failureStack('Error: x\n    at node:internal/main:1:1', '/p')).toEqual({ stack: [] });
  });

  it('keeps at most ten frames', () => {
    const deep = Array.from({ length: 30 }, (_, i) => `    at f${i} (/p/src/deep.js:${i + 1}:1)`).join('\n');
    expect(failureStack(`Error: deep\n${deep}`, '/p').stack?.map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
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

/** The recordings of every JavaScript runner, moved under a project path with spaces: the
 * frames in their stacks must be read as before, so every file, line and message stays. */
describe('a project path with spaces', () => {
  const outputs = fileURLToPath(new URL('../../../fixtures/outputs/', import.meta.url));
  const recordings: [string, ParserId][] = [
    ['jest/mixed.jsonl', 'jest'], ['jest/hooks.jsonl', 'jest'], ['jest-json/jest-mixed.json', 'jest-json'], ['jest-json/jest-load-error.json', 'jest-json'],
    ['mocha/mixed.jsonl', 'mocha'], ['node-test/mixed.jsonl', 'node-test'], ['vitest/mixed.jsonl', 'vitest'],
    ['junit/jest-junit-mixed.xml', 'junit'], ['junit/node-test-mixed.xml', 'junit'], ['junit/mocha-junit-reporter-mixed.xml', 'junit'],
  ];
  const root = '/home/a user/my project';

  it.each(recordings)('%s gives the same report', async (file, id) => {
    const text = readFileSync(outputs + file, 'utf8');
    const placeholder = file.endsWith('.xml') ? '&lt;root&gt;' : '<root>'; // as XML escapes it
    expect(text).toContain(`${placeholder}/`);
    const factory = await loadParser(id);
    const moved = parseText(factory, text.split(placeholder).join(root), { root });
    // Messages that keep their frames (JUnit's) name the root: read back as `<root>`.
    expect(JSON.parse(JSON.stringify(moved).split(root).join('<root>'))).toEqual(parseText(factory, text, { root: '<root>' }));
  });

  it('reads frames whose path has spaces and parentheses', () => {
    expect(stackFrames(`Error: x\n    at Object.<anonymous> (${root} (copy)/test/a.test.js:7:9)\n    at ${root}/b.js:3:1\n    at file:///home/a%20user/c.mjs:2:5`)).toEqual([
      { file: `${root} (copy)/test/a.test.js`, line: 7, column: 9, function: 'Object.<anonymous>' },
      { file: `${root}/b.js`, line: 3, column: 1, function: null },
      { file: '/home/a user/c.mjs', line: 2, column: 5, function: null },
    ]);
    expect(lineInFile(`Error: x\n    at f (${root}/h.js:1:1)\n    at Object.<anonymous> (${root}/test/a.test.js:7:9)`, `${root}/test/a.test.js`)).toBe(7);
  });
});
