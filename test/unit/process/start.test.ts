import { afterAll, describe, expect, it } from '@jest/globals';
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { HarnessError } from '../../../src/model/errors.js';
import { startProcess } from '../../../src/process/index.js';
import { hasOpenFd, nodeScript, openFdsUnder, readLog, removeTempDirs, scripts, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const plainExit = { signal: null, timedOut: false, interrupted: false, leaked: [] };

describe('startProcess: exit status', () => {
  it.each([0, 3, 42])('reports exit code %i', async (code) => {
    const options = nodeScript('exit-with.js', [String(code)]);
    const started = performance.now();
    const run = startProcess(options);
    expect(run.pid).toBeGreaterThan(0);
    const outcome = await run.done;
    expect(outcome).toEqual({ ...plainExit, exitCode: code, durationMs: expect.any(Number) });
    // From the spawn to the exit, in milliseconds: within what the test saw, on the same clock.
    expect(outcome.durationMs).toBeGreaterThan(0);
    expect(outcome.durationMs).toBeLessThanOrEqual(performance.now() - started);
    expect(readLog(options.logPath)).toBe(`exit-with: exiting with ${code}\n`);
  });

  it('reports a death by signal with a null exit code', async () => {
    const outcome = await startProcess(nodeScript('kill-self.js', ['SIGHUP'])).done;
    expect(outcome).toEqual({ ...plainExit, exitCode: null, signal: 'SIGHUP', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeGreaterThan(0);
  });
});

describe('startProcess: output', () => {
  it('streams stdout and stderr into the log and the tee', async () => {
    let teed = '';
    const tee = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        teed += chunk.toString();
        callback();
      },
    });
    const options = nodeScript('print-both.js', [], { tee });
    const outcome = await startProcess(options).done;
    expect(outcome).toEqual({ ...plainExit, exitCode: 0, durationMs: expect.any(Number) });
    const log = readLog(options.logPath);
    const lines = ['stdout line 1', 'stdout line 2', 'stdout line 3', 'stderr line 1', 'stderr line 2', 'stderr line 3'];
    expect(log.split('\n').filter(Boolean).sort()).toEqual(lines.sort());
    expect(teed).toBe(log);
    expect(tee.writableEnded).toBe(false); // the tee is borrowed, never ended
    expect(hasOpenFd(options.logPath)).toBe(false);
  });

  it('gives the runner a scratch file as stdout and a pipe as stderr, logs both, and leaves no file behind', async () => {
    const options = nodeScript('stdio-probe.js', []);
    const outcome = await startProcess(options).done;
    expect(outcome).toEqual({ ...plainExit, exitCode: 0, durationMs: expect.any(Number) });
    const lines = readLog(options.logPath).split('\n').filter(Boolean);
    // The file was unlinked before the runner started; its only trace is the log.
    expect(lines.slice(0, 2)).toEqual(['stdout is a regular file, stderr is not a file', 'cwd holds: runner.log']);
    expect(lines.filter((l) => l.startsWith('out'))).toEqual(['out 1', 'out 2']);
    expect(lines.filter((l) => l.startsWith('err'))).toEqual(['err 1', 'err 2']);
    expect(lines).toHaveLength(6);
    expect(readdirSync(options.cwd)).toEqual(['runner.log']);
    expect(openFdsUnder(options.cwd)).toEqual([]);
  });

  it('notes in the log when a process truncates the stdout file, and logs what comes after', async () => {
    const options = nodeScript('clobber-stdout.js', []);
    const outcome = await startProcess(options).done;
    expect(outcome.exitCode).toBe(0);
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1} of the runner's output\n`).join('');
    expect(readLog(options.logPath)).toBe(`${lines}run-tests: the file the runner's stdout goes to was truncated while it ran (a process it started opened /dev/stdout for writing?); what was written just before may be missing here\nclobbered\nafter\n`);
  });

  it('truncates an existing log', async () => {
    const options = nodeScript('exit-with.js', ['0']);
    writeFileSync(options.logPath, 'stale content from an earlier run\n'.repeat(100));
    await startProcess(options).done;
    expect(readLog(options.logPath)).toBe('exit-with: exiting with 0\n');
  });
});

describe('startProcess: start failures', () => {
  it('rejects with RUNNER_MISSING naming the executable and cwd, and closes the log', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'runner.log');
    const run = startProcess({ argv: ['no-such-runner-xyz', '--flag'], cwd: dir, env: process.env, logPath, timeoutMs: 1000, killGraceMs: 100 });
    expect(run.pid).toBe(0);
    const error = await run.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code: 'RUNNER_MISSING', detail: { command: 'no-such-runner-xyz --flag' } });
    expect((error as Error).message).toContain('no-such-runner-xyz');
    expect((error as Error).message).toContain(dir);
    expect(readLog(logPath)).toBe('');
    expect(hasOpenFd(logPath)).toBe(false);
    run.interrupt('SIGINT'); // must not signal pid 0 (our own group)
  });

  it('rejects with SPAWN_FAILED when the executable is not executable', async () => {
    const dir = tempDir();
    const exe = join(dir, 'not-executable');
    writeFileSync(exe, '#!/bin/sh\nexit 0\n');
    chmodSync(exe, 0o644);
    const logPath = join(dir, 'runner.log');
    const error = await startProcess({ argv: [exe], cwd: dir, env: process.env, logPath, timeoutMs: null, killGraceMs: 100 }).done.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SPAWN_FAILED', detail: { command: exe } });
    expect((error as Error).message).toContain('EACCES');
    expect(hasOpenFd(logPath)).toBe(false);
  });

  it('rejects with SPAWN_FAILED naming a missing working directory', async () => {
    const dir = tempDir();
    const cwd = join(dir, 'missing');
    const error = await startProcess({ argv: [process.execPath, '-e', '0'], cwd, env: process.env, logPath: join(dir, 'runner.log'), timeoutMs: null, killGraceMs: 100 })
      .done.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SPAWN_FAILED', detail: { path: cwd } });
  });

  it('rejects with SPAWN_FAILED when spawn refuses the arguments at once, and closes the log', async () => {
    const options = nodeScript('exit-with.js', ['0\0']);
    const run = startProcess(options);
    expect(run.pid).toBe(0);
    const error = await run.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code: 'SPAWN_FAILED' });
    expect(readLog(options.logPath)).toBe('');
    expect(openFdsUnder(options.cwd)).toEqual([]);
  });

  it('rejects with SPAWN_FAILED when the log cannot be created, without spawning', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'no-dir', 'runner.log');
    const run = startProcess({ argv: [process.execPath, join(scripts, 'forever.js')], cwd: dir, env: process.env, logPath, timeoutMs: null, killGraceMs: 100 });
    expect(run.pid).toBe(0);
    await expect(run.done).rejects.toMatchObject({ code: 'SPAWN_FAILED', detail: { path: logPath } });
  });

  it.each([
    ['argv', { argv: [] }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['killGraceMs', { killGraceMs: -1 }],
    ['timeoutMs', { timeoutMs: 2 ** 31 }],
    ['maxLogBytes', { maxLogBytes: 0 }],
    ['maxLogBytes', { maxLogBytes: 1.5 }],
  ])('throws a TypeError naming options.%s', (name, override) => {
    expect(() => startProcess(nodeScript('exit-with.js', [], override))).toThrow(new RegExp(`options\\.${name} must be`));
  });
});
