import { describe, expect, it } from '@jest/globals';
import type { HistoryRun, TestStats } from '../../../src/model/history.js';
import { ms, renderHistory } from '../../../src/render/history.js';

const run = (started_at: string | null): HistoryRun => ({
  run_id: 'r', started_at, status: 'passed', framework: 'jest', duration_ms: 1, revision: null, dirty: null, shard: null, source: 'store',
  summary: { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 },
});
const stats = (name: string, over: Partial<TestStats> = {}): TestStats => ({
  name, file: 'test/a.test.js', runs: 12, failures: 3, flaky: 1, flips: 4, median_ms: 12.4, p95_ms: 2500, trend: 'slower', last: 'failed', ...over,
});

describe('renderHistory', () => {
  it('prints a header, a table in the given order, and the warnings', () => {
    const text = renderHistory({
      project_root: '/p', runs: [run('2026-12-01T00:00:02.000Z'), run(null), run('2026-12-01T00:00:01.000Z')],
      tests: [stats('flips'), stats('unknown', { file: null, runs: 1, failures: 0, flaky: 0, flips: 0, median_ms: null, p95_ms: null, trend: null, last: 'skipped' })],
      warnings: ['/p/.run-tests/history/x:3: not a test line; skipped'],
    });
    expect(text).toBe([
      '/p: 3 runs, from 2026-12-01T00:00:01.000Z to 2026-12-01T00:00:02.000Z; 2 tests',
      'runs  fail  flaky  flips  median     p95  trend   last     test',
      '  12     3      1      4   12 ms   2.5 s  slower  failed   test/a.test.js  flips',
      '   1     0      0      0       -       -  -       skipped  unknown',
      'warning: /p/.run-tests/history/x:3: not a test line; skipped',
      '',
    ].join('\n'));
  });

  it('shows a name with control characters escaped, and says when nothing matches or nothing is recorded', () => {
    expect(renderHistory({ project_root: '/p', runs: [run(null)], tests: [stats('a\u001b[2Jb\nc')], warnings: [] })).toContain('test/a.test.js  a\\x1b[2Jb\\x0ac\n');
    expect(renderHistory({ project_root: '/p', runs: [run(null)], tests: [], warnings: [] })).toBe('/p: 1 run; 0 tests\nno test matches\n');
    expect(renderHistory({ project_root: '/p', runs: [], tests: [], warnings: [] })).toBe('no history recorded in /p: run the tests first\n');
  });

  it('ms', () => {
    expect([ms(null), ms(0.4), ms(999.4), ms(1000), ms(61_000)]).toEqual(['-', '0 ms', '999 ms', '1.0 s', '61.0 s']);
  });
});
