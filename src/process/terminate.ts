import { formatMs, monotonicMs } from './clock.js';
import type { Timers } from './timers.js';
import type { ProcessTree } from './tree.js';

/** How often a group sent SIGTERM (or a forwarded signal) is looked at until it is gone. */
const GROUP_POLL_MS = 50;
/** After SIGKILL the group dies in moments; look more often, but never wait forever. */
const REAP_POLL_MS = 10;
const REAP_DEADLINE_MS = 2000;

/** What termination asks of the run it ends. */
export interface TerminationHooks {
  /** A run-tests line for the log; a signal's note is written before the signal goes. */
  note(line: string): void;
  /** Look whether the run is over: the signalled group may be gone. */
  check(): void;
  /** The grace is over and SIGKILL went to whatever was left. */
  killed(): void;
}

/** Ending the runner's process tree, as execa and nextest do: SIGTERM (or the signal an
 * interrupt forwards), SIGKILL after the grace to whatever is left, then looking until the
 * tree is gone (after SIGKILL, for at most REAP_DEADLINE_MS). Also the timeout that starts it. */
export class Termination {
  /** The first signal sent to end the tree; null until one is. */
  private firstSignal: NodeJS.Signals | null = null;
  private killArmed = false;
  private sigkillAt: number | null = null;
  private groupWatch: NodeJS.Timeout | null = null;
  private timeoutTimer: NodeJS.Timeout | null = null;
  private timedOutFlag = false;
  private interruptedFlag = false;

  constructor(
    private readonly tree: ProcessTree,
    private readonly graceMs: number,
    private readonly timers: Timers,
    private readonly hooks: TerminationHooks,
  ) {}

  /** A signal went out to end the tree. */
  get started(): boolean {
    return this.firstSignal !== null;
  }

  get timedOut(): boolean {
    return this.timedOutFlag;
  }

  /** interrupt() was called. */
  get interrupted(): boolean {
    return this.interruptedFlag;
  }

  /** Ends the tree `ms` from now, unless the runner exits first (cancelTimeout). */
  armTimeout(ms: number): void {
    this.timeoutTimer = this.timers.after(ms, () => {
      this.timedOutFlag = true;
      this.terminate(`timed out after ${formatMs(ms)}`);
    });
  }

  cancelTimeout(): void {
    this.timers.cancel(this.timeoutTimer);
    this.timeoutTimer = null;
  }

  /** Forwards the signal to the whole tree, each time it is called (a second SIGINT is
   * "force quit" to some runners); SIGKILL follows after the grace. */
  interrupt(signal: NodeJS.Signals): void {
    this.interruptedFlag = true;
    this.cancelTimeout();
    this.tree.signal(signal, (what) => this.hooks.note(`interrupted; sent ${signal} to ${what}`));
    if (signal === 'SIGKILL') this.sigkillAt ??= monotonicMs();
    this.firstSignal ??= signal;
    this.armKill();
    this.watchGroup();
  }

  /** Sends SIGTERM to the tree, once; `why` opens the note in the log. */
  terminate(why: string): void {
    if (this.firstSignal !== null) return;
    this.firstSignal = 'SIGTERM';
    this.cancelTimeout();
    this.tree.signal('SIGTERM', (what) => this.hooks.note(`${why}; sent SIGTERM to ${what}`));
    this.armKill();
    this.watchGroup();
  }

  /** Members are left after the runner's output closed. True when it is time to stop
   * waiting for them: REAP_DEADLINE_MS after SIGKILL. */
  reapDeadlinePassed(): boolean {
    return this.sigkillAt !== null && monotonicMs() - this.sigkillAt > REAP_DEADLINE_MS;
  }

  /** Members are left after the runner's output closed: once SIGKILL went out, a process
   * started since (a setsid in a dying parent) gets it too; then look again. */
  reap(): void {
    if (this.sigkillAt !== null) this.tree.signal('SIGKILL');
    this.watchGroup();
  }

  private armKill(): void {
    if (this.killArmed || this.sigkillAt !== null) return;
    this.killArmed = true;
    this.timers.after(this.graceMs, () => {
      this.sigkillAt = monotonicMs();
      const sent = this.firstSignal ?? 'SIGTERM';
      const signalled = this.tree.alive() ? this.tree.signal('SIGKILL') : null;
      if (signalled) this.hooks.note(`${signalled} still running ${formatMs(this.graceMs)} after ${sent}; sent SIGKILL`);
      this.hooks.killed();
    });
  }

  /** A signalled group may be gone at once: look again until it is, after SIGKILL until
   * REAP_DEADLINE_MS. (stdout is a file, and stderr's pipe closes only when the last
   * process holding it is gone, if any still held it.) */
  private watchGroup(): void {
    if (this.groupWatch !== null) return;
    this.groupWatch = this.timers.after(this.sigkillAt === null ? GROUP_POLL_MS : REAP_POLL_MS, () => {
      this.groupWatch = null;
      this.hooks.check();
    });
  }
}
