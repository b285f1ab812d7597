import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { startProcess } from '../../../src/process/index.js';
import { advance, fakeTimers, flow, stdoutOf, waitReally } from './fake-clock.js';
import { isGone, nodeScript, readLog, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);
// The run's timers are on the fake clock: each falls due when the test moves it, once the
// script is ready, however long a loaded machine took to start it.
afterEach(() => void jest.useRealTimers());

describe('startProcess: timeout', () => {
  it('sends SIGTERM to the group at the timeout', async () => {
    fakeTimers();
    const options = nodeScript('forever.js', [], { timeoutMs: 1000, killGraceMs: 60_000 });
    const run = startProcess(options);
    await waitReally('forever.js to start', () => stdoutOf(run.pid).includes('forever: started'));
    advance(999);
    expect([readLog(options.logPath).includes('timed out'), isGone(run.pid)]).toEqual([false, false]);
    advance(1);
    const outcome = await flow(run.done);
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    const log = readLog(options.logPath);
    expect(log).toBe(`forever: started pid ${run.pid}\nrun-tests: timed out after 1s; sent SIGTERM to process group ${run.pid}\n`);
  });

  it('sends SIGKILL after the grace when SIGTERM is ignored', async () => {
    fakeTimers();
    const options = nodeScript('ignore-sigterm.js', [], { timeoutMs: 1000, killGraceMs: 500 });
    const run = startProcess(options);
    await waitReally('ignore-sigterm.js to start', () => stdoutOf(run.pid).includes('ignore-sigterm: ready'));
    advance(1000);
    await waitReally('SIGTERM to be ignored', () => stdoutOf(run.pid).includes('got SIGTERM, ignoring'));
    advance(499);
    expect([readLog(options.logPath).includes('SIGKILL'), isGone(run.pid)]).toEqual([false, false]);
    advance(1);
    const outcome = await flow(run.done);
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(readLog(options.logPath).split('\n')).toEqual([
      `ignore-sigterm: ready pid ${run.pid}`,
      `run-tests: timed out after 1s; sent SIGTERM to process group ${run.pid}`,
      `ignore-sigterm: got SIGTERM, ignoring (pid ${run.pid})`,
      `run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL`,
      '',
    ]);
  });
});
