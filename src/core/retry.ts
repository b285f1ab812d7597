import type { RetriesInfo } from '../model/report.js';
import type { Attempt, FailedTest, FailedTestRecord, FlakyTest, FlakyTestRecord, RunStatus, TestResult } from '../model/results.js';
import { isFailure, isSameTest, toRecord, type RerunRules } from './failures.js';
import { uncarriable } from './rerun.js';

/** What one retry run gave: its results, or null when it gave none that can be trusted
 * (no report, a report cut short, a timeout, an interrupt). */
export interface AttemptRun {
  readonly status: RunStatus;
  readonly results: readonly TestResult[] | null;
  readonly log: string;
  readonly warnings?: readonly string[];
}

/** Runs the tests of `records` again, exactly those (attempt 2 is the first retry). */
export type RunAttempt = (records: readonly FailedTestRecord[], attempt: number) => Promise<AttemptRun>;

export interface Retried {
  /** The run's results, each retried failure now flaky or carrying its attempts. */
  readonly tests: readonly TestResult[];
  readonly runs: RetriesInfo['runs'];
  readonly warnings: readonly string[];
}

/** The failures --retries runs again: tests, never an error outside any test (a load or
 * build error), and never one no command line can carry. */
export function retryable(tests: readonly TestResult[]): FailedTest[] {
  const failures = tests.filter(isFailure).filter((t) => t.outside !== true);
  const refused = new Set(uncarriable(failures.map(toRecord)).map((r) => r.id));
  return failures.filter((t) => !refused.has(t.id));
}

/** Reruns each retryable failure, up to `max` more times, all still failing together in
 * one rerun per attempt, each stopping at its first pass. A result counts for a test only
 * by identity (name and file, or name and id): a retry checks what ran, not what it asked
 * for. A test that passed on a retry is flaky; one that failed every attempt keeps them
 * all. A retry without trusted results ends the retries: its tests stay failures. */
export async function retryFailures(tests: readonly TestResult[], max: number, runAttempt: RunAttempt, rules: RerunRules = {}): Promise<Retried> {
  const attempts = new Map<FailedTest, Attempt[]>(retryable(tests).map((t) => [t, [attemptOf(t)]]));
  const passed = new Set<FailedTest>();
  const runs: RetriesInfo['runs'][number][] = [];
  const warnings: string[] = [];
  let pending = [...attempts.keys()];
  for (let attempt = 2; attempt <= max + 1 && pending.length > 0; attempt += 1) {
    const records = pending.map(toRecord);
    const run = await runAttempt(records, attempt);
    runs.push({ attempt, tests: pending.length, log: run.log, status: run.status });
    warnings.push(...(run.warnings ?? []));
    if (run.results === null) {
      warnings.push(`retry ${attempt - 1} (attempt ${attempt}) ended ${run.status} without results to trust: its ${pending.length} ${pending.length === 1 ? 'test stays a failure' : 'tests stay failures'}; see ${run.log}`);
      break;
    }
    const byName = new Map<string, TestResult[]>();
    for (const r of run.results) {
      const same = byName.get(r.name);
      if (same) same.push(r);
      else byName.set(r.name, [r]);
    }
    const still: FailedTest[] = [];
    pending.forEach((test, i) => {
      const record = records[i] as FailedTestRecord;
      const result = byName.get(record.test_name)?.find((r) => isSameTest(record, r, rules.identity));
      if (result === undefined) {
        warnings.push(`retry ${attempt - 1}: ${JSON.stringify(test.name)} did not run; it stays a failure`);
        return;
      }
      attempts.get(test)?.push(attemptOf(result));
      if (result.status === 'passed') passed.add(test);
      else if (isFailure(result)) still.push(test);
      else warnings.push(`retry ${attempt - 1}: ${JSON.stringify(test.name)} was skipped; it stays a failure`);
    });
    pending = still;
  }
  return {
    tests: tests.map((test) => {
      const tried = isFailure(test) ? attempts.get(test) : undefined;
      if (tried === undefined || !isFailure(test) || tried.length === 1) return test;
      return passed.has(test) ? flaky(test, tried) : { ...test, attempts: tried };
    }),
    runs,
    warnings,
  };
}

function flaky(test: FailedTest, attempts: readonly Attempt[]): FlakyTest {
  const { status: _status, message, stack: _stack, outside: _outside, ...rest } = test;
  return { ...rest, status: 'flaky', message, attempts };
}

function attemptOf(result: TestResult): Attempt {
  return { status: result.status === 'flaky' ? 'passed' : result.status, duration_ms: result.durationMs ?? null, message: isFailure(result) ? result.message : null };
}

export const isFlaky = (test: TestResult): test is FlakyTest => test.status === 'flaky';

export const flakyRecord = (test: FlakyTest): FlakyTestRecord => ({ test_name: test.name, file: test.file, line: test.line, id: test.id, attempts: test.attempts });

/** The run's status once its failures were retried: `passed` (with a warning) when every
 * failure turned flaky and the first run's report would have passed but for them; with
 * --flaky-fails a flaky test fails the run. The exit status of the first run is put down
 * to its failures: a report cut short or contradicting itself never passes. */
export function statusAfterRetries(first: RunStatus, tests: readonly TestResult[], trusted: boolean, flakyFails: boolean): { status: RunStatus; warnings: string[] } {
  const flakyTests = tests.filter(isFlaky);
  if (first !== 'failed' || flakyTests.length === 0) return { status: first, warnings: [] };
  const names = flakyTests.map((t) => JSON.stringify(t.name)).join(', ');
  const what = `${flakyTests.length} flaky ${flakyTests.length === 1 ? 'test' : 'tests'} failed, then passed on a retry: ${names}`;
  if (tests.some(isFailure) || !trusted) return { status: first, warnings: [what] };
  if (flakyFails) return { status: 'failed', warnings: [`${what}; --flaky-fails: a flaky test fails the run`] };
  return { status: 'passed', warnings: [`${what}; the run passes (--flaky-fails would fail it)`] };
}
