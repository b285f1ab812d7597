import { afterAll, describe, expect, it } from '@jest/globals';
import { startProcess } from '../../../src/process/index.js';
import { nodeScript, readLog, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

describe('startProcess: timeout', () => {
  it('sends SIGTERM to the group at the timeout', async () => {
    const options = nodeScript('forever.js', [], { timeoutMs: 1000, killGraceMs: 2000 });
    const run = startProcess(options);
    const outcome = await run.done;
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1000);
    expect(outcome.durationMs).toBeLessThan(1000 + 2000 + 1000);
    const log = readLog(options.logPath);
    expect(log).toBe(`forever: started pid ${run.pid}\nrun-tests: timed out after 1s; sent SIGTERM to process group ${run.pid}\n`);
  });

  it('sends SIGKILL after the grace when SIGTERM is ignored', async () => {
    const options = nodeScript('ignore-sigterm.js', [], { timeoutMs: 1000, killGraceMs: 500 });
    const run = startProcess(options);
    const outcome = await run.done;
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1000 + 500);
    expect(outcome.durationMs).toBeLessThan(1000 + 500 + 1000);
    expect(readLog(options.logPath).split('\n')).toEqual([
      `ignore-sigterm: ready pid ${run.pid}`,
      `run-tests: timed out after 1s; sent SIGTERM to process group ${run.pid}`,
      `ignore-sigterm: got SIGTERM, ignoring (pid ${run.pid})`,
      `run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL`,
      '',
    ]);
  });
});
