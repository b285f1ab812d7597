import { Capture } from './capture.js';
import { LeftoverWatch } from './leftovers.js';
import { validateStartOptions } from './options.js';
import { Runner } from './spawn.js';
import { spawnError } from './spawn-error.js';
import { Termination } from './terminate.js';
import { Timers } from './timers.js';
import { ProcessTree } from './tree.js';
import type { ProcessOutcome, RunningProcess, StartOptions } from './types.js';

/** Starts the runner as the leader of its own process group, streaming its output to
 * the log. Throws a TypeError for bad options; start failures reject `done`. */
export function startProcess(options: StartOptions): RunningProcess {
  validateStartOptions(options);
  let capture: Capture;
  try {
    capture = Capture.open(options);
  } catch (error) {
    return notStarted(Promise.reject(error));
  }
  let runner: Runner;
  try {
    runner = Runner.spawn(options, capture.stdoutFd);
  } catch (error) {
    const refused = spawnError(error as NodeJS.ErrnoException, options.argv, options.cwd);
    return notStarted(capture.close().then(() => Promise.reject(refused), () => Promise.reject(refused)));
  }
  return new Run(options, capture, runner);
}

/** `done` rejects with why the runner never started. */
function notStarted(done: Promise<never>): RunningProcess {
  done.catch(() => undefined); // it may reject before the caller attached a handler
  return { pid: 0, done, interrupt: () => undefined };
}

/** One run of the runner, from its spawn until its output is in the log: composes the
 * phases (spawn, capture, termination, leftovers), each keeping its own state, and
 * decides when the run is over. */
class Run implements RunningProcess {
  readonly done: Promise<ProcessOutcome>;
  private settle!: { resolve: (outcome: ProcessOutcome) => void; reject: (error: unknown) => void };
  private readonly timers = new Timers();
  /** Everything the run started: the runner's group and the processes carrying its marker. */
  private readonly tree: ProcessTree;
  private readonly termination: Termination;
  private readonly leftovers: LeftoverWatch;
  private finished = false;

  constructor(
    private readonly options: StartOptions,
    private readonly capture: Capture,
    private readonly runner: Runner,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.tree = new ProcessTree(runner.pid, options.runId ?? null);
    this.termination = new Termination(this.tree, options.killGraceMs, this.timers, {
      note: (line) => capture.note(line),
      check: () => this.maybeFinish(),
      killed: () => this.afterKill(),
    });
    this.leftovers = new LeftoverWatch(this.tree, options.killGraceMs, this.timers, {
      check: () => this.maybeFinish(),
      reading: () => !this.finished && !runner.stdioClosed,
      outputBytes: () => capture.bytes,
      note: (line) => capture.note(line),
      stopReading: () => runner.stopReading(),
    });
    runner.watch({
      failed: (error) => void this.fail(error),
      exited: () => this.onExit(),
      closed: () => this.maybeFinish(),
    });
    capture.follow(runner.stderr);
    if (options.timeoutMs !== null && runner.pid > 0) this.termination.armTimeout(options.timeoutMs);
  }

  get pid(): number {
    return this.runner.pid;
  }

  interrupt(signal: NodeJS.Signals): void {
    if (this.finished || this.pid === 0) return;
    this.termination.interrupt(signal);
  }

  private onExit(): void {
    this.termination.cancelTimeout();
    this.leftovers.runnerExited();
    this.maybeFinish();
  }

  private afterKill(): void {
    this.maybeFinish();
    if (this.runner.exit !== null) this.leftovers.watchPipeHolders();
  }

  /** The run is over when the leader has exited, its output is closed and no process
   * of its tree (its group, and those carrying its marker) is left running. */
  private maybeFinish(): void {
    if (this.finished || this.runner.exit === null) return;
    const { termination, leftovers } = this;
    // Nothing to decide yet, whatever is running: spare the scan of every process.
    if (!termination.started && !leftovers.waitOver && !this.runner.stdioClosed) return;
    const membersLeft = this.tree.alive();
    if (membersLeft && !termination.started) {
      if (leftovers.waitOver) termination.terminate(leftovers.collect());
      return;
    }
    if (!this.runner.stdioClosed) return;
    if (!membersLeft || termination.reapDeadlinePassed()) return void this.finish();
    termination.reap();
  }

  private async finish(): Promise<void> {
    const exit = this.runner.exit;
    if (this.finished || exit === null) return;
    this.finished = true;
    this.timers.clear();
    const outcome: ProcessOutcome = {
      exitCode: exit.code,
      signal: exit.signal,
      timedOut: this.termination.timedOut,
      interrupted: this.termination.interrupted,
      durationMs: exit.at - this.runner.startedAt,
      leaked: this.leftovers.leaked,
    };
    try {
      await this.capture.close();
      this.settle.resolve(outcome);
    } catch (error) {
      this.settle.reject(error);
    }
  }

  private async fail(error: NodeJS.ErrnoException): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.timers.clear();
    this.runner.stopReading();
    await this.capture.close().catch(() => undefined); // the spawn error is the one to report
    this.settle.reject(spawnError(error, this.options.argv, this.options.cwd));
  }
}
