import { describe, expect, it } from '@jest/globals';
import { appendAll, boundMessage, int, relativeFile } from '../../../src/parsers/fields.js';

describe('boundMessage', () => {
  it('cuts at 2 KiB without splitting a UTF-8 character, marking the cut', () => {
    const bounded = boundMessage('é'.repeat(2000));
    expect(bounded).toBe(`${'é'.repeat(1022)}…`);
    expect(Buffer.byteLength(bounded)).toBe(2047);
    expect(boundMessage(`a${'é'.repeat(2000)}`)).toBe(`a${'é'.repeat(1022)}…`);
    expect(Buffer.byteLength(boundMessage('x'.repeat(5000)))).toBe(2048);
    expect(boundMessage('é'.repeat(1024))).toBe('é'.repeat(1024));
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
