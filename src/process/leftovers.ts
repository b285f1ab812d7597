import { formatMs } from './clock.js';
import { commandOf, findMarkedProcesses, type MarkedProcess } from './marker.js';
import { groupMembers } from './kill.js';
import type { Timers } from './timers.js';
import type { ProcessTree } from './tree.js';

/** How long group members (and marked processes) may outlive the runner before they count as leftovers. */
export const LEFTOVER_WAIT_MS = 500;

/** After SIGKILL processes die in moments; never wait for them forever. */
const REAP_DEADLINE_MS = 2000;
const POLL_MS = 20;
/** A leak warning names this many processes, then says how many more there were. */
const MAX_LISTED = 10;

/** Sends the signal to each process; one that is gone (or not ours) is skipped. Returns
 * how many were sent it. */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): number {
  let sent = 0;
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      process.kill(pid, signal);
      sent++;
    } catch {
      // ESRCH: gone already; EPERM: not ours to signal.
    }
  }
  return sent;
}

/** The processes that outlive a run: members of its group and every process carrying
 * its marker, each once. */
export function leftoverProcesses(pgid: number, runId: string | null): MarkedProcess[] {
  const marked = runId === null ? [] : findMarkedProcesses(runId);
  const seen = new Set(marked.map((p) => p.pid));
  const members = (groupMembers(pgid) ?? []).filter((pid) => !seen.has(pid) && pid !== process.pid);
  return [...members.map((pid) => ({ pid, command: commandOf(pid) })), ...marked].sort((a, b) => a.pid - b.pid);
}

/** `leaked processes: 12 sleep 300, 13 node server.js`, at most MAX_LISTED of them. */
export function leakWarning(leaked: readonly MarkedProcess[]): string {
  const listed = leaked.slice(0, MAX_LISTED).map((p) => `${p.pid} ${p.command}`).join(', ');
  const more = leaked.length > MAX_LISTED ? ` and ${leaked.length - MAX_LISTED} more` : '';
  return `leaked processes: ${listed}${more}; run-tests killed them`;
}

/** Kills every process carrying the run's marker: SIGTERM, then SIGKILL to those still
 * running after the grace. Resolves with the processes found, once they are gone (or
 * REAP_DEADLINE_MS after SIGKILL). */
export async function killMarkedProcesses(runId: string, graceMs: number): Promise<MarkedProcess[]> {
  const found = findMarkedProcesses(runId);
  if (found.length === 0) return found;
  signalEach(found.map((p) => p.pid), 'SIGTERM');
  if (!(await markedGoneWithin(runId, graceMs))) {
    signalEach(findMarkedProcesses(runId).map((p) => p.pid), 'SIGKILL');
    await markedGoneWithin(runId, REAP_DEADLINE_MS);
  }
  return found;
}

async function markedGoneWithin(runId: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (findMarkedProcesses(runId).length === 0) return true;
    if (Date.now() >= end) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What the leftover watch asks of the run. */
export interface LeftoverHooks {
  /** Look whether the run is over. */
  check(): void;
  /** False once the run is over or the runner's pipes closed. */
  reading(): boolean;
  /** Bytes of the runner's output read so far. */
  outputBytes(): number;
  note(line: string): void;
  /** Stop reading the runner's pipes. */
  stopReading(): void;
}

/** What outlives the runner: processes of its tree still running LEFTOVER_WAIT_MS after
 * it exited are leaks, to be listed and ended; and a process outside the tree holding
 * its output pipes open is waited for only while output still comes. */
export class LeftoverWatch {
  private waitIsOver = false;
  private found: readonly MarkedProcess[] = [];

  constructor(
    private readonly tree: ProcessTree,
    private readonly graceMs: number,
    private readonly timers: Timers,
    private readonly hooks: LeftoverHooks,
  ) {}

  /** LEFTOVER_WAIT_MS have passed since the runner exited. */
  get waitOver(): boolean {
    return this.waitIsOver;
  }

  /** The leaks, once collect() found them; empty otherwise. */
  get leaked(): readonly MarkedProcess[] {
    return this.found;
  }

  /** The runner exited: what of its tree runs LEFTOVER_WAIT_MS from now is left over. */
  runnerExited(): void {
    this.timers.after(LEFTOVER_WAIT_MS, () => {
      this.waitIsOver = true;
      this.hooks.check();
      this.watchPipeHolders();
    });
  }

  /** Lists what is still running as the leaks, and returns why the tree is ended, for the log. */
  collect(): string {
    this.found = this.tree.leftovers();
    return `the runner exited but processes it started were still running ${formatMs(LEFTOVER_WAIT_MS)} later`;
  }

  /** The group is gone (or was sent SIGKILL) but the output pipes may stay open: a process
   * outside the group (one that called setsid) holds them. Once output stops, stop reading. */
  watchPipeHolders(): void {
    if (this.hooks.reading()) this.lookAtPipeHolders(this.hooks.outputBytes());
  }

  private lookAtPipeHolders(bytesBefore: number): void {
    this.timers.after(Math.max(this.graceMs, LEFTOVER_WAIT_MS), () => {
      if (!this.hooks.reading()) return;
      if (this.tree.alive() || this.hooks.outputBytes() !== bytesBefore) {
        return this.lookAtPipeHolders(this.hooks.outputBytes());
      }
      this.hooks.note(`output pipes still held open by a process outside process group ${this.tree.pgid}; stopped reading`);
      this.hooks.stopReading();
    });
  }
}
