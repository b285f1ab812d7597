import { describe, expect, it } from '@jest/globals';
import type { History, HistoryRun, HistoryTest } from '../../../../src/model/history.js';
import type { Outcome } from '../../../../src/model/results.js';
import { median, p95, trend } from '../../../../src/core/history/durations.js';
import { selectTests } from '../../../../src/core/history/select.js';
import { sameTree, testStats } from '../../../../src/core/history/stats.js';

const run = (n: number, git: { revision: string | null; dirty: boolean | null } = { revision: null, dirty: null }): HistoryRun => ({
  run_id: `r${n}`, started_at: null, status: 'passed', framework: 'jest', duration_ms: 1, ...git, shard: null, source: 'store',
  summary: { run: null, passed: null, failures: null, errors: null, skips: null },
});

const LETTER: Readonly<Record<string, Outcome | null>> = { p: 'passed', f: 'failed', e: 'error', s: 'skipped', k: 'flaky', '.': null };
/** A test from a strip of letters, one per run: p f e s k, `.` not run. */
const test = (name: string, strip: string, durations: readonly (number | null)[] = [], file: string | null = 'a.test.js'): HistoryTest => ({
  name, file, outcomes: [...strip].map((c) => LETTER[c] ?? null), durations: [...strip].map((_, i) => durations[i] ?? null),
});
const history = (runs: readonly HistoryRun[], tests: readonly HistoryTest[]): History => ({ runs, tests, warnings: [] });
const unknownTree = (count: number): HistoryRun[] => Array.from({ length: count }, (_, i) => run(i));

describe('flips', () => {
  it('counts each change between pass and fail from one run of the test to its next', () => {
    const [stats] = testStats(history(unknownTree(10), [test('t', 'ppfpffpepp')]));
    expect(stats).toMatchObject({ runs: 10, failures: 4, flips: 6, flaky: 0, last: 'passed' });
  });

  it('skips over runs where the test did not run, was skipped or was flaky', () => {
    const [stats] = testStats(history(unknownTree(8), [test('t', 'p..sfkkp')]));
    // p → f → p across the gaps: two flips; skipped runs are not runs, flaky ones are verdicts.
    expect(stats).toMatchObject({ runs: 5, failures: 1, flaky: 2, flips: 2, last: 'passed' });
  });

  it('counts a flip only between runs of the same tree: one clean commit, or both without git', () => {
    const runs = [
      run(0, { revision: 'a', dirty: false }), run(1, { revision: 'a', dirty: false }),
      run(2, { revision: 'b', dirty: false }),
      run(3, { revision: 'b', dirty: true }), run(4, { revision: 'b', dirty: true }),
      run(5), run(6),
    ];
    // a:p→f flips; a→b no; b clean→dirty no; dirty→dirty no (the edits may differ); dirty→no git no; no git→no git flips.
    const [stats] = testStats(history(runs, [test('t', 'pfpfpfp')]));
    expect(stats?.flips).toBe(2);
    expect(sameTree(runs[3]!, runs[4]!)).toBe(false);
    expect(sameTree(runs[0]!, runs[1]!)).toBe(true);
    expect(sameTree(runs[5]!, runs[6]!)).toBe(true);
    expect(sameTree(runs[4]!, runs[5]!)).toBe(false);
  });
});

describe('durations', () => {
  it('median is the middle, or the mean of the middle two', () => {
    expect([median([]), median([5]), median([3, 1, 2]), median([4, 1, 3, 2])]).toEqual([null, 5, 2, 2.5]);
  });

  it('p95 is the nearest rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([p95([]), p95([7]), p95(hundred), p95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 1000])]).toEqual([null, 7, 95, 19]);
  });

  it('trend compares the newest third with the rest, by median, with a 1.2x and 5 ms floor', () => {
    expect(trend([10, 10, 10, 10, 10])).toBeNull();
    expect(trend([10, 10, 10, 10, 20, 20])).toBe('slower');
    expect(trend([20, 20, 20, 20, 10, 10])).toBe('faster');
    expect(trend([10, 10, 10, 10, 11, 11])).toBe('steady');
    // 1 ms to 3 ms is thrice as slow, but noise.
    expect(trend([1, 1, 1, 1, 3, 3])).toBe('steady');
  });

  it('ignores runs without a duration, and durations of skipped runs', () => {
    const [stats] = testStats(history(unknownTree(8), [test('t', 'ppppppps', [10, null, 30, 20, 40, 50, 60, 1])]));
    expect(stats).toMatchObject({ median_ms: 35, p95_ms: 60, trend: 'slower', last: 'skipped', runs: 7 });
  });
});

describe('order', () => {
  it('puts the most flips first, then the flakiest, then the slowest, then file and name', () => {
    const tests = [
      test('slow', 'pppp', [90, 90, 90, 90]),
      test('fast', 'pppp', [1, 1, 1, 1]),
      test('unknown', 'pppp'),
      test('flaky', 'pkpp', [1, 1, 1, 1]),
      test('flips twice', 'pfpp', [1, 1, 1, 1]),
      test('b', 'pppp', [5, 5, 5, 5], 'b.test.js'),
      test('a', 'pppp', [5, 5, 5, 5], 'b.test.js'),
      test('flips thrice', 'pfpf'),
    ];
    expect(testStats(history(unknownTree(4), tests)).map((s) => s.name)).toEqual(['flips thrice', 'flips twice', 'flaky', 'slow', 'a', 'b', 'fast', 'unknown']);
  });
});

describe('selecting tests', () => {
  const all = history(unknownTree(1), [test('adds', 'p', [], 'test/math.test.js'), test('subtracts', 'p', [], 'test/math.test.js'), test('adds up', 'p', [], 'test/sum/sum.test.js'), test('x', 'p', [], null)]);
  const names = (operand: string | null): string[] => selectTests(all, operand).tests.map((t) => t.name);

  it('by name substring, by file, or by directory; every run stays', () => {
    expect(names('adds')).toEqual(['adds', 'adds up']);
    expect(names('test/math.test.js')).toEqual(['adds', 'subtracts']);
    expect(names('./test/sum/')).toEqual(['adds up']);
    expect(names('test')).toEqual(['adds', 'subtracts', 'adds up']);
    expect(names(null)).toHaveLength(4);
    expect(names('nothing')).toEqual([]);
    expect(selectTests(all, 'nothing').runs).toHaveLength(1);
  });
});
