import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import crossSpawn from 'cross-spawn';
import { HarnessError } from '../model/errors.js';
import { monotonicMs } from './clock.js';
import { withRunMarker, type MarkedProcess } from './marker.js';
import { ProcessTree } from './tree.js';
import { FileTail } from './file-tail.js';
import { RunLog } from './log.js';
import { openAppend, openFresh, openRead } from '../store/atomic.js';
import { OutputCopy } from './output-copy.js';
import { SourceGate } from './source-gate.js';
import { validateStartOptions } from './options.js';
import { spawnError } from './spawn-error.js';
import type { ProcessOutcome, RunningProcess, StartOptions } from './types.js';

/** How long group members (and marked processes) may outlive the runner before they count as leftovers. */
const LEFTOVER_WAIT_MS = 500;
/** How often a group sent SIGTERM (or a forwarded signal) is looked at until it is gone. */
const GROUP_POLL_MS = 50;
/** After SIGKILL the group dies in moments; look more often, but never wait forever. */
const REAP_POLL_MS = 10;
const REAP_DEADLINE_MS = 2000;

type Termination = 'timeout' | 'interrupt' | 'leftover';

/** Starts the runner as the leader of its own process group, streaming its output to
 * the log. Throws a TypeError for bad options; start failures reject `done`. */
export function startProcess(options: StartOptions): RunningProcess {
  validateStartOptions(options);
  let log: RunLog;
  const gate = new SourceGate();
  try {
    log = RunLog.open(options.logPath, options.tee ?? null, options.appendLog === true, options.maxLogBytes ?? null, gate);
  } catch (error) {
    const message = `cannot create log ${options.logPath}: ${(error as Error).message}`;
    return notStarted(new HarnessError('SPAWN_FAILED', message, { path: options.logPath }));
  }
  const scratch = !options.outputCopy;
  const capturePath = options.outputCopy || scratchPath(options.logPath);
  let capture: Capture;
  try {
    capture = openCapture(capturePath, scratch);
  } catch (error) {
    closeQuietly(log);
    return notStarted(new HarnessError('SPAWN_FAILED', `cannot create ${capturePath}: ${(error as Error).message}`, { path: capturePath }));
  }
  return new Run(options, log, gate, capture);
}

/** The file the runner's stdout goes to, open for the runner to append to, for an
 * OutputCopy to append stderr's lines to, and for reading back into the log. */
interface Capture {
  readonly writeFd: number;
  readonly copyFd: number;
  readonly readFd: number;
  /** Its size before this command: an earlier command of the run wrote that part. */
  readonly from: number;
}

/** `outputCopy`, a report that is the runner's own output, is kept, and each command
 * appends to it. Any other runner's output goes to a scratch file beside the log, unlinked
 * once open: it is gone when the last descriptor closes, also if run-tests is killed.
 * Either way, what the file already held is not this command's (`from`). */
function openCapture(file: string, scratch: boolean): Capture {
  const fds: number[] = [];
  try {
    // Never through a link: a scratch file is created anew, a report file is appended to.
    const first = scratch ? (f: string) => openFresh(f, { append: true }) : openAppend;
    for (const open of [first, openAppend, openRead]) fds.push(open(file));
    if (scratch) fs.unlinkSync(file);
    const [writeFd = -1, copyFd = -1, readFd = -1] = fds;
    return { writeFd, copyFd, readFd, from: fs.fstatSync(readFd).size };
  } catch (error) {
    for (const fd of fds) fs.closeSync(fd);
    throw error;
  }
}

let scratchFiles = 0;
const scratchPath = (logPath: string): string =>
  path.join(path.dirname(logPath), `.output-${process.pid}-${scratchFiles++}`);

function notStarted(error: Error): RunningProcess {
  const done = Promise.reject(error);
  done.catch(() => undefined); // rejected before the caller could attach a handler
  return { pid: 0, done, interrupt: () => undefined };
}

