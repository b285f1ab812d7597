import type { Invocation } from '../runners/types.js';
import { monotonicMs, startProcess, type ProcessOutcome } from '../process/index.js';
import type { Interrupts } from '../model/request.js';

export interface CommandsOptions {
  /** The run these commands belong to (`.run-tests/runs/<runId>/`), known before any starts. */
  readonly runId?: string;
  readonly logPath: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly tee: NodeJS.WritableStream | null;
  /** Each command's log output is capped on its own (see StartOptions.maxLogBytes). */
  readonly maxLogBytes: number | null;
}

/** Runs the invocation's commands one after another within one timeout; the first
 * non-zero exit is the run's, and a timeout or interrupt stops the sequence. */
export async function runCommands(invocation: Invocation, options: CommandsOptions, interrupts: Interrupts): Promise<ProcessOutcome> {
  const deadline = monotonicMs() + options.timeoutMs;
  let combined: ProcessOutcome | null = null;
  for (const [index, argv] of [invocation.argv, ...(invocation.thenArgv ?? [])].entries()) {
    if (combined !== null && (interrupts.signal !== null || combined.timedOut)) break;
    const child = startProcess({
      argv,
      cwd: invocation.cwd,
      env: invocation.env,
      logPath: options.logPath,
      appendLog: index > 0,
      outputCopy: invocation.captureOutput ?? null,
      timeoutMs: Math.max(1, Math.round(deadline - monotonicMs())),
      killGraceMs: options.killGraceMs,
      tee: options.tee,
      maxLogBytes: options.maxLogBytes,
      // The marker (RUN_TESTS_RUN_ID) every process of the run carries.
      runId: options.runId ?? null,
    });
    const unsubscribe = interrupts.on((signal) => child.interrupt(signal));
    try {
      const outcome: ProcessOutcome = await child.done;
      combined = combined === null ? outcome : combineOutcomes(combined, outcome);
    } finally {
      unsubscribe();
    }
  }
  if (combined === null) throw new Error('an invocation has at least one command');
  return combined;
}

const combineOutcomes = (a: ProcessOutcome, b: ProcessOutcome): ProcessOutcome => {
  const failedFirst = a.exitCode !== 0 ? a : b;
  return {
    exitCode: failedFirst.exitCode,
    signal: failedFirst.signal,
    timedOut: a.timedOut || b.timedOut,
    interrupted: a.interrupted || b.interrupted,
    durationMs: a.durationMs + b.durationMs,
    leaked: [...a.leaked, ...b.leaked],
  };
};

