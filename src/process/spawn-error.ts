import { statSync } from 'node:fs';
import { HarnessError } from '../model/errors.js';

/** Turns a failed spawn into a HarnessError naming the command and where it ran. */
export function spawnError(error: NodeJS.ErrnoException, argv: readonly string[], cwd: string): HarnessError {
  const command = argv.map(quote).join(' ');
  const executable = argv[0] ?? '';
  if (error.code === 'ENOENT') {
    // uv_spawn also reports a missing cwd as ENOENT; that is not a missing runner.
    if (!isDirectory(cwd)) {
      return new HarnessError('SPAWN_FAILED', `cannot start ${executable}: working directory ${cwd} does not exist`, { command, path: cwd });
    }
    return new HarnessError('RUNNER_MISSING', `${executable} not found on PATH (run from ${cwd})`, { command });
  }
  return new HarnessError('SPAWN_FAILED', `cannot start ${executable} in ${cwd}: ${error.code ?? error.message}`, { command });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
