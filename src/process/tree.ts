import { groupHasLiveMembers, killProcessGroup } from './kill.js';
import { leftoverProcesses, signalEach } from './leftovers.js';
import { markedPids, RUN_ID_ENV, type MarkedProcess } from './marker.js';

/** Everything a run started: the runner's process group, and every process outside it
 * that carries the run's marker (one that called setsid, or a daemon's double fork). */
export class ProcessTree {
  constructor(readonly pgid: number, private readonly runId: string | null) {}

  /** True while a process of the group or a marked one is running (zombies do not count). */
  alive(): boolean {
    if (groupHasLiveMembers(this.pgid)) return true;
    if (this.runId === null) return false;
    // One marked process outside the group is enough to know: stop the scan there.
    return markedPids(this.runId, (p) => p.pgid !== this.pgid).some((p) => p.pgid !== this.pgid);
  }

  /** Signals the group and each marked process outside it (a member gets it once: a
   * second SIGINT is "force quit" to some runners). Returns what it signals, for the
   * log, or null when nothing was left to signal. `announce` gets that before the
   * signal goes: the runner's answer goes straight to the log, and must follow the note. */
  signal(signal: NodeJS.Signals, announce?: (what: string) => void): string | null {
    const outsiders = this.outsiders();
    const group = killProcessGroup(this.pgid, 0);
    const what = this.describe(group, outsiders.length);
    if (what === null) return null;
    announce?.(what);
    if (group) killProcessGroup(this.pgid, signal);
    signalEach(outsiders, signal);
    return what;
  }

  private describe(group: boolean, outside: number): string | null {
    if (!group && outside === 0) return null;
    const others = `${outside} ${outside === 1 ? 'process' : 'processes'} carrying ${RUN_ID_ENV}`;
    if (!group) return `${others} outside process group ${this.pgid}`;
    return outside === 0 ? `process group ${this.pgid}` : `process group ${this.pgid} and ${others} outside it`;
  }

  /** What is still running, each with its command line: the leaks of a run that ended. */
  leftovers(): MarkedProcess[] {
    return leftoverProcesses(this.pgid, this.runId);
  }

  private outsiders(): number[] {
    if (this.runId === null) return [];
    return markedPids(this.runId).filter((p) => p.pgid !== this.pgid).map((p) => p.pid);
  }
}
