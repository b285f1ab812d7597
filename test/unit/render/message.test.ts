import { describe, expect, it } from '@jest/globals';
import { Chalk } from 'chalk';
import { messageLines } from '../../../src/render/message.js';

const c = new Chalk({ level: 1 });
const green = (s: string): string => `\x1b[32m${s}\x1b[39m`;
const red = (s: string): string => `\x1b[31m${s}\x1b[39m`;
const dim = (s: string): string => `\x1b[2m${s}\x1b[22m`;

describe('messageLines', () => {
  it("colours jest's expected and received, its diff and its code frame as jest does", () => {
    const message = 'expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   "a": 2,\n+   "a": 1,\n  }\n\n  5 | test(\'x\', () => {\n> 6 |   expect(1);\n    |   ^\n  7 | });';
    expect(messageLines(message, c)).toEqual([
      dim('expect(received).toEqual(expected) // deep equality'), '',
      green('- Expected  - 1'), red('+ Received  + 1'), '',
      dim('  Object {'), green('-   "a": 2,'), red('+   "a": 1,'), dim('  }'), '',
      dim("  5 | test('x', () => {"), red('> 6 |   expect(1);'), red('    |   ^'), dim('  7 | });'),
    ]);
    expect(messageLines('Expected: 2\nReceived: 1', c)).toEqual([green('Expected: 2'), red('Received: 1')]);
  });

  it("colours vitest's diff and caret, and leaves other lines starting with - or + alone", () => {
    expect(messageLines('- Expected\n+ Received\n\n- 5\n+ 4\n\n34|     expect(2).toEqual(5);\n  |     ^\n- not a diff', c)).toEqual([
      green('- Expected'), red('+ Received'), '', green('- 5'), red('+ 4'), '',
      dim('34|     expect(2).toEqual(5);'), red('  |     ^'), dim('- not a diff'),
    ]);
    expect(messageLines('- a list item\n+ another', c)).toEqual([dim('- a list item'), dim('+ another')]);
  });

  it('shows every line of a cut message, down to where its full text is', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const shown = messageLines([...lines, '… 12 more lines in /p/.run-tests/runs/x/test.log'].join('\n'), new Chalk({ level: 0 }));
    expect(shown.length).toBe(31);
    expect(shown.at(-1)).toBe('… 12 more lines in /p/.run-tests/runs/x/test.log');
  });
});
