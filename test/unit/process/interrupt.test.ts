import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { startProcess } from '../../../src/process/index.js';
import { advance, fakeTimers, flow, stdoutOf, waitReally } from './fake-clock.js';
import { isGone, logContains, nodeScript, readLog, removeTempDirs, waitFor } from './helpers.js';

afterAll(removeTempDirs);
afterEach(() => void jest.useRealTimers());

describe('RunningProcess.interrupt', () => {
  it('forwards the signal to the group', async () => {
    const options = nodeScript('forever.js', [], { timeoutMs: 60_000, killGraceMs: 60_000 });
    const started = performance.now();
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
    // From the spawn to the runner's exit: within what the test saw, on the same clock.
    expect(outcome.durationMs).toBeLessThanOrEqual(performance.now() - started);
    expect(readLog(options.logPath)).toBe(
      `forever: started pid ${run.pid}\nrun-tests: interrupted; sent SIGINT to process group ${run.pid}\n`,
    );
  });

  it('sends SIGKILL after the grace when the signal is ignored', async () => {
    // The grace is on the fake clock: it ends when the test moves it, once the script has
    // ignored the signal, however slowly a loaded machine let it do so.
    fakeTimers();
    const options = nodeScript('ignore-sigterm.js', [], { timeoutMs: 60_000, killGraceMs: 500 });
    const run = startProcess(options);
    await waitReally('ignore-sigterm.js to start', () => stdoutOf(run.pid).includes('ignore-sigterm: ready'));
    run.interrupt('SIGTERM');
    await waitReally('SIGTERM to be ignored', () => stdoutOf(run.pid).includes('got SIGTERM, ignoring'));
    advance(499);
    expect([readLog(options.logPath).includes('SIGKILL'), isGone(run.pid)]).toEqual([false, false]);
    advance(1);
    const outcome = await flow(run.done);
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: false,
      interrupted: true,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(readLog(options.logPath)).toContain(
      `run-tests: interrupted; sent SIGTERM to process group ${run.pid}\n` +
        `ignore-sigterm: got SIGTERM, ignoring (pid ${run.pid})\n` +
        `run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL\n`,
    );
  });
});
