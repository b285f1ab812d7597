import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import crossSpawn from 'cross-spawn';
import { monotonicMs } from './clock.js';
import { withRunMarker } from './marker.js';
import type { StartOptions } from './types.js';

/** How the runner (the group leader) ended, and when, on the monotonic clock. */
export interface RunnerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
}

/** What the run hears of the runner's life. */
export interface RunnerEvents {
  /** The spawn failed after all (no pid): ENOENT, EACCES, a missing cwd. */
  failed(error: NodeJS.ErrnoException): void;
  exited(): void;
  /** Its stderr pipe closed, after it exited. */
  closed(): void;
}

/** The runner: argv run without a shell, as the leader of a new process group, so it and
 * everything it starts can be signalled as a whole. Its stdout is a file (the capture's),
 * its stderr a pipe. It owns what is known of the runner's life: its exit, and whether its
 * pipes are closed. */
export class Runner {
  /** Its pid, which is also its process group id; 0 if the spawn failed. */
  readonly pid: number;
  private exitStatus: RunnerExit | null = null;
  private stdioOpen = true;

  private constructor(private readonly child: ChildProcess, readonly startedAt: number) {
    this.pid = child.pid ?? 0;
  }

  /** Spawns it with stdout on `stdoutFd`, which is closed here once the runner has its own.
   * Throws what spawn throws at once (an argument it refuses); a spawn that fails later
   * goes to `failed` once watch() is called, which must be in the same tick. */
  static spawn(options: StartOptions, stdoutFd: number): Runner {
    const startedAt = monotonicMs();
    const [command = '', ...args] = options.argv;
    try {
      const child = crossSpawn(command, args, {
        cwd: options.cwd,
        env: options.runId ? withRunMarker(options.env, options.runId) : options.env,
        stdio: ['ignore', stdoutFd, 'pipe'],
        detached: true, // setsid(): the runner leads a new group we can signal as a whole
      });
      return new Runner(child, startedAt);
    } finally {
      fs.closeSync(stdoutFd);
    }
  }

  watch(events: RunnerEvents): void {
    this.child.on('error', (error) => {
      // Before a pid exists this is a failed spawn; afterwards only a failed kill, which we never ask for.
      if (this.child.pid === undefined) events.failed(error);
    });
    this.child.once('exit', (code, signal) => {
      this.exitStatus = { code, signal, at: monotonicMs() };
      events.exited();
    });
    this.child.once('close', () => {
      this.stdioOpen = false;
      events.closed();
    });
  }

  /** Null while it runs. */
  get exit(): RunnerExit | null {
    return this.exitStatus;
  }

  get stdioClosed(): boolean {
    return !this.stdioOpen;
  }

  get stderr(): Readable | null {
    return this.child.stderr;
  }

  /** Stops reading its pipes: the spawn failed, or a process outside its group holds them. */
  stopReading(): void {
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}
