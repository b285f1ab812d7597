import type { FailedTestRecord, PackageResult, RunningTest, RunStatus, Summary } from './results.js';

export const SCHEMA_VERSION = 1;

/** A failed test as the report lists it: the record, and the command that reruns it
 * (`run-tests … --id=<id>`); null where run-tests cannot (an imported report, a
 * --command's tests, an id no command line can carry). Absent in reports stored before. */
export interface ReportedFailure extends FailedTestRecord {
  readonly rerun_argv?: readonly string[] | null;
}

/** The JSON contract (schema/report.schema.json). Fields are only ever added. */
export interface RunReport {
  readonly schema_version: typeof SCHEMA_VERSION;
  /** `run`: run-tests executed the runner. `imported`: read from a report another tool
   * wrote (`run-tests parse`): reported evidence, not a run run-tests saw. */
  readonly source: 'run' | 'imported';
  /** The run's id (`.run-tests/runs/<id>/`); null for an imported report. */
  readonly run_id: string | null;
  readonly status: RunStatus;
  readonly exit_code: number;
  readonly framework: string | null;
  /** Why this runner was chosen. */
  readonly reason: string | null;
  /** Shell-quoted for display only; run-tests never runs it through a shell. */
  readonly command: string | null;
  readonly project_root: string;
  readonly exit_status: number | null;
  readonly signal: string | null;
  readonly timed_out: boolean;
  /** On a run that timed out: the tests running when the timeout struck, from the
   * runner's test-start events; null when its report does not tell. Absent otherwise. */
  readonly running_at_timeout?: readonly RunningTest[] | null;
  readonly duration_ms: number;
  /** ISO 8601; null for an imported report. */
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly summary: Summary;
  /** The first --max-failures failures (all of them with --max-failures 0). */
  readonly failed_tests: readonly ReportedFailure[];
  /** How many entries the lists above leave out (failed_tests beyond --max-failures).
   * Absent when nothing was left out. */
  readonly truncated?: { readonly failed_tests: number };
  /** On a --failed-only or --id run: how many tests were selected, and those that did not run. */
  readonly rerun: { readonly selected: number; readonly not_run: readonly string[] } | null;
  readonly artifact: string | null;
  readonly failures_file: string | null;
  readonly next: string | null;
  readonly warnings: readonly string[];
  /** A harness failure (no runner, missing runner, unreadable failures file), else null. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** One report per subproject when files from several projects ran; else empty. */
  readonly projects: readonly RunReport[];
  /** For runners that test by package (go): each package tested, and whether its
   * result was replayed from the runner's cache. Absent for other runners. */
  readonly packages?: readonly PackageResult[];
  /** In a git work tree, the revision the run started on (null: no commit yet) and
   * whether tracked files then differed from it. Absent without git. */
  readonly git?: { readonly revision: string | null; readonly dirty: boolean };
  /** Whether the project's files changed while the runner ran, and which (at most 20,
   * relative to project_root; drift_paths_more counts the rest). Absent when no runner started. */
  readonly drift?: boolean;
  readonly drift_paths?: readonly string[];
  readonly drift_paths_more?: number;
}
