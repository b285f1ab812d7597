/** A short command that lists what a runner would run (rspec's files to run, pytest's
 * collection): argv without a shell, in its own process group, bounded in time, and
 * ended with everything it started. */
import { spawn } from 'node:child_process';
import { HarnessError } from '../model/errors.js';
import { killProcessGroup } from './kill.js';

/** The process groups of the listings running now: Ctrl-C stops them (stopListings). */
const running = new Set<number>();

/** Kills every listing still running, with all it started: the run was interrupted, and
 * a listing has nothing to save. Each one's promise then settles as a listing that failed. */
export function stopListings(): void {
  for (const pid of running) killProcessGroup(pid, 'SIGKILL');
}

/** How long a listing may take: a suite's collection imports every test module. */
export const LISTING_TIMEOUT_MS = 180_000;
/** What is kept of its output, for the message when it fails. */
const KEPT_OUTPUT = 64 * 1024;

export interface ListingOptions {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

export interface ListingOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Its stdout and stderr, interleaved, the last KEPT_OUTPUT characters. */
  readonly output: string;
  /** Its stdout, whole: for a listing printed there (`go list -json`, `cargo metadata`). */
  readonly stdout: string;
}

/** Runs the listing to its end. A spawn that fails (a missing interpreter) is
 * RUNNER_MISSING; one that outlives its time is RUNNER_FAILED, its group killed. */
export function runListing(options: ListingOptions): Promise<ListingOutcome> {
  const [command = '', ...args] = options.argv;
  const shown = options.argv.join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) running.add(child.pid);
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT);
    };
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      keep(chunk);
    });
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child.pid ?? 0, 'SIGKILL');
    }, options.timeoutMs ?? LISTING_TIMEOUT_MS);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      running.delete(child.pid ?? 0);
      reject(new HarnessError(error.code === 'ENOENT' ? 'RUNNER_MISSING' : 'SPAWN_FAILED', `cannot start ${command}: ${error.message}`, { command: shown }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid ?? 0);
      // Whatever it left behind in its group goes with it.
      killProcessGroup(child.pid ?? 0, 'SIGKILL');
      if (timedOut) reject(new HarnessError('RUNNER_FAILED', `listing the tests took more than ${Math.round((options.timeoutMs ?? LISTING_TIMEOUT_MS) / 1000)} s: ${shown}`, { command: shown }));
      else resolve({ code, signal, output, stdout: Buffer.concat(stdout).toString('utf8') });
    });
  });
}
