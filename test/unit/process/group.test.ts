import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess } from '../../../src/process/index.js';
import { advance, fakeTimers, flow, stdoutOf, waitReally } from './fake-clock.js';
import { isGone, nodeScript, readLog, removeTempDirs, scripts, tempDir } from './helpers.js';

afterAll(removeTempDirs);
afterEach(() => void jest.useRealTimers());

describe('startProcess: the whole process group', () => {
  it('kills a grandchild that ignores SIGTERM', async () => {
    // The timeout and the grace are on the fake clock: each ends once the grandchild is
    // ready for it, however slowly a loaded machine started two node processes.
    fakeTimers();
    const pidFile = join(tempDir(), 'grandchild.pid');
    const options = nodeScript('spawn-grandchild.js', [pidFile], { timeoutMs: 1500, killGraceMs: 500 });
    const run = startProcess(options);
    // It writes its pid once its SIGTERM handler is installed.
    await waitReally('the grandchild to start', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    advance(1499);
    expect(readLog(options.logPath)).not.toContain('timed out');
    advance(1);
    await waitReally('the grandchild to ignore SIGTERM', () => stdoutOf(grandchild).includes('got SIGTERM, ignoring'));
    advance(499);
    expect([readLog(options.logPath).includes('SIGKILL'), isGone(grandchild)]).toEqual([false, false]);
    advance(1);
    const outcome = await flow(run.done);
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGTERM', // the runner itself obeyed SIGTERM; its grandchild needed SIGKILL
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(grandchild).toBeGreaterThan(0);
    expect(isGone(grandchild)).toBe(true);
    const log = readLog(options.logPath);
    expect(log).toContain(`ignore-sigterm: got SIGTERM, ignoring (pid ${grandchild})`);
    expect(log).toContain(`run-tests: timed out after 1.5s; sent SIGTERM to process group ${run.pid}\n`);
    expect(log).toContain(`run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL\n`);
  });

  it('kills processes left behind holding the output after the runner exits', async () => {
    // A grace longer than jest lets a test run: over as soon as it is gone, which it is on
    // SIGTERM, never at the SIGKILL after the grace.
    const graceMs = 3_600_000;
    const options = nodeScript('leave-background.js', [], { killGraceMs: graceMs });
    const started = performance.now();
    const run = startProcess(options);
    const outcome = await run.done;
    expect(performance.now() - started).toBeLessThan(graceMs);
    expect(outcome).toEqual({
      exitCode: 0,
      signal: null,
      timedOut: false,
      interrupted: false,
      leaked: [{ pid: expect.any(Number), command: `${process.execPath} ${join(scripts, 'forever.js')}` }],
      durationMs: expect.any(Number),
    });
    const log = readLog(options.logPath);
    const background = Number(/background pid (\d+)/.exec(log)?.[1]);
    expect(background).toBeGreaterThan(0);
    expect(outcome.leaked[0]?.pid).toBe(background);
    expect(isGone(background)).toBe(true);
    expect(log).toContain(
      `run-tests: the runner exited but processes it started were still running 500ms later; sent SIGTERM to process group ${run.pid}\n`,
    );
    expect(log).not.toContain('SIGKILL'); // forever.js obeys SIGTERM
  });
});
