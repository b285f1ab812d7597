import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findMarkedProcesses, isRunId, killMarkedProcesses, RUN_ID_ENV, startProcess } from '../../../src/process/index.js';
import { withRunMarker } from '../../../src/process/marker.js';
import { isGone, nodeScript, readLog, removeTempDirs, tempDir, waitFor } from './helpers.js';

afterAll(removeTempDirs);

let runs = 0;
const newRunId = (): string => `marker-test-${process.pid}-${runs++}`;

/** `sleep 300` in its own session, with this environment; killed by the test that asked. */
function sleeper(env: NodeJS.ProcessEnv): number {
  const child = spawn('sleep', ['300'], { env, detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid ?? 0;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

describe('the run marker', () => {
  it('finds the processes carrying exactly this run id, wherever their group is', async () => {
    const runId = newRunId();
    const marked = sleeper(withRunMarker(process.env, runId));
    const other = sleeper(withRunMarker(process.env, `${runId}0`));
    const inValue = sleeper({ ...process.env, OTHER: `x${RUN_ID_ENV}=${runId}` });
    try {
      expect(findMarkedProcesses(runId)).toEqual([{ pid: marked, command: 'sleep 300' }]);
      expect(await killMarkedProcesses(runId, 1000)).toEqual([{ pid: marked, command: 'sleep 300' }]);
      expect(isGone(marked)).toBe(true);
      expect(findMarkedProcesses(runId)).toEqual([]);
      expect([isGone(other), isGone(inValue)]).toEqual([false, false]);
    } finally {
      for (const pid of [marked, other, inValue]) killQuietly(pid);
    }
  });

  it('replaces a marker inherited from an outer run', () => {
    expect(withRunMarker({ [RUN_ID_ENV]: 'outer', PATH: '/bin' }, 'inner')).toEqual({ [RUN_ID_ENV]: 'inner', PATH: '/bin' });
  });

  it('searches only for ids that cannot match more than one run', () => {
    expect(['20261201T170000Z-a1b2c3', 'abc.1:2_3-4'].map(isRunId)).toEqual([true, true]);
    expect(['', '-x', 'a b', 'a\0b', '../x', 'a=b', 7].map(isRunId)).toEqual([false, false, false, false, false, false, false]);
    expect(() => findMarkedProcesses('')).toThrow(TypeError);
  });
});

describe('startProcess with a run id', () => {
  it('kills a setsid child the runner leaves behind and lists it as leaked', async () => {
    const pidFile = join(tempDir(), 'sleep.pid');
    const options = nodeScript('leave-setsid.js', [pidFile], { runId: newRunId(), killGraceMs: 1000 });
    const outcome = await startProcess(options).done;
    const sleep = Number(readFileSync(pidFile, 'utf8'));
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, interrupted: false, leaked: [{ pid: sleep, command: 'sleep 300' }] });
    expect(isGone(sleep)).toBe(true);
    expect(readLog(options.logPath)).toContain(`run-tests: the runner exited but processes it started were still running 500ms later; sent SIGTERM to 1 process carrying ${RUN_ID_ENV} outside process group `);
  });

  it('kills it at the timeout with the group, and calls nothing a leak', async () => {
    const pidFile = join(tempDir(), 'sleep.pid');
    const options = nodeScript('leave-setsid.js', [pidFile, 'hang'], { runId: newRunId(), timeoutMs: 1000, killGraceMs: 1000 });
    const run = startProcess(options);
    const outcome = await run.done;
    expect(outcome).toMatchObject({ timedOut: true, leaked: [] });
    expect(isGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect(readLog(options.logPath)).toContain(`run-tests: timed out after 1s; sent SIGTERM to process group ${run.pid} and 1 process carrying ${RUN_ID_ENV} outside it\n`);
  });

  it('without a run id, cannot find it: the marker is what reaches it', async () => {
    const pidFile = join(tempDir(), 'sleep.pid');
    const outcome = await startProcess(nodeScript('leave-setsid.js', [pidFile])).done;
    const sleep = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(outcome).toMatchObject({ exitCode: 0, leaked: [] });
      expect(isGone(sleep)).toBe(false);
    } finally {
      process.kill(sleep, 'SIGKILL');
      await waitFor('the sleep to die', () => isGone(sleep));
    }
  });
});