class Run implements RunningProcess {
  readonly pid: number;
  readonly done: Promise<ProcessOutcome>;
  private settle!: { resolve: (outcome: ProcessOutcome) => void; reject: (error: unknown) => void };
  private readonly child: ChildProcess | null = null;
  private readonly startedAt = monotonicMs();
  private readonly timers = new Set<NodeJS.Timeout>();
  private timeoutTimer: NodeJS.Timeout | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null; at: number } | null = null;
  private stdioClosed = false;
  private termination: { reason: Termination; signal: NodeJS.Signals } | null = null;
  private killArmed = false;
  private sigkillAt: number | null = null;
  private leftoverWaitOver = false;
  private timedOut = false;
  private interrupted = false;
  private leaked: readonly MarkedProcess[] = [];
  private tree: ProcessTree | null = null;
  private finished = false;
  private groupWatch: NodeJS.Timeout | null = null;
  /** stderr's lines, appended to the file the runner's stdout goes to. */
  private readonly copy: OutputCopy;
  /** That file, read back into the log; null until the runner started. */
  private tail: FileTail | null = null;

  /** The runner's stdout goes straight into a file (the capture), with no pipe and no
   * work here per write the runner makes (progress dots, go test -json's events), and
   * the log is read from the file as it grows. stderr stays a pipe whose whole lines are
   * appended to the same file: they never split a line of a report, and a script that
   * writes to /dev/stderr (which opens it anew, truncating a file) cannot clobber it. */
  constructor(
    private readonly options: StartOptions,
    private readonly log: RunLog,
    gate: SourceGate,
    private readonly capture: Capture,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.copy = new OutputCopy(capture.copyFd);
    const [command = '', ...args] = options.argv;
    try {
      this.child = crossSpawn(command, args, {
        cwd: options.cwd,
        env: options.runId ? withRunMarker(options.env, options.runId) : options.env,
        stdio: ['ignore', capture.writeFd, 'pipe'],
        detached: true, // setsid(): the runner leads a new group we can signal as a whole
      });
    } catch (error) {
      this.pid = 0;
      void this.fail(error as NodeJS.ErrnoException);
      return;
    } finally {
      fs.closeSync(capture.writeFd); // the runner has its own
    }
    this.pid = this.child.pid ?? 0;
    this.tree = new ProcessTree(this.pid, options.runId ?? null);
    this.child.on('error', (error) => this.onError(error));
    this.child.once('exit', (code, signal) => this.onExit(code, signal));
    this.child.once('close', () => this.onClose());
    this.tail = new FileTail(capture.readFd, capture.from, (bytes) => log.take(bytes), () => {
      log.note('the file the runner\'s stdout goes to was truncated while it ran (a process it started opened /dev/stdout for writing?); what was written just before may be missing here');
    });
    gate.add(this.tail);
    if (this.child.stderr !== null) gate.add(this.child.stderr);
    this.copy.attach(this.child.stderr);
    if (options.timeoutMs !== null && this.pid > 0) {
      this.timeoutTimer = this.after(options.timeoutMs, () => this.onTimeout());
    }
  }

  interrupt(signal: NodeJS.Signals): void {
    if (this.finished || this.pid === 0) return;
    this.interrupted = true;
    this.clearTimeout();
    this.tree?.signal(signal, (what) => this.note(`interrupted; sent ${signal} to ${what}`));
    if (signal === 'SIGKILL') this.sigkillAt ??= monotonicMs();
    this.termination ??= { reason: 'interrupt', signal };
    this.armKill();
    this.watchSignalledGroup();
  }

  private onTimeout(): void {
    this.timedOut = true;
    this.terminate('timeout', `timed out after ${formatMs(this.options.timeoutMs ?? 0)}`);
  }

  private onError(error: NodeJS.ErrnoException): void {
    // Before a pid exists this is a failed spawn; afterwards only a failed kill, which we never ask for.
    if (this.child?.pid === undefined) void this.fail(error);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal, at: monotonicMs() };
    this.clearTimeout();
    this.after(LEFTOVER_WAIT_MS, () => this.onLeftoverWaitOver());
    this.maybeFinish();
  }

  private onClose(): void {
    this.stdioClosed = true;
    this.maybeFinish();
  }

  private onLeftoverWaitOver(): void {
    this.leftoverWaitOver = true;
    this.maybeFinish();
    if (!this.finished && !this.stdioClosed) this.watchForeignPipeHolders(this.log.bytes);
  }

  /** The run is over when the leader has exited, its output is closed and no process
   * of its tree (its group, and those carrying its marker) is left running. */
  private maybeFinish(): void {
    if (this.finished || this.exit === null) return;
    // Nothing to decide yet, whatever is running: spare the scan of every process.
    if (this.termination === null && !this.leftoverWaitOver && !this.stdioClosed) return;
    const membersLeft = this.tree?.alive() === true;
    if (membersLeft && this.termination === null) {
      if (this.leftoverWaitOver) {
        this.leaked = this.tree?.leftovers() ?? [];
        this.terminate('leftover', `the runner exited but processes it started were still running ${formatMs(LEFTOVER_WAIT_MS)} later`);
      }
      return;
    }
    if (!this.stdioClosed) return;
    if (!membersLeft) return void this.finish();
    if (this.sigkillAt !== null && monotonicMs() - this.sigkillAt > REAP_DEADLINE_MS) return void this.finish();
    // One started as SIGKILL went out (a setsid in a dying parent) gets it too.
    if (this.sigkillAt !== null) this.tree?.signal('SIGKILL');
    this.watchSignalledGroup();
  }

  /** A signalled group may be gone at once: look again until it is, after SIGKILL until
   * REAP_DEADLINE_MS. (stdout is a file, and stderr's pipe closes only when the last
   * process holding it is gone, if any still held it.) */
  private watchSignalledGroup(): void {
    if (this.groupWatch !== null) return;
    this.groupWatch = this.after(this.sigkillAt === null ? GROUP_POLL_MS : REAP_POLL_MS, () => {
      this.groupWatch = null;
      this.maybeFinish();
    });
  }

  private terminate(reason: Termination, why: string): void {
    if (this.termination !== null) return;
    this.termination = { reason, signal: 'SIGTERM' };
    this.clearTimeout();
    this.tree?.signal('SIGTERM', (what) => this.note(`${why}; sent SIGTERM to ${what}`));
    this.armKill();
    this.watchSignalledGroup();
  }

  private armKill(): void {
    if (this.killArmed || this.sigkillAt !== null) return;
    this.killArmed = true;
    this.after(this.options.killGraceMs, () => {
      this.sigkillAt = monotonicMs();
      const sent = this.termination?.signal ?? 'SIGTERM';
      const signalled = this.tree?.alive() ? this.tree.signal('SIGKILL') : null;
      if (signalled) this.note(`${signalled} still running ${formatMs(this.options.killGraceMs)} after ${sent}; sent SIGKILL`);
      this.maybeFinish();
      if (!this.finished && !this.stdioClosed && this.exit !== null) this.watchForeignPipeHolders(this.log.bytes);
    });
  }

  /** The group is gone but the output pipes stay open: a process outside the group
   * (one that called setsid) holds them. Once output stops, stop reading. */
  private watchForeignPipeHolders(bytesBefore: number): void {
    this.after(Math.max(this.options.killGraceMs, LEFTOVER_WAIT_MS), () => {
      if (this.finished || this.stdioClosed) return;
      if (this.tree?.alive() || this.log.bytes !== bytesBefore) {
        return this.watchForeignPipeHolders(this.log.bytes);
      }
      this.note(`output pipes still held open by a process outside process group ${this.pid}; stopped reading`);
      this.child?.stdout?.destroy();
      this.child?.stderr?.destroy();
    });
  }

  private async finish(): Promise<void> {
    const exit = this.exit;
    if (this.finished || exit === null) return;
    this.finished = true;
    this.clearTimers();
    const outcome: ProcessOutcome = {
      exitCode: exit.code,
      signal: exit.signal,
      timedOut: this.timedOut,
      interrupted: this.interrupted,
      durationMs: exit.at - this.startedAt,
      leaked: this.leaked,
    };
    try {
      await this.closeFiles();
      this.settle.resolve(outcome);
    } catch (error) {
      this.settle.reject(error);
    }
  }

  /** In order: stderr's last lines into the output copy, the whole capture into the log,
   * then the log. Rejects with the first write error, after closing everything. */
  private async closeFiles(): Promise<void> {
    const copyError = closeQuietly(this.copy);
    if (this.tail !== null) await this.tail.finish();
    else fs.closeSync(this.capture.readFd); // the spawn failed
    this.log.close();
    if (copyError !== null) throw copyError;
    if (this.tail?.failed) throw this.tail.failed;
  }

  private async fail(error: NodeJS.ErrnoException): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.clearTimers();
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    await this.closeFiles().catch(() => undefined); // the spawn error is the one to report
    this.settle.reject(spawnError(error, this.options.argv, this.options.cwd));
  }

  /** A run-tests line in the log, after everything the runner wrote before it (the output
   * copy and its tail would otherwise hand that on up to a poll later). */
  private note(line: string): void {
    this.copy.flush();
    this.tail?.catchUp();
    this.log.note(line);
  }

  private after(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private clearTimeout(): void {
    if (this.timeoutTimer === null) return;
    clearTimeout(this.timeoutTimer);
    this.timers.delete(this.timeoutTimer);
    this.timeoutTimer = null;
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.timeoutTimer = null;
    this.groupWatch = null;
  }
}

/** Closes it and returns the error that closing threw, if any. */
function closeQuietly(file: { close(): void }): unknown {
  try {
    file.close();
    return null;
  } catch (error) {
    return error;
  }
}

/** 2000 -> "2s", 1500 -> "1.5s", 500 -> "500ms". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(3))}s`;
}
