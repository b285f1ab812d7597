import type { Outcome, RunStatus, Summary } from './results.js';
import type { SCHEMA_VERSION } from './report.js';

/** One run as the history keeps it (`run-tests history`, the report page). */
export interface HistoryRun {
  readonly run_id: string;
  /** ISO 8601; null when the report did not say. */
  readonly started_at: string | null;
  readonly status: RunStatus;
  readonly framework: string | null;
  readonly duration_ms: number;
  /** The commit it ran on (report.git); null without git or a commit. */
  readonly revision: string | null;
  /** Whether tracked files differed from the commit; null without git. */
  readonly dirty: boolean | null;
  /** With --shard: which part of which partition it was. */
  readonly shard: { readonly index: number; readonly count: number; readonly partition: string } | null;
  /** Where it was read from: `store` (the project's own history) or the report file given with --from. */
  readonly source: string;
  readonly summary: Summary;
}

/** One test across the runs: dense per-run columns, by index in History.runs. */
export interface HistoryTest {
  readonly name: string;
  /** Relative to the project root; null when the runner did not say. */
  readonly file: string | null;
  /** Its outcome in each run; null where it did not run. */
  readonly outcomes: readonly (Outcome | null)[];
  /** Its duration in each run, in ms; null where it did not run or the runner gave none. */
  readonly durations: readonly (number | null)[];
}

/** The stored runs of a project, oldest first, with every test they ran. */
export interface History {
  readonly runs: readonly HistoryRun[];
  readonly tests: readonly HistoryTest[];
  /** A line of the index that could not be read (corrupt, foreign), each naming it. */
  readonly warnings: readonly string[];
}

/** What `run-tests history` says of one test. */
export interface TestStats {
  readonly name: string;
  readonly file: string | null;
  /** Runs it ran in. */
  readonly runs: number;
  /** Runs it failed in (failed or error). */
  readonly failures: number;
  /** Runs in which it was flaky (failed, then passed on a retry). */
  readonly flaky: number;
  /** Changes between pass and fail from one of its runs to the next of the same tree. */
  readonly flips: number;
  readonly median_ms: number | null;
  readonly p95_ms: number | null;
  /** Its recent durations against its earlier ones; null with too few runs to tell. */
  readonly trend: 'slower' | 'faster' | 'steady' | null;
  /** Its outcome in the newest run it ran in. */
  readonly last: Outcome | null;
}

/** What `run-tests history --json` prints (schema/report.schema.json's historyDocument). */
export interface HistoryDocument {
  readonly schema_version: typeof SCHEMA_VERSION;
  /** The project whose `.run-tests/history` was read. */
  readonly project_root: string;
  /** Oldest first. */
  readonly runs: readonly HistoryRun[];
  /** The tests the operand selects (all without one), in order of concern (docs/history.md). */
  readonly tests: readonly TestStats[];
  readonly warnings: readonly string[];
}
