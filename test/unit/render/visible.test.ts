import { describe, expect, it } from '@jest/globals';
import { visible } from '../../../src/render/visible.js';
import { inertJson } from '../../../src/render/json.js';

describe('visible', () => {
  it('shows every C0 control, DEL and C1 control as an escape, so ESC sequences are plain text', () => {
    expect(visible('a\x1b]0;pwned\x07b')).toBe('a\\x1b]0;pwned\\x07b');
    expect(visible('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(visible('\u009b31m\u0085\u0080\u009f')).toBe('\\u009b31m\\u0085\\u0080\\u009f');
    expect(visible('\x00\x7f\r\b')).toBe('\\x00\\x7f\\x0d\\x08');
    // A name is one line: its newlines and tabs are escaped too.
    expect(visible('a\nb\tc')).toBe('a\\x0ab\\x09c');
  });

  it('keeps newlines and tabs of a multi-line message, and a CR only where it ends a line', () => {
    expect(visible('one\r\n\ttwo\x1b[1A\rthree', { lines: true })).toBe('one\n\ttwo\\x1b[1A\\x0dthree');
  });

  it('leaves printable text alone: accents, non-breaking space, emoji, backslashes', () => {
    const text = 'é\u00a0✓ 😀 C:\\path \\x1b';
    expect(visible(text)).toBe(text);
    expect(visible(text, { lines: true })).toBe(text);
  });
});

describe('inertJson', () => {
  it('escapes DEL and C1 inside JSON strings, and the document reads back the same', () => {
    const value = { name: 'a\u009b31m\u007f\x1b[2J' };
    const json = inertJson(JSON.stringify(value));
    expect(json).toBe('{"name":"a\\u009b31m\\u007f\\u001b[2J"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
