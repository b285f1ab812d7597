import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess } from '../../../src/process/index.js';
import { advance, fakeTimers, flow, waitReally } from './fake-clock.js';
import { hasOpenFd, nodeScript, readLog, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);
afterEach(() => void jest.useRealTimers());

/** A run whose report is its own output (go test -json): `outputCopy` set. */
function captured(script: string, args: readonly string[], overrides: Parameters<typeof nodeScript>[2] = {}) {
  const options = nodeScript(script, args, overrides);
  const copy = join(options.cwd, 'report.jsonl');
  return { options: { ...options, outputCopy: copy, ...overrides }, copy };
}

describe('startProcess with an output copy', () => {
  it('gives the runner the copy itself as stdout, keeps stderr lines whole in it, and logs the same bytes', async () => {
    const { options, copy } = captured('capture-probe.js', []);
    const outcome = await startProcess(options).done;
    expect(outcome.exitCode).toBe(0);
    const expected = 'stdout is a regular file: true\n{"event":"stdout line between"}\nstderr: half a line, then the rest\n';
    expect(readFileSync(copy, 'utf8')).toBe(expected);
    expect(readLog(options.logPath)).toBe(expected);
    expect(hasOpenFd(copy)).toBe(false);
    expect(hasOpenFd(options.logPath)).toBe(false);
  });

  it('appends a later command\'s output to the copy, and logs only that command\'s', async () => {
    const first = captured('exit-with.js', ['0']);
    writeFileSync(first.copy, 'an earlier command\n');
    await startProcess(first.options).done;
    expect(readFileSync(first.copy, 'utf8')).toBe('an earlier command\nexit-with: exiting with 0\n');
    expect(readLog(first.options.logPath)).toBe('exit-with: exiting with 0\n');
    await startProcess({ ...first.options, argv: [...first.options.argv.slice(0, -1), '3'], appendLog: true }).done;
    expect(readFileSync(first.copy, 'utf8')).toBe('an earlier command\nexit-with: exiting with 0\nexit-with: exiting with 3\n');
    expect(readLog(first.options.logPath)).toBe('exit-with: exiting with 0\nexit-with: exiting with 3\n');
  });

  it('caps the log it reads from the copy, and leaves the copy whole', async () => {
    const { options, copy } = captured('flood.js', ['8'], { maxLogBytes: 1024 * 1024 });
    const outcome = await startProcess(options).done;
    expect(outcome.exitCode).toBe(0);
    expect(readFileSync(copy).length).toBe(8 * 1024 * 1024);
    const log = readFileSync(options.logPath);
    expect(log.toString()).toContain(`run-tests: ${7 * 1024 * 1024} bytes of output dropped here (--max-log 1M)\n`);
    expect(log.length).toBe(1024 * 1024 + Buffer.byteLength(`run-tests: ${7 * 1024 * 1024} bytes of output dropped here (--max-log 1M)\n`) + 1);
  });

  it('logs what the runner wrote before its timeout, and the timeout itself in the log only', async () => {
    fakeTimers();
    const { options, copy } = captured('forever.js', [], { timeoutMs: 300, killGraceMs: 60_000 });
    const run = startProcess(options);
    // The timeout falls due once the runner has written, however long it took to start.
    await waitReally('forever.js to start', () => readFileSync(copy, 'utf8').includes('forever: started'));
    advance(300);
    const outcome = await flow(run.done);
    expect([outcome.timedOut, outcome.signal]).toEqual([true, 'SIGTERM']);
    const log = readLog(options.logPath);
    expect(log).toMatch(/^forever: started pid \d+\n/);
    expect(log).toContain('run-tests: timed out after 300ms; sent SIGTERM to process group');
    expect(readFileSync(copy, 'utf8')).toMatch(/^forever: started pid \d+\n$/);
  });

  it('puts a run-tests note after everything the runner wrote before it', async () => {
    // A grace no loaded machine outlasts: SIGTERM ends forever.js, never a SIGKILL note.
    const { options, copy } = captured('forever.js', [], { killGraceMs: 60_000 });
    const run = startProcess(options);
    // Busy-wait: no timer runs meanwhile, the tail's poll neither, until the line is in the copy.
    const deadline = Date.now() + 60_000;
    while (!readFileSync(copy, 'utf8').includes('forever: started')) {
      if (Date.now() > deadline) throw new Error('forever.js wrote nothing within 60 s');
    }
    run.interrupt('SIGTERM');
    await run.done;
    expect(readLog(options.logPath)).toMatch(/^forever: started pid \d+\nrun-tests: interrupted; sent SIGTERM to process group \d+\n$/);
  });

  it('fails to start, before spawning, when the copy cannot be created', async () => {
    const { options } = captured('exit-with.js', ['0']);
    const run = startProcess({ ...options, outputCopy: join(options.cwd, 'no-such-dir', 'report.jsonl') });
    expect(run.pid).toBe(0);
    await expect(run.done).rejects.toMatchObject({ code: 'SPAWN_FAILED', message: expect.stringContaining('no-such-dir/report.jsonl') });
  });
});
