import { afterAll, describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess } from '../../../src/process/index.js';
import { isGone, nodeScript, readLog, removeTempDirs, scripts, tempDir } from './helpers.js';

afterAll(removeTempDirs);

describe('startProcess: the whole process group', () => {
  it('kills a grandchild that ignores SIGTERM', async () => {
    const pidFile = join(tempDir(), 'grandchild.pid');
    const options = nodeScript('spawn-grandchild.js', [pidFile], { timeoutMs: 1500, killGraceMs: 500 });
    const run = startProcess(options);
    const outcome = await run.done;
    expect(outcome).toEqual({
      exitCode: null,
      signal: 'SIGTERM', // the runner itself obeyed SIGTERM; its grandchild needed SIGKILL
      timedOut: true,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1500);
    expect(outcome.durationMs).toBeLessThan(1500 + 1000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(isGone(grandchild)).toBe(true);
    const log = readLog(options.logPath);
    expect(log).toContain(`ignore-sigterm: got SIGTERM, ignoring (pid ${grandchild})`);
    expect(log).toContain(`run-tests: timed out after 1.5s; sent SIGTERM to process group ${run.pid}\n`);
    expect(log).toContain(`run-tests: process group ${run.pid} still running 500ms after SIGTERM; sent SIGKILL\n`);
  });

  it('kills processes left behind holding the output after the runner exits', async () => {
    const options = nodeScript('leave-background.js', [], { killGraceMs: 4000 });
    const started = performance.now();
    const run = startProcess(options);
    const outcome = await run.done;
    // It obeys SIGTERM: over as soon as it is gone, not at the SIGKILL 4 s later.
    expect(performance.now() - started).toBeLessThan(2500);
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
