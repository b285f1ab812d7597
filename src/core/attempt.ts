import path from 'node:path';
import type { PlanRequest, Runner } from '../runners/types.js';
import type { ArtifactPaths } from '../store/artifacts.js';
import { clearArtifacts, ensureDir } from '../store/artifacts.js';
import type { Interrupts, RunRequest } from '../model/request.js';
import type { FailedTestRecord } from '../model/results.js';
import { leakWarning, mapLines } from '../process/index.js';
import { runCommands } from './commands.js';
import { followReports } from './follow-reports.js';
import { planRerun } from './rerun.js';
import { decide } from './verdict.js';
import { readLogTail } from './log-tail.js';
import { retryable, retryFailures, statusAfterRetries, type AttemptRun } from './retry.js';
import { rerunRules } from './rerun.js';
import { HarnessError } from '../model/errors.js';
import type { RetriesInfo } from '../model/report.js';
import type { ParsedReport, RunStatus, TestResult } from '../model/results.js';

/** What a retry needs of the run it retries. */
export interface RetriedRun {
  readonly request: RunRequest;
  readonly adapter: Runner;
  readonly root: string;
  readonly artifacts: ArtifactPaths;
  /** The first run's plan: a retry keeps its environment and arguments, not its selection. */
  readonly planRequest: PlanRequest;
  readonly marker: string;
}

/** A retry's files, in `attempt-<n>/` of the run's directory: its own log and reports,
 * so that no attempt overwrites another's evidence. */
export function attemptArtifacts(artifacts: ArtifactPaths, attempt: number): ArtifactPaths {
  const dir = path.join(artifacts.runDir, `attempt-${attempt}`);
  return { ...artifacts, runDir: dir, log: path.join(dir, 'test.log'), report: path.join(dir, 'report.json'), file: (name) => path.join(dir, name) };
}

/** A retry's plan: the first run's environment and runner arguments, its selection
 * replaced by the records, and run afresh: a result the runner would replay from its own
 * cache (go's test cache, holding an earlier retry's pass) proves nothing. */
export const attemptPlan = (first: PlanRequest, artifacts: ArtifactPaths, records: readonly FailedTestRecord[]): PlanRequest =>
  ({ ...first, artifacts, files: [], units: undefined, name: null, at: [], rerun: records, noCache: true });

/** Runs exactly `records` again, as --failed-only would (planRerun: the exact selection,
 * or their files when the command line cannot hold it). Its results are trusted only
 * from a complete report of a run that was neither cut short nor interrupted. */
export async function runAttempt(run: RetriedRun, records: readonly FailedTestRecord[], attempt: number, interrupts: Interrupts): Promise<AttemptRun> {
  const artifacts = attemptArtifacts(run.artifacts, attempt);
  ensureDir(artifacts.runDir);
  const { invocation, warnings } = planRerun(run.adapter, attemptPlan(run.planRequest, artifacts, records));
  clearArtifacts([artifacts.log, ...invocation.reports.map((report) => report.path)]);
  const { request } = run;
  const tee = request.tee && invocation.humanOutput ? mapLines(request.tee, invocation.humanOutput()) : request.tee;
  const running = runCommands(invocation, { runId: run.marker, logPath: artifacts.log, timeoutMs: request.timeoutMs, killGraceMs: request.killGraceMs, tee, maxLogBytes: request.maxLogBytes }, interrupts);
  const following = followReports(invocation.reports, run.root, null);
  following.catch(() => undefined); // awaited below, once the runner is done
  let outcome;
  try {
    outcome = await running;
  } finally {
    if (tee !== request.tee) tee?.end();
  }
  const report = (await following).finish().report;
  const verdict = decide({ process: outcome, report, minTests: 0, allowNoTests: true, logPath: artifacts.log, logTail: () => readLogTail(artifacts.log) });
  const trusted = report !== null && report.complete && report.unusable === undefined && (verdict.status === 'passed' || verdict.status === 'failed');
  return {
    status: verdict.status,
    results: trusted ? report.tests : null,
    log: artifacts.log,
    warnings: [...warnings, ...(outcome.leaked.length > 0 ? [leakWarning(outcome.leaked)] : [])],
  };
}

export interface RetriedResults {
  readonly tests: readonly TestResult[];
  readonly status: RunStatus;
  readonly warnings: readonly string[];
  /** null without --retries. */
  readonly info: RetriesInfo | null;
}

/** --retries after a run that failed: its failing tests run again (src/core/retry.ts),
 * and the status says what the retries found. An interrupt during a retry interrupts
 * the run. A run that did not fail, or failed only outside its tests, is not retried. */
export async function retryRun(run: RetriedRun, tests: readonly TestResult[], first: RunStatus, report: ParsedReport | null, interrupts: Interrupts): Promise<RetriedResults> {
  const max = run.request.retries ?? 0;
  if (max === 0) return { tests, status: first, warnings: [], info: null };
  const flakyFails = run.request.flakyFails === true;
  if (first !== 'failed' || retryable(tests).length === 0 || interrupts.signal !== null) {
    return { tests, status: first, warnings: [], info: { max, flaky_fails: flakyFails, runs: [] } };
  }
  const retried = await retryFailures(tests, max, (records, attempt) => guardedAttempt(run, records, attempt, interrupts), rerunRules(run.adapter));
  const executed = retried.tests.filter((t) => t.status !== 'skipped').length;
  const trusted = report !== null && report.complete && (report.contradictions ?? []).length === 0 && executed >= run.request.minTests;
  const after = statusAfterRetries(first, retried.tests, trusted, flakyFails);
  return {
    tests: retried.tests,
    status: interrupts.signal === null ? after.status : 'interrupted',
    warnings: [...retried.warnings, ...after.warnings],
    info: { max, flaky_fails: flakyFails, runs: retried.runs },
  };
}

/** A retry that cannot start (its runner gone from PATH, its directory unwritable) is a
 * retry without results: the first run's evidence stands, and the warning says why. */
async function guardedAttempt(run: RetriedRun, records: readonly FailedTestRecord[], attempt: number, interrupts: Interrupts): Promise<AttemptRun> {
  try {
    return await runAttempt(run, records, attempt, interrupts);
  } catch (error) {
    if (!(error instanceof HarnessError) || error.code === 'USAGE') throw error;
    return { status: 'error', results: null, log: attemptArtifacts(run.artifacts, attempt).log, warnings: [`retry ${attempt - 1} could not run: ${error.message}`] };
  }
}
