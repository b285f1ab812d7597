import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from '../../../src/process/index.js';

export { processGone as isGone, waitFor } from '../../support/wait.js';

export const scripts = fileURLToPath(new URL('../../fixtures/scripts/', import.meta.url));

const created: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-tests-process-'));
  created.push(dir);
  return dir;
}

/** For afterAll: removes every directory tempDir() made in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Options to run a fixture script with node; override what the case needs. */
export function nodeScript(script: string, args: readonly string[], overrides: Partial<StartOptions> = {}): StartOptions {
  const dir = tempDir();
  return {
    argv: [process.execPath, join(scripts, script), ...args],
    cwd: dir,
    env: process.env,
    logPath: join(dir, 'runner.log'),
    timeoutMs: null,
    killGraceMs: 2000,
    ...overrides,
  };
}

export const readLog = (path: string): string => readFileSync(path, 'utf8');

/** True while this test process still has a file descriptor open on the path. */
export function hasOpenFd(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

/** What this test process still has open under the directory (a deleted file shows as
 * "<path> (deleted)"). */
export function openFdsUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${dir}/`) ? [target] : [];
    } catch {
      return [];
    }
  });
}

export function logContains(path: string, text: string): () => boolean {
  return () => {
    try {
      return readLog(path).includes(text);
    } catch {
      return false;
    }
  };
}

/** A fixture script run with node as the leader of its own process group, output
 * ignored, as the runner would be; the caller ends it (killGroupQuietly). */
export function groupLeader(script: string, args: readonly string[] = []): number {
  const child = spawn(process.execPath, [join(scripts, script), ...args], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid ?? 0;
}

export function killGroupQuietly(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}
