import { SCHEMA_VERSION, type ReportedTest, type RunReport } from '../../src/model/report.js';

/** Builders of shard reports with the shapes of src/model/report.ts, as
 * `run-tests --shard i/n --json` writes them: for the merge's tests, where real shards
 * of every case (a doubled shard, a foreign partition) would be made by hand anyway. */
export const reportedTest = (name: string, file: string, status: ReportedTest['status'] = 'passed', message?: string): ReportedTest =>
  ({ id: name, name, file, line: 1, status, duration_ms: 5, ...(message === undefined ? {} : { message }) });

export const failureRecord = (name: string, file: string, line = 1) =>
  ({ test_name: name, file, line, status: 'failed' as const, message: `${name} broke`, id: name, stack: null, rerun_argv: null });

/** Shard `index` of `count` of partition `partition`: two passing tests in one unit of its own. */
export function shardReport(index: number, count: number, over: Partial<RunReport> = {}, partition = 'p1'): RunReport {
  const unit = `test/${index}.test.js`;
  return {
    schema_version: SCHEMA_VERSION, source: 'run', run_id: `20261201-000000.00${index}-0000000${index}`, status: 'passed', exit_code: 0,
    framework: 'jest', reason: 'jest', command: 'npx jest', project_root: `/ci/${index}`, exit_status: 0, signal: null, timed_out: false,
    duration_ms: 1000 * index, started_at: `2026-12-01T00:00:0${index}.000Z`, finished_at: `2026-12-01T00:01:0${index}.000Z`,
    summary: { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }, failed_tests: [], rerun: null, artifact: `/ci/${index}/log`,
    failures_file: null, next: null, warnings: [], error: null, projects: [],
    unit_durations: { [unit]: 100 * index },
    shard: { index, count, units: [unit], partition },
    tests: [reportedTest(`a${index}`, unit), reportedTest(`b${index}`, unit)],
    ...over,
  };
}
