import { describe, expect, it } from '@jest/globals';
import { retryable, retryFailures, statusAfterRetries, type AttemptRun } from '../../../src/core/retry.js';
import type { FailedTestRecord, TestResult, TestStatus } from '../../../src/model/results.js';

const result = (name: string, status: TestStatus, extra: Partial<{ file: string; message: string; durationMs: number; outside: true }> = {}): TestResult => {
  const base = { id: `t.js::${name}`, name, file: extra.file ?? 't.js', line: 3, ...(extra.durationMs === undefined ? {} : { durationMs: extra.durationMs }) };
  return status === 'failed' || status === 'error'
    ? { ...base, status, message: extra.message ?? `${name} broke`, ...(extra.outside ? { outside: true as const } : {}) }
    : { ...base, status };
};

/** A retry run that gives each asked-for test the status the script says for this attempt. */
function scripted(script: Record<string, readonly TestStatus[]>, asked: string[][] = []): (records: readonly FailedTestRecord[], attempt: number) => Promise<AttemptRun> {
  return async (records, attempt) => {
    asked.push(records.map((r) => r.test_name));
    const results = records.flatMap((r) => {
      const status = script[r.test_name]?.[attempt - 2];
      return status === undefined ? [] : [result(r.test_name, status, { durationMs: attempt })];
    });
    return { status: results.some((r) => r.status === 'failed') ? 'failed' : 'passed', results, log: `/runs/x/attempt-${attempt}/test.log` };
  };
}

describe('retryFailures', () => {
  const first = [result('ok', 'passed'), result('flaky', 'failed', { durationMs: 1 }), result('broken', 'failed', { durationMs: 1 })];

  it('makes a test that passes on a retry flaky, keeps every attempt of one that never does, and stops each at its first pass', async () => {
    const asked: string[][] = [];
    const retried = await retryFailures(first, 2, scripted({ flaky: ['passed'], broken: ['failed', 'failed'] }, asked));
    expect(asked).toEqual([['flaky', 'broken'], ['broken']]);
    expect(retried.tests.map((t) => [t.name, t.status])).toEqual([['ok', 'passed'], ['flaky', 'flaky'], ['broken', 'failed']]);
    expect(retried.tests[1]).toMatchObject({ message: 'flaky broke', attempts: [
      { status: 'failed', duration_ms: 1, message: 'flaky broke' }, { status: 'passed', duration_ms: 2, message: null }] });
    expect(retried.tests[2]?.attempts).toEqual([
      { status: 'failed', duration_ms: 1, message: 'broken broke' }, { status: 'failed', duration_ms: 2, message: 'broken broke' }, { status: 'failed', duration_ms: 3, message: 'broken broke' }]);
    expect(retried.runs).toEqual([
      { attempt: 2, tests: 2, log: '/runs/x/attempt-2/test.log', status: 'failed' },
      { attempt: 3, tests: 1, log: '/runs/x/attempt-3/test.log', status: 'failed' }]);
    expect(retried.warnings).toEqual([]);
  });

  it('never retries an error outside any test (a load or build error), and leaves it as it was', async () => {
    const load = result('load error: b.js', 'error', { file: 'b.js', outside: true });
    expect(retryable([load, ...first]).map((t) => t.name)).toEqual(['flaky', 'broken']);
    const asked: string[][] = [];
    const retried = await retryFailures([load], 2, scripted({}, asked));
    expect([asked, retried.tests, retried.runs]).toEqual([[], [load], []]);
  });

  it('counts a result only by identity: a test of the same name in another file did not run', async () => {
    const elsewhere = async (): Promise<AttemptRun> => ({ status: 'passed', results: [result('flaky', 'passed', { file: 'other.js' })], log: 'l' });
    const retried = await retryFailures([result('flaky', 'failed')], 1, elsewhere);
    expect(retried.tests[0]).toEqual(result('flaky', 'failed'));
    expect(retried.warnings).toEqual(['retry 1: "flaky" did not run; it stays a failure']);
  });

  it('ends the retries at a retry without results to trust: its tests stay failures', async () => {
    const crashed = async (): Promise<AttemptRun> => ({ status: 'error', results: null, log: '/l' });
    const retried = await retryFailures([result('flaky', 'failed')], 3, crashed);
    expect(retried.tests[0]?.status).toBe('failed');
    expect(retried.runs).toHaveLength(1);
    expect(retried.warnings).toEqual(['retry 1 (attempt 2) ended error without results to trust: its 1 test stays a failure; see /l']);
  });

  it('keeps a test skipped on a retry a failure', async () => {
    const retried = await retryFailures([result('flaky', 'failed')], 2, scripted({ flaky: ['skipped'] }));
    expect(retried.tests[0]).toMatchObject({ status: 'failed', attempts: [{ status: 'failed' }, { status: 'skipped' }] });
    expect(retried.warnings).toEqual(['retry 1: "flaky" was skipped; it stays a failure']);
  });
});

describe('statusAfterRetries', () => {
  const flaky: TestResult = { id: 'f', name: 'f', file: 't.js', line: 1, status: 'flaky', message: 'm', attempts: [{ status: 'failed', duration_ms: 1, message: 'm' }, { status: 'passed', duration_ms: 1, message: null }] };
  const ok = result('ok', 'passed');

  it('passes a run whose every failure turned flaky, with a warning naming them', () => {
    expect(statusAfterRetries('failed', [ok, flaky], true, false)).toEqual({ status: 'passed', warnings: ['1 flaky test failed, then passed on a retry: "f"; the run passes (--flaky-fails would fail it)'] });
  });

  it('fails it with --flaky-fails, or while any failure remains, or when the first report cannot be trusted', () => {
    expect(statusAfterRetries('failed', [ok, flaky], true, true).status).toBe('failed');
    expect(statusAfterRetries('failed', [flaky, result('broken', 'failed')], true, false).status).toBe('failed');
    expect(statusAfterRetries('failed', [ok, flaky], false, false).status).toBe('failed');
  });

  it('leaves any other status as it is', () => {
    expect(statusAfterRetries('timed_out', [flaky], true, false)).toEqual({ status: 'timed_out', warnings: [] });
    expect(statusAfterRetries('failed', [result('broken', 'failed')], true, false)).toEqual({ status: 'failed', warnings: [] });
  });
});
