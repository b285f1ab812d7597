import type { Invocation } from '../runners/types.js';
import type { Detection } from '../detect/detect.js';
import type { ProcessOutcome } from '../process/index.js';
import type { ArtifactPaths } from '../store/artifacts.js';
import type { HarnessError } from '../model/errors.js';
import { displayCommand } from './quote.js';
import { SCHEMA_VERSION, type ChangePlan, type ReportedFailure, type ReportedTest, type RetriesInfo, type RunReport, type ShardInfo } from '../model/report.js';
import { DEFAULT_MAX_FAILURES, type RunRequest } from '../model/request.js';
import { capFailures, isFailure, recordOf } from './failures.js';
import type { FailedTestRecord, FlakyTestRecord, PackageResult, RunningTest, RunStatus, TestResult } from '../model/results.js';
import { exitCodeOf } from '../model/exit-codes.js';
import { summarize } from './verdict.js';
import { asCommand, nextArgv, rerunArgv } from './suggest.js';

/** What a project's report is built from. */
export interface Context {
  readonly request: RunRequest;
  readonly root: string;
  readonly artifacts: ArtifactPaths;
  readonly detection: Detection | null;
  /** ISO 8601: when this project's run began. */
  readonly startedAt: string;
}

export interface Parts {
  readonly status: RunStatus;
  readonly outcome: ProcessOutcome | null;
  readonly summary: RunReport['summary'];
  readonly failed: readonly FailedTestRecord[];
  readonly warnings: readonly string[];
  readonly error: RunReport['error'];
  readonly rerun: RunReport['rerun'];
  readonly failuresFile: string | null;
  /** From the parsed report (ParsedReport.packages and .notes). */
  readonly packages?: readonly PackageResult[] | undefined;
  readonly notes?: readonly string[] | undefined;
  /** ParsedReport.running: what ran when the run stopped, where the report tells. */
  readonly running?: readonly RunningTest[] | undefined;
  /** Each unit's summed test durations (src/core/shard/report-fields.ts). */
  readonly unitDurations?: RunReport['unit_durations'];
  /** With --shard: the part this run was, and every test it ran. */
  readonly shard?: { readonly info: ShardInfo; readonly tests: readonly ReportedTest[] };
  /** With --changed: what the change needed. */
  readonly plan?: ChangePlan | undefined;
  /** With --retries: how the failures were retried (the flaky tests are in `tests`). */
  readonly retries?: RetriesInfo | undefined;
  /** With --retries: the run's flaky tests. */
  readonly flaky?: readonly FlakyTestRecord[] | undefined;
}

export function buildReport(run: Context & { invocation?: Invocation }, parts: Parts): RunReport {
  const { request, invocation } = run;
  // Only a run that recorded its failures can be rerun by them; a --command's tests by nothing.
  const next = nextArgv(request, [run.root], { status: parts.status, recordedFailures: parts.failed.length > 0 && parts.failuresFile !== null });
  const rerunnable = request.custom === null;
  return {
    schema_version: SCHEMA_VERSION,
    source: 'run',
    run_id: run.artifacts.runId,
    status: parts.status,
    exit_code: exitCodeOf(parts.status, request.allowNoTests),
    framework: run.detection?.adapter.id ?? null,
    reason: run.detection ? [run.detection.reason, ...(invocation?.notes ?? []), ...(parts.notes ?? [])].join('; ') : null,
    command: invocation ? displayCommand(invocation) : null,
    project_root: run.root,
    exit_status: parts.outcome?.exitCode ?? null,
    signal: parts.outcome?.signal ?? null,
    timed_out: parts.outcome?.timedOut ?? false,
    ...(parts.outcome?.timedOut === true ? { running_at_timeout: parts.running ?? null } : {}),
    duration_ms: Math.round(parts.outcome?.durationMs ?? 0),
    started_at: run.startedAt,
    finished_at: new Date().toISOString(),
    summary: parts.retries ? { ...parts.summary, flaky: parts.summary.run === null ? null : parts.flaky?.length ?? 0 } : parts.summary,
    ...withFlaky(capFailures(parts.failed.map((t) => ({ ...t, rerun_argv: rerunnable ? rerunArgv(request, run.root, t) : null })), maxFailures(request)),
      parts.retries ? parts.flaky ?? [] : null, maxFailures(request)),
    rerun: parts.rerun,
    artifact: parts.outcome ? run.artifacts.log : null,
    failures_file: parts.failuresFile,
    next: rerunnable ? asCommand(next) : null,
    warnings: parts.warnings,
    error: parts.error,
    projects: [],
    ...(parts.packages === undefined ? {} : { packages: parts.packages }),
    ...(parts.unitDurations === undefined ? {} : { unit_durations: parts.unitDurations }),
    ...(parts.shard === undefined ? {} : { shard: parts.shard.info, tests: parts.shard.tests }),
    ...(parts.plan === undefined ? {} : { plan: parts.plan }),
    ...(parts.retries === undefined ? {} : { retries: parts.retries }),
  };
}

