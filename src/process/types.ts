/** The contract between the runner process and the rest of run-tests. */
import type { MarkedProcess } from './marker.js';

export interface StartOptions {
  /** argv[0] is the executable; run without a shell. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The full child environment; the caller builds it. */
  readonly env: NodeJS.ProcessEnv;
  /** Created or truncated (appended to with `appendLog`); the child's stdout and stderr are copied here. */
  readonly logPath: string;
  /** Append to the log instead of truncating it: a later command of the same run. */
  readonly appendLog?: boolean;
  /** Cap on the bytes this command writes to the log (absent or null: no cap): the first
   * half of the cap, a marker line, the last half. The tee and the output copy get everything. */
  readonly maxLogBytes?: number | null;
  /** The child's stdout is a file, opened for appending (no pipe), its stderr is appended
   * to it whole lines at a time, and the log is read from the file as it grows. This
   * names that file when it is a report to keep (go test -json); otherwise it is a
   * scratch file beside the log, unlinked as soon as it is open. */
  readonly outputCopy?: string | null;
  readonly timeoutMs: number | null;
  /** How long SIGTERM (or a forwarded signal) may take before SIGKILL. */
  readonly killGraceMs: number;
  /** Names the run: set as RUN_TESTS_RUN_ID in the child's environment, so processes that
   * leave its process group are found and killed with it. Absent or null: no marker. */
  readonly runId?: string | null;
  /** Live pass-through of the child's output, e.g. process.stderr for --stream. */
  readonly tee?: NodeJS.WritableStream | null;
}

export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** interrupt() was called before the run ended. */
  readonly interrupted: boolean;
  /** From spawn until the runner (the group leader) exited, on a monotonic clock. */
  readonly durationMs: number;
  /** Processes (of the group, or carrying the run's marker) that outlived the runner
   * and had to be killed; empty when none did, and after a timeout or interrupt. */
  readonly leaked: readonly MarkedProcess[];
}

export interface RunningProcess {
  /** The runner's pid, which is also its process group id; 0 if it never started. */
  readonly pid: number;
  /** Resolves after the log is flushed and closed; rejects with a HarnessError if
   * the runner could not be started. */
  readonly done: Promise<ProcessOutcome>;
  /** Forwards the signal to the whole group and the marked processes outside it;
   * SIGKILL follows after the grace. */
  interrupt(signal: NodeJS.Signals): void;
}
