/** The failure text the jest and vitest reporters write: escape sequences and frames gone. */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { codeFrame, failureText, messageUtil, stripAnsi } = require('../../../reporters/jest/text.cjs') as {
  failureText(messages: string[], assertion: boolean): string | null;
  stripAnsi(text: string): string;
  messageUtil(rootDir: string): unknown;
  codeFrame(util: unknown, config: { rootDir: string }, failureMessage: string, testPath: string): string | null;
};
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

describe('reporters/jest/text.cjs', () => {
  it('strips colours, cursor moves and OSC-8 links, keeping the link text', () => {
    const link = (url: string, text: string, end: string) => `\u001b]8;;${url}${end}${text}\u001b]8;;${end}`;
    expect(stripAnsi(`\u001b[31mred\u001b[39m, ${link('https://example.com/doc', 'the docs', '\u001b\\')} and ${link('file:///p/a.js', 'a.js', '\u0007')}\u001b[2K`))
      .toBe('red, the docs and a.js');
  });

  it('drops the frames of a stack whose paths have spaces', () => {
    const message = 'Error: expect(received).toBe(expected)\n\nExpected: 2\n    at Object.toBe (/home/a user/my project/test/a.test.js:7:9)\n    at new Promise (<anonymous>)';
    expect(failureText([message], true)).toBe('expect(received).toBe(expected)\n\nExpected: 2');
  });

  it("makes jest's code frame of the failing line with the project's jest-message-util, without colours or frames", () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-tests-frame-'));
    const file = join(dir, 'a b.test.js');
    writeFileSync(file, "test('adds', () => {\n  const sum = 1 + 1;\n  expect(sum).toBe(3);\n});\n");
    const util = messageUtil(REPO);
    expect(util).not.toBeNull();
    const message = `Error: expect(received).toBe(expected)\n\nExpected: 3\nReceived: 2\n    at Object.toBe (${file}:3:15)\n    at new Promise (<anonymous>)`;
    expect(codeFrame(util, { rootDir: dir }, message, file)).toBe(
      "  1 | test('adds', () => {\n  2 |   const sum = 1 + 1;\n> 3 |   expect(sum).toBe(3);\n    |               ^\n  4 | });\n  5 |",
    );
    // A stack that points nowhere in the project: no frame, rather than an empty one.
    expect(codeFrame(util, { rootDir: dir }, 'Error: boom\n    at node:internal/x:1:1', file)).toBeNull();
    // A project without jest-message-util where node looks from its root.
    expect(messageUtil(dir)).toBeNull();
    expect(codeFrame(null, { rootDir: dir }, message, file)).toBeNull();
  });
});
