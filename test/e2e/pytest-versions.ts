import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The caller's python3 itself first on PATH (its pytest 9), without a version manager's
 * shim in front of each start (pyenv's costs seconds on a loaded machine). */
export function callersInterpreter(): NodeJS.ProcessEnv {
  const ran = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const executable = ran.status === 0 ? ran.stdout.trim() : '';
  return { PATH: executable === '' ? process.env.PATH : `${path.dirname(executable)}:${process.env.PATH ?? ''}` };
}

/** Debian's pytest 7 (/usr/bin/python3 first on PATH), and the caller's python3's pytest 9:
 * each `[label, env]` whose pytest is there; in CI a missing one fails the suite. */
export const PYTESTS = ([
  ['pytest 7', { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` }, /^7\./],
  ['pytest 9', callersInterpreter(), /^(?:9|[1-9]\d)\./],
] as const).filter(([label, env, wanted]) => {
  const ran = spawnSync('python3', ['-m', 'pytest', '--version'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const version = /\bpytest (\d+\.\d+\.\d+)/.exec(`${ran.stdout}${ran.stderr}`)?.[1] ?? null;
  if (version !== null && wanted.test(version)) return true;
  if (process.env.CI) throw new Error(`${label} missing in CI: python3 -m pytest is ${version ?? 'not there'}`);
  console.warn(`skipping ${label}: python3 -m pytest is ${version ?? 'not there'}`);
  return false;
});
