import { execFile } from 'node:child_process';
import { HarnessError } from '../model/errors.js';
import { spawnError } from './spawn-error.js';

/** How long a runner's own listing (`go list`, `cargo metadata`) may take. */
const LISTING_TIMEOUT_MS = 120_000;

/** A runner's listing of what it would run, for --shard: argv without a shell, its
 * stdout. Throws a HarnessError (RUNNER_FAILED with the runner's first error lines, or
 * the spawn's own) when it fails; killed at its deadline, so it never outlives the run. */
export function runListing(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [command = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, encoding: 'utf8', timeout: LISTING_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        if (typeof error.code === 'string') return reject(spawnError(error as NodeJS.ErrnoException, argv, cwd));
        const said = stderr.split('\n').filter((line) => line.trim() !== '').slice(0, 5).join('\n');
        const why = error.killed ? `killed after ${LISTING_TIMEOUT_MS / 1000} s` : `exit ${String(error.code)}`;
        reject(new HarnessError('RUNNER_FAILED', `${argv.join(' ')} failed (${why})${said === '' ? '' : `:\n${said}`}`, { command: argv.join(' '), path: cwd }));
      });
  });
}
