import type { Attempt, FailedTestRecord, FlakyTestRecord, Outcome, PackageResult, RunningTest, RunStatus, Summary } from './results.js';

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
  readonly source: 'run' | 'imported' | 'merged';
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
  readonly truncated?: { readonly failed_tests?: number; readonly flaky_tests?: number };
  /** With --retries: the tests that failed and then passed on a retry, each with every
   * attempt (the first --max-failures). Absent without --retries. */
  readonly flaky_tests?: readonly FlakyTestRecord[];
  /** With --retries: how many retries each failing test was given, and each retry run. */
  readonly retries?: RetriesInfo;
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
  /** How long each unit --shard deals out (a test file; go's package directory; cargo's
   * target file) took in this run, in ms, keyed by its path relative to project_root
   * (to the invocation directory in a report of several projects): what `--timings`
   * reads back. A unit whose tests gave no durations is absent (unknown, never 0).
   * Absent where no unit ran. */
  readonly unit_durations?: Readonly<Record<string, number>>;
  /** With --shard: which part this run was, and of which partition. */
  readonly shard?: ShardInfo;
  /** With --shard only: every test the shard ran, so `run-tests merge` can write the
   * whole JUnit and check that no test ran in two shards. */
  readonly tests?: readonly ReportedTest[];
  /** A merged report (`source: "merged"`): the shard reports it combines. */
  readonly parts?: readonly MergePart[];
  /** With --changed: what the change needs in this project, and why (what ran). */
  readonly plan?: ChangePlan;
}

/** `--retries <max>`: each retry run reran the tests still failing, by identity. */
export interface RetriesInfo {
  readonly max: number;
  /** Whether a flaky test fails the run (--flaky-fails). */
  readonly flaky_fails: boolean;
  /** Each retry run, in order; attempt 2 is the first retry. Empty when nothing was retried. */
  readonly runs: readonly {
    readonly attempt: number;
    /** How many tests it reran. */
    readonly tests: number;
    /** Its log. */
    readonly log: string;
    readonly status: RunStatus;
  }[];
}

/** What a change needs in one project (`run-tests plan`, `--changed`): the units its
 * tests can break, each with why, or the whole suite with why. Units as --shard names
 * them. Neither: no change affects the project, and nothing runs. */
export interface ChangePlan {
  /** The commit the change is measured from (HEAD, or the merge base with `ref`); null
   * in a repository without a commit. */
  readonly base: string | null;
  readonly head: string | null;
  /** `--changed <ref>` as given; null: the working tree and index against HEAD. */
  readonly ref: string | null;
  /** A digest of the change (base and each changed file's content): the tree the plan is of. */
  readonly tree: string;
  /** The change's files in this project, relative to project_root. */
  readonly changed: readonly { readonly file: string; readonly change: 'added' | 'modified' | 'deleted' }[];
  /** Sorted by unit; empty when whole_suite is set. */
  readonly units: readonly { readonly unit: string; readonly reasons: readonly string[] }[];
  readonly whole_suite: { readonly reason: string } | null;
}

/** `--shard <index>/<count>`: this run is part `index` (1-based) of `count`. `units` are
 * the units it was given (project-relative); `partition` is a digest of all the parts,
 * computed from relative unit names only, the same on every machine given the same
 * inputs: shards of different partitions never merge. */
export interface ShardInfo {
  readonly index: number;
  readonly count: number;
  readonly units: readonly string[];
  readonly partition: string;
  /** How many units all the parts hold together. */
  readonly total_units?: number;
  /** What the parts were balanced by: `--timings <file>`, `recorded runs` or `file sizes`. */
  readonly balanced_by?: string;
}

/** One test a shard ran, as `tests` lists it. */
export interface ReportedTest {
  readonly id: string;
  readonly name: string;
  /** Relative to project_root. */
  readonly file: string | null;
  readonly line: number | null;
  readonly status: Outcome;
  /** null when the runner gave no duration. */
  readonly duration_ms: number | null;
  readonly suite?: string;
  /** A failed test's message, bounded as failed_tests' are. */
  readonly message?: string;
  /** With --retries, a test that failed at first: every attempt (TestBase.attempts). */
  readonly attempts?: readonly Attempt[];
}

/** One shard report a merged report combines. */
export interface MergePart {
  /** The report file as given to `run-tests merge`. */
  readonly path: string;
  readonly index: number;
  readonly run_id: string | null;
  readonly status: RunStatus;
}
