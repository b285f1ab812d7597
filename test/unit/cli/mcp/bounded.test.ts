import { describe, expect, it } from '@jest/globals';
import { fit, textTail } from '../../../../src/cli/mcp/bounded.js';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `test ${i}`, message: 'é'.repeat(40) }));

describe('fit', () => {
  it('leaves a value that fits as it is', () => {
    const value = { status: 'failed', failed_tests: items(3) };
    expect(fit(value, bytes(value), ['failed_tests'], null)).toBe(value);
  });

  it('drops the fewest items from the end of the first list, and says how many and where the whole is', () => {
    const value = { status: 'failed', failed_tests: items(50), warnings: ['w'] };
    const limit = 2000;
    const cut = fit(value, limit, ['failed_tests', 'warnings'], '/p/report.json');
    const kept = (cut.failed_tests as unknown[]).length;
    expect(bytes(cut)).toBeLessThanOrEqual(limit);
    expect(cut).toEqual({ status: 'failed', failed_tests: items(kept), warnings: ['w'], cut: { limit_bytes: limit, dropped: { failed_tests: 50 - kept }, full: '/p/report.json' } });
    // One more item would not have fitted.
    expect(bytes({ ...cut, failed_tests: items(kept + 1), cut: { ...cut.cut, dropped: { failed_tests: 49 - kept } } })).toBeGreaterThan(limit);
  });

  it('goes on to the next list, and past every list leaves only the cut', () => {
    const value = { failed_tests: items(2), warnings: ['x'.repeat(300), 'y'.repeat(300)] };
    expect(fit(value, 420, ['failed_tests', 'warnings'], null)).toEqual({
      failed_tests: [], warnings: ['x'.repeat(300)], cut: { limit_bytes: 420, dropped: { failed_tests: 2, warnings: 1 }, full: null },
    });
    expect(fit({ command: 'z'.repeat(500), failed_tests: [] }, 200, ['failed_tests'], '/r')).toEqual({ cut: { limit_bytes: 200, dropped: { failed_tests: 0 }, full: '/r' } });
  });
});

describe('textTail', () => {
  it('keeps the end of a text from a whole line, within the bytes given', () => {
    expect(textTail('a\nb\nc', 10)).toEqual({ text: 'a\nb\nc', cut: false });
    expect(textTail('one\ntwo\nthree', 9)).toEqual({ text: 'three', cut: true });
    // A single long line is cut mid-line, never mid-character.
    expect(textTail('ééééé', 5)).toEqual({ text: 'éé', cut: true });
    expect(textTail('abc', 0)).toEqual({ text: '', cut: true });
  });
});
