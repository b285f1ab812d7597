/** The failure text the jest and vitest reporters write: escape sequences and frames gone. */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { failureText, stripAnsi } = require('../../../reporters/jest/text.cjs') as {
  failureText(messages: string[], assertion: boolean): string | null;
  stripAnsi(text: string): string;
};

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
});
