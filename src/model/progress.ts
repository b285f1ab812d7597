import type { FailedTest } from './results.js';

/** A run's progress as its reports are read, for whoever watches it (the live display on
 * a terminal). Counts only grow; totals are null where the runner did not announce them. */
export interface Progress {
  /** Tests finished so far. */
  readonly finished: number;
  /** Of those, failed or errored; null where the report is read only at its end (JUnit). */
  readonly failed: number | null;
  readonly skipped: number | null;
  /** How many tests the runner said it would run (its `plan` events), when it said. */
  readonly total: number | null;
  /** Files finished of those it said it would run (run_start's `files`), when it said. */
  readonly files: { readonly done: number; readonly total: number } | null;
}

/** Told of a run's progress while it runs. */
export interface ProgressSink {
  /** The counts as they are now: called on every look at the reports (~10 a second). */
  update(progress: Progress): void;
  /** A test failed, as soon as it was read (its final location may be filled in later). */
  failure(test: FailedTest): void;
  /** The runner is done: the report follows. */
  end(): void;
}
