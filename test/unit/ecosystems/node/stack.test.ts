import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lineInFile, stackFrames } from '../../../../src/ecosystems/node/stack.js';
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
      { file: `${root} (copy)/test/a.test.js`, line: 7, column: 9 },
      { file: `${root}/b.js`, line: 3, column: 1 },
      { file: '/home/a user/c.mjs', line: 2, column: 5 },
    ]);
    expect(lineInFile(`Error: x\n    at f (${root}/h.js:1:1)\n    at Object.<anonymous> (${root}/test/a.test.js:7:9)`, `${root}/test/a.test.js`)).toBe(7);
  });
});
