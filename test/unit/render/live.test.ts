import { describe, expect, it } from '@jest/globals';
import { Chalk } from 'chalk';
import { failureLine, LiveDisplay, PLAIN_EVERY_MS, progressLine } from '../../../src/render/live.js';
import type { Progress } from '../../../src/model/progress.js';
import type { FailedTest } from '../../../src/model/results.js';

const plain = new Chalk({ level: 0 });
const progress = (fields: Partial<Progress>): Progress => ({ finished: 0, failed: 0, skipped: 0, total: null, files: null, ...fields });
const failed: FailedTest = { id: 'a', name: 'math › adds', file: 'test/math.test.js', line: 11, status: 'failed', message: 'x' };

/** A display writing into a string, on a clock the test moves. */
function display(mode: 'redraw' | 'plain', columns?: number) {
  let clock = 1000;
  let written = '';
  const live = new LiveDisplay({ write: (text: string) => (written += text), ...(columns === undefined ? {} : { columns }) }, mode, plain, () => clock);
  return { live, tick: (ms: number) => void (clock += ms), take: () => [written, (written = '')][0] };
}

describe('progressLine', () => {
  it('shows the announced total, the files, failures, skips and whole seconds', () => {
    expect(progressLine(progress({ finished: 12, total: 40, failed: 1, skipped: 2 }), 3999, plain)).toBe('12/40 · 1 failed · 2 skipped · 3s');
    expect(progressLine(progress({ finished: 9, files: { done: 1, total: 3 } }), 61_000, plain)).toBe('9 tests · 1/3 files · 0 failed · 0 skipped · 1m01s');
    expect(progressLine(progress({ finished: 1 }), 0, plain)).toBe('1 test · 0 failed · 0 skipped · 0s');
    // A report read only at its end: counts it cannot know are left out, not shown as 0.
    expect(progressLine(progress({ finished: 5, failed: null, skipped: null }), 0, plain)).toBe('5 tests · 0s');
  });

  it('colours failures and skips when there are some', () => {
    const colour = new Chalk({ level: 1 });
    expect(progressLine(progress({ finished: 2, failed: 1, skipped: 1 }), 0, colour)).toBe('2 tests · \x1b[31m1 failed\x1b[39m · \x1b[33m1 skipped\x1b[39m · 0s');
  });
});

describe('failureLine', () => {
  it('names the test and where it failed, with controls made visible', () => {
    expect(failureLine(failed, plain)).toBe('FAIL  math › adds  test/math.test.js:11');
    expect(failureLine({ ...failed, status: 'error', name: 'evil\x1b[2J', line: null }, plain)).toBe('ERROR  evil\\x1b[2J  test/math.test.js');
    expect(failureLine({ ...failed, file: null }, plain)).toBe('FAIL  math › adds  (unknown location)');
  });
});

describe('LiveDisplay, redrawn in place', () => {
  it('redraws at most every 100 ms and only when the line changed, and clears it at the end', () => {
    const { live, tick, take } = display('redraw');
    live.update(progress({ finished: 1 }));
    expect(take()).toBe('\r\x1b[2K1 test · 0 failed · 0 skipped · 0s');
    tick(50);
    live.update(progress({ finished: 2 }));
    expect(take()).toBe('');
    tick(50);
    live.update(progress({ finished: 2 }));
    expect(take()).toBe('\r\x1b[2K2 tests · 0 failed · 0 skipped · 0s');
    tick(100);
    live.update(progress({ finished: 2 }));
    expect(take()).toBe('');
    tick(1000);
    live.update(progress({ finished: 2 }));
    expect(take()).toBe('\r\x1b[2K2 tests · 0 failed · 0 skipped · 1s');
    live.end();
    expect(take()).toBe('\r\x1b[2K');
    live.end();
    expect(take()).toBe('');
  });

  it('prints a failure on a line of its own and draws the counts again at once', () => {
    const { live, tick, take } = display('redraw');
    live.failure(failed);
    expect(take()).toBe('FAIL  math › adds  test/math.test.js:11\n');
    live.update(progress({ finished: 1, failed: 1 }));
    tick(10);
    live.failure({ ...failed, name: 'second' });
    live.update(progress({ finished: 2, failed: 2 }));
    expect(take()).toBe('\r\x1b[2K1 test · 1 failed · 0 skipped · 0s\r\x1b[2KFAIL  second  test/math.test.js:11\n\r\x1b[2K2 tests · 2 failed · 0 skipped · 0s');
  });

  it('keeps the line within the terminal, whose last column would wrap it', () => {
    const { live, take } = display('redraw', 20);
    live.update(progress({ finished: 123, total: 456, failed: 7 }));
    expect(take()).toBe('\r\x1b[2K123/456 · 7 failed…');
  });
});

describe('LiveDisplay, plain lines', () => {
  it('never writes a carriage return; counts at most every few seconds, and only news', () => {
    const { live, tick, take } = display('plain');
    live.update(progress({ finished: 0 }));
    expect(take()).toBe('');
    live.update(progress({ finished: 1 }));
    expect(take()).toBe('1 test · 0 failed · 0 skipped · 0s\n');
    tick(100);
    live.update(progress({ finished: 2 }));
    live.failure(failed);
    expect(take()).toBe('FAIL  math › adds  test/math.test.js:11\n');
    tick(PLAIN_EVERY_MS);
    live.update(progress({ finished: 3, failed: 1 }));
    expect(take()).toBe('3 tests · 1 failed · 0 skipped · 5s\n');
    tick(1000);
    live.update(progress({ finished: 4, failed: 1 }));
    expect(take()).toBe('');
    tick(1000);
    live.end();
    expect(take()).toBe('4 tests · 1 failed · 0 skipped · 7s\n');
  });

  it('prints nothing when only the time changed, nor at the end when the last counts were printed', () => {
    const { live, tick, take } = display('plain');
    live.update(progress({ finished: 1 }));
    take();
    tick(PLAIN_EVERY_MS * 2);
    live.update(progress({ finished: 1 }));
    expect(take()).toBe('');
    live.end();
    expect(take()).toBe('');
  });
});
