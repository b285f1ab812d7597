import { describe, expect, it } from '@jest/globals';
import { appendAll, boundMessage, int, lastLines, MESSAGE_LIMIT_BYTES, relativeFile, withFullText } from '../../../src/parsers/fields.js';

/** 100 lines of 50 bytes each, newline included: `line 001 xxxx…`. */
const LINES = Array.from({ length: 100 }, (_, i) => `line ${String(i + 1).padStart(3, '0')} ${'x'.repeat(40)}`);
const LOG = '/p/.run-tests/runs/20261201-212406.123-abcdef12/test.log';

describe('boundMessage', () => {
  it('leaves a message within 2 KiB as it is', () => {
    expect(boundMessage('é'.repeat(1024))).toBe('é'.repeat(1024));
    expect(boundMessage(LINES.slice(0, 40).join('\n'))).toBe(LINES.slice(0, 40).join('\n'));
  });

  it('cuts at the end of a line, saying how many lines are left out, with room for where the full text is', () => {
    const bounded = boundMessage(LINES.join('\n'));
    expect(bounded).toBe(`${LINES.slice(0, 35).join('\n')}\n… 65 more lines`);
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES - 256);
    // Trailing newlines are no lines of their own.
    expect(boundMessage(`${LINES.join('\n')}\n\n`)).toBe(bounded);
  });

  it('cuts inside a line too long to keep whole, never inside a UTF-8 character', () => {
    expect(boundMessage('é'.repeat(2000))).toBe(`${'é'.repeat(888)}\n… 1 more line`);
    expect(boundMessage(`a${'é'.repeat(2000)}\nnext`)).toBe(`a${'é'.repeat(887)}\n… 2 more lines`);
    for (const text of ['x'.repeat(5000), `${'€'.repeat(700)}\n${'€'.repeat(700)}`, '🙂'.repeat(3000)]) {
      const bounded = boundMessage(text);
      expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
      expect(bounded).not.toContain('\uFFFD');
    }
  });
});

describe('lastLines', () => {
  it('keeps the last 15 lines, trailing blank lines aside, and counts those before them', () => {
    expect(lastLines(`${LINES.join('\n')}\n\n`)).toEqual({ text: LINES.slice(85).join('\n'), left: 85 });
    expect(lastLines(LINES.slice(0, 3).join('\n'), 5)).toEqual({ text: LINES.slice(0, 3).join('\n'), left: 0 });
    expect(lastLines('')).toEqual({ text: '', left: 0 });
  });

  it('keeps fewer lines when they would pass maxBytes, but never none', () => {
    // 50 bytes a line with its newline: 4 lines are 199 bytes.
    expect(lastLines(LINES.join('\n'), 15, 200)).toEqual({ text: LINES.slice(96).join('\n'), left: 96 });
    expect(lastLines(LINES.join('\n'), 15, 10)).toEqual({ text: LINES[99], left: 99 });
  });
});

describe('withFullText', () => {
  it('adds where the full text is to a cut message, and leaves one that was not cut alone', () => {
    const cut = boundMessage(LINES.join('\n'));
    expect(withFullText(cut, LOG)).toBe(`${LINES.slice(0, 35).join('\n')}\n… 65 more lines in ${LOG}`);
    expect(withFullText('Expected: 1\nReceived: 2', LOG)).toBe('Expected: 1\nReceived: 2');
  });

  it('cuts further, counting the lines it drops, when the path needs more room than was left', () => {
    const where = `/${'d'.repeat(400)}/test.log`;
    const marked = withFullText(boundMessage(LINES.join('\n')), where);
    expect(marked).toBe(`${LINES.slice(0, 32).join('\n')}\n… 68 more lines in ${where}`);
    expect(Buffer.byteLength(marked)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
  });
});

describe('relativeFile', () => {
  it('makes paths under root relative and strips ./, leaving outside paths absolute', () => {
    expect(relativeFile('/p/spec/a_spec.rb', '/p')).toBe('spec/a_spec.rb');
    expect(relativeFile('/p/spec/a_spec.rb', '/p/')).toBe('spec/a_spec.rb');
    expect(relativeFile('./spec/a_spec.rb', '/p')).toBe('spec/a_spec.rb');
    expect(relativeFile('/usr/lib/ruby/x.rb', '/p')).toBe('/usr/lib/ruby/x.rb');
    expect(relativeFile('/pp/a.rb', '/p')).toBe('/pp/a.rb');
  });
});

describe('int', () => {
  it('accepts only 1-based whole numbers', () => {
    expect([int(3), int(0), int(-1), int(1.5), int('3')]).toEqual([3, null, null, null, null]);
  });
});

describe('appendAll', () => {
  it('appends in order, past the number of arguments a call can take', () => {
    const target = [-1];
    appendAll(target, Array.from({ length: 300_000 }, (_, i) => i));
    expect([target.length, target[0], target[1], target[300_000]]).toEqual([300_001, -1, 0, 299_999]);
  });
});