/** The failures, capped, and with --retries (flaky not null) the flaky tests, capped as
 * they are, how many of either were left out in `truncated`. */
export function withFlaky(failures: ReturnType<typeof capFailures<ReportedFailure>>, flaky: readonly FlakyTestRecord[] | null, max: number | null, dropped = 0): Pick<RunReport, 'failed_tests' | 'truncated' | 'flaky_tests'> {
  if (flaky === null) return failures;
  const shown = max === null ? flaky : flaky.slice(0, max);
  const left = dropped + flaky.length - shown.length;
  if (left === 0) return { ...failures, flaky_tests: shown };
  return { ...failures, flaky_tests: shown, truncated: { ...failures.truncated, flaky_tests: left } };
}

/** --max-failures, or its default when the request does not say. */
export const maxFailures = (request: RunRequest): number | null =>
  (request.maxFailures === undefined ? DEFAULT_MAX_FAILURES : request.maxFailures);

const EMPTY_PARTS = {
  outcome: null,
  summary: summarize(null),
  failed: [],
  warnings: [],
  error: null,
  rerun: null,
  failuresFile: null,
} satisfies Omit<Parts, 'status'>;

export function nothingToRerun(run: Context): RunReport {
  return buildReport(run, {
    ...EMPTY_PARTS,
    status: 'nothing_to_rerun',
    summary: summarize([]),
    warnings: ['the last run recorded no failures: nothing to rerun'],
    rerun: { selected: 0, not_run: [] },
    failuresFile: run.artifacts.lastFailures,
  });
}

/** --changed, and no change touches the project: nothing ran, and that is no failure
 * (exit 0), but never a pass either. */
export function nothingChangedReport(run: Context, plan: ChangePlan, reason: string): RunReport {
  return { ...buildReport(run, { ...EMPTY_PARTS, status: 'no_tests', summary: summarize([]), warnings: [reason], plan }), exit_code: 0 };
}

/** A shard whose part holds no unit: nothing ran, and nothing was started (an empty
 * selection would have run the whole suite). */
export function emptyShardReport(run: Context, info: ShardInfo, warnings: readonly string[]): RunReport {
  return buildReport(run, { ...EMPTY_PARTS, status: 'no_tests', summary: summarize([]), warnings, shard: { info, tests: [] } });
}

export function harnessErrorReport(run: Context, error: HarnessError): RunReport {
  return buildReport(run, { ...EMPTY_PARTS, status: 'error', error: { code: error.code, message: error.message } });
}

/** A report read from a file another tool wrote (`run-tests parse`): evidence run-tests
 * did not see produced, so no command, no exit status, no log and no failures file. */
export interface ImportedParts {
  /** The report format, e.g. `junit`; null when it could not be told. */
  readonly format: string | null;
  /** How the format was chosen. */
  readonly reason: string;
  readonly root: string;
  /** The file read. */
  readonly file: string;
  readonly status: RunStatus;
  /** null when the file gave no usable results (the counts are then unknown). */
  readonly tests: readonly TestResult[] | null;
  readonly warnings: readonly string[];
  readonly error: RunReport['error'];
  readonly packages?: readonly PackageResult[] | undefined;
  readonly notes?: readonly string[] | undefined;
  /** --max-failures; DEFAULT_MAX_FAILURES when not given. */
  readonly maxFailures?: number | null;
}

export function importedReport(parts: ImportedParts): RunReport {
  return {
    schema_version: SCHEMA_VERSION,
    source: 'imported',
    run_id: null,
    status: parts.status,
    exit_code: exitCodeOf(parts.status, false),
    framework: parts.format,
    reason: [parts.reason, ...(parts.notes ?? [])].join('; '),
    command: null,
    project_root: parts.root,
    exit_status: null,
    signal: null,
    timed_out: false,
    duration_ms: 0,
    started_at: null,
    finished_at: null,
    summary: summarize(parts.tests),
    // Another tool's tests: run-tests has no record to rerun them by.
    ...capFailures((parts.tests ?? []).filter(isFailure).map((t) => ({ ...recordOf(parts.file)(t), rerun_argv: null })),
      parts.maxFailures === undefined ? DEFAULT_MAX_FAILURES : parts.maxFailures),
    rerun: null,
    artifact: parts.file,
    failures_file: null,
    next: null,
    warnings: parts.warnings,
    error: parts.error,
    projects: [],
    ...(parts.packages === undefined ? {} : { packages: parts.packages }),
  };
}
