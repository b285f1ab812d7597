import { describe, expect, it } from '@jest/globals';
import { testStats } from '../../../../src/core/history/stats.js';
import type { History, HistoryRun, HistoryTest } from '../../../../src/model/history.js';
import type { Outcome } from '../../../../src/model/results.js';
import { PAGE_LIMITS, pageModel } from '../../../../src/render/report-page/model.js';
import { sampleHistory, sampleLastReport, XSS_NAME } from '../../../support/page-history.js';

const run = (i: number, over: Partial<HistoryRun> = {}): HistoryRun => ({
  run_id: `run-${i}`, started_at: `2026-11-01T00:0${i}:00.000Z`, status: 'passed', framework: 'jest', duration_ms: 100 * (i + 1), revision: null, dirty: null,
  shard: null, source: 'store', summary: { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }, ...over,
});
const test = (name: string, outcomes: (Outcome | null)[], ms: number): HistoryTest => ({ name, file: 'a.test.js', outcomes, durations: outcomes.map((o) => (o === null ? null : ms)) });
const model = (history: History) => pageModel(history, testStats(history), null, '/p', '2026-11-02T00:00:00.000Z');

describe('pageModel', () => {
  it('counts each run by its summary: failures and errors as failed, flaky apart from passed', () => {
    const history: History = { runs: [run(0, { status: 'failed', summary: { run: 7, passed: 3, failures: 1, errors: 2, skips: 1, flaky: 1 } }), run(1, { summary: { run: null, passed: null, failures: null, errors: null, skips: null } })], tests: [], warnings: ['w'] };
    const m = model(history);
    expect(m.runs.map(({ run_id, status, passed, failed, flaky, skipped }) => [run_id, status, passed, failed, flaky, skipped])).toEqual([['run-0', 'failed', 3, 3, 1, 1], ['run-1', 'passed', 0, 0, 0, 0]]);
    expect(m.warnings).toEqual(['w']);
    expect(m.last).toBeNull();
  });

  it('lists the slowest by median and the flakiest by flips, each with its column per run, and at most the limits', () => {
    const runs = [0, 1, 2, 3].map((i) => run(i));
    const steady = Array.from({ length: 30 }, (_, i) => test(`steady ${String(i).padStart(2, '0')}`, ['passed', 'passed', 'passed', 'passed'], i));
    const flipper = test('flipper', ['passed', 'failed', 'passed', 'failed'], 5);
    const once = test('once', ['passed', 'flaky', null, 'passed'], 1);
    const m = model({ runs, tests: [...steady, flipper, once], warnings: [] });
    expect(m.tests).toBe(32);
    expect(m.slowest.map((t) => t.name)).toEqual(Array.from({ length: PAGE_LIMITS.slowest }, (_, i) => `steady ${String(29 - i).padStart(2, '0')}`));
    expect(m.slowest[0]?.durations).toEqual([29, 29, 29, 29]);
    expect(m.flakiest.map((t) => [t.name, t.flips, t.flaky, t.failures, t.runs])).toEqual([['flipper', 3, 0, 2, 4], ['once', 0, 1, 0, 3]]);
    expect(m.flakiest[1]?.outcomes).toEqual(['passed', 'flaky', null, 'passed']);
    expect(m.unsteady).toBe(2);
  });

  it('keeps the last run\'s failures, at most the limit, messages cut, and says how many there were', () => {
    const history = sampleHistory(30);
    const last = sampleLastReport(history);
    const many = { ...last, failed_tests: Array.from({ length: 60 }, (_, i) => ({ ...last.failed_tests[0]!, test_name: `t${i}`, message: 'x'.repeat(3000) })), truncated: { failed_tests: 5 } };
    const m = pageModel(history, testStats(history), many, '/p');
    expect(m.last?.total).toBe(65);
    expect(m.last?.failures).toHaveLength(PAGE_LIMITS.failures);
    expect(m.last?.failures[0]?.message).toBe(`${'x'.repeat(PAGE_LIMITS.message)}…`);
    expect(pageModel(history, testStats(history), last, '/p').last?.failures.map((f) => [f.name, f.file, f.line, f.status])).toEqual([[XSS_NAME, 'src/<img src=x onerror=alert(2)>.test.ts', 4, 'failed']]);
  });

  it('groups sharded runs by partition, newest first, each part once (its newest run), by index', () => {
    const shard = (index: number, partition: string) => ({ index, count: 2, partition });
    const runs = [run(0, { shard: shard(2, 'old') }), run(1, { shard: shard(1, 'old') }), run(2), run(3, { shard: shard(1, 'new') }), run(4, { shard: shard(1, 'new') })];
    expect(model({ runs, tests: [], warnings: [] }).partitions).toEqual([
      { partition: 'new', parts: [{ index: 1, count: 2, run_id: 'run-4', duration_ms: 500 }] },
      { partition: 'old', parts: [{ index: 1, count: 2, run_id: 'run-1', duration_ms: 200 }, { index: 2, count: 2, run_id: 'run-0', duration_ms: 100 }] },
    ]);
  });
});
