import { describe, expect, it } from '@jest/globals';
import { mergeReports } from '../../../src/core/run.js';
import { SCHEMA_VERSION, type RunReport } from '../../../src/model/report.js';
import type { RunRequest } from '../../../src/model/request.js';

const failure = (name: string) => ({ test_name: name, file: 'test/a.js', line: 3, status: 'failed' as const, message: 'no', id: name, stack: null, rerun_argv: null });

const project = (root: string, over: Partial<RunReport>): RunReport => ({
  schema_version: SCHEMA_VERSION, source: 'run', run_id: null, status: 'failed', exit_code: 1, framework: 'jest', reason: null,
  command: 'npx jest', project_root: root, exit_status: 1, signal: null, timed_out: false, duration_ms: 1, started_at: null,
  finished_at: null, summary: { run: 3, passed: 0, failures: 3, errors: 0, skips: 0 }, failed_tests: [], rerun: null,
  artifact: null, failures_file: null, next: null, warnings: [], error: null, projects: [], ...over,
});

const request = (maxFailures: number | null) => ({ cwd: '/m', allowNoTests: false, runner: null, failedOnly: false, maxFailures }) as unknown as RunRequest;

describe('mergeReports', () => {
  const a = project('/m/a', { failed_tests: [failure('a1'), failure('a2')], truncated: { failed_tests: 1 } });
  const b = project('/m/b', { status: 'timed_out', timed_out: true, failed_tests: [failure('b1'), failure('b2')], running_at_timeout: [{ name: 'hangs', file: 'test/h.js' }] });

  it('caps the failures of all projects together, counting those each project left out', () => {
    const merged = mergeReports(request(3), [a, b]);
    expect(merged.failed_tests.map((t) => [t.test_name, t.file])).toEqual([['a1', 'a/test/a.js'], ['a2', 'a/test/a.js'], ['b1', 'b/test/a.js']]);
    expect(merged.truncated).toEqual({ failed_tests: 2 });
    expect(mergeReports(request(null), [b]).truncated).toBeUndefined();
  });

  it('keys the projects\' unit_durations from where run-tests was started', () => {
    const timed = mergeReports(request(null), [{ ...a, unit_durations: { 'test/a.js': 12.5 } }, { ...b, unit_durations: { 'test/b.js': 3 } }]);
    expect(timed.unit_durations).toEqual({ 'a/test/a.js': 12.5, 'b/test/b.js': 3 });
    expect('unit_durations' in mergeReports(request(null), [a, b])).toBe(false);
  });

  it('names what ran when a project timed out, its files from where run-tests was started; unknown in one is unknown', () => {
    expect(mergeReports(request(null), [a, b]).running_at_timeout).toEqual([{ name: 'hangs', file: 'b/test/h.js' }]);
    expect(mergeReports(request(null), [a, { ...b, running_at_timeout: null }]).running_at_timeout).toBeNull();
    expect('running_at_timeout' in mergeReports(request(null), [a])).toBe(false);
  });
});
