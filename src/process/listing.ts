import { spawn } from 'node:child_process';
import { groupHasLiveMembers, killProcessGroup } from './kill.js';
import { spawnError } from './spawn-error.js';

/** A short command whose output is read whole: a runner's listing of its test files
 * (`--shard` asks it before the run). No log, no run directory: what it printed is the
 * answer, or what the error quotes. */
export interface ListingOptions {
  /** argv[0] is the executable; run without a shell. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

export interface ListingOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** How much of each stream is kept: far above a listing of a large suite's files. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Runs the command as the leader of its own process group; on its timeout the whole
 * group is killed, and whatever of the group outlived the command is killed once it
 * exits, so nothing a listing started outlives it. Rejects with a HarnessError when
 * the command cannot be started. */
export function runListing(options: ListingOptions): Promise<ListingOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.argv[0] ?? '', options.argv.slice(1), { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    const keep = (key: 'stdout' | 'stderr') => (chunk: Buffer): void => {
      if (out[key].length < MAX_OUTPUT) out[key] += chunk.toString();
    };
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killProcessGroup(child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(spawnError(error, options.argv, options.cwd));
    });
    // A process of the group still holding the pipes open would keep 'close' away.
    child.on('exit', () => {
      clearTimeout(timer);
      if (child.pid !== undefined && groupHasLiveMembers(child.pid)) killProcessGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, timedOut, ...out }));
  });
}
