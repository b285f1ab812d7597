import { afterAll, describe, expect, it } from '@jest/globals';
import { startProcess } from '../../../src/process/index.js';
import { logContains, nodeScript, readLog, removeTempDirs, waitFor } from './helpers.js';

afterAll(removeTempDirs);

describe('RunningProcess.interrupt', () => {
  it('forwards the signal to the group', async () => {
    const options = nodeScript('forever.js', [], { timeoutMs: 60_000, killGraceMs: 2000 });
    const run = startProcess(options);
    await waitFor('forever.js to start', logContains(options.logPath, 'forever: started'));
    run.interrupt('SIGINT');
    const outcome = await run.done;
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGINT',
      timedOut: false,
      interrupted: true,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(outcome.durationMs).toBeLessThan(5000);
    expect(readLog(options.logPath)).toBe(
      `forever: started pid ${run.pid}\nrun-tests: interrupted; sent SIGINT to process group ${run.pid}\n`,
    );
  });

  it('sends SIGKILL after the grace when the signal is ignored', async () => {
    const options = nodeScript('ignore-sigterm.js', [], { timeoutMs: 60_000, killGraceMs: 500 });
    const run = startProcess(options);
    await waitFor('ignore-sigterm.js to start', logContains(options.logPath, 'ignore-sigterm: ready'));
    const interruptedAt = performance.now();
    run.interrupt('SIGTERM');
    const outcome = await run.done;
    const killedAfter = performance.now() - interruptedAt;
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: false,
      interrupted: true,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(killedAfter).toBeGreaterThanOrEqual(500);
    expect(killedAfter).toBeLessThan(1500);
    expect(readLog(options.logPath)).toContain(
      `run-tests: interrupted; sent SIGTERM to process group ${run.pid}\n` +
        `ignore-sigterm: got SIGTERM, ignoring (pid ${run.pid})\n` +
        `run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL\n`,
    );
  });
});
