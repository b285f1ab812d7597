import { afterAll, describe, expect, it } from '@jest/globals';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStat } from '../../../src/process/kill.js';
import { Runner, type RunnerEvents } from '../../../src/process/spawn.js';
import { hasOpenFd, nodeScript, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

/** The runner's events as they came, in order; resolves once `last` came. */
function heard(runner: Runner, last: keyof RunnerEvents): Promise<string[]> {
  const events: string[] = [];
  return new Promise((resolve) => {
    const hear = (name: keyof RunnerEvents, detail = ''): void => {
      events.push(`${name}${detail} stdioClosed=${runner.stdioClosed}`);
      if (name === last) resolve(events);
    };
    runner.watch({
      failed: (error) => hear('failed', ` ${error.code}`),
      exited: () => hear('exited'),
      closed: () => hear('closed'),
    });
  });
}

describe('Runner.spawn', () => {
  it('starts the runner as the leader of its own group, stdout into the file, and records its exit', async () => {
    const options = nodeScript('exit-with.js', ['3']);
    const stdout = join(options.cwd, 'stdout');
    const runner = Runner.spawn(options, openSync(stdout, 'a'));
    expect(hasOpenFd(stdout)).toBe(false); // the runner has its own
    expect(runner.pid).toBeGreaterThan(0);
    expect(readStat(runner.pid)?.pgrp).toBe(runner.pid);
    expect(runner.exit).toBeNull();
    expect(runner.stderr).not.toBeNull();
    runner.stderr?.resume();
    expect(await heard(runner, 'closed')).toEqual(['exited stdioClosed=false', 'closed stdioClosed=true']);
    expect(runner.exit).toEqual({ code: 3, signal: null, at: expect.any(Number) });
    expect(runner.exit!.at).toBeGreaterThan(runner.startedAt);
    expect(readFileSync(stdout, 'utf8')).toBe('exit-with: exiting with 3\n');
  });

  it('reports a runner that is not there to `failed`, with no pid', async () => {
    const dir = tempDir();
    const stdout = join(dir, 'stdout');
    const runner = Runner.spawn({ argv: ['no-such-runner-xyz'], cwd: dir, env: process.env, logPath: join(dir, 'log'), timeoutMs: null, killGraceMs: 0 }, openSync(stdout, 'a'));
    expect(runner.pid).toBe(0);
    expect(await heard(runner, 'failed')).toEqual(['failed ENOENT stdioClosed=false']);
    expect(runner.exit).toBeNull();
    expect(hasOpenFd(stdout)).toBe(false);
  });

  it('throws what spawn refuses at once, and still closes the stdout it was given', () => {
    const options = nodeScript('exit-with.js', ['0\0']);
    const stdout = join(options.cwd, 'stdout');
    expect(() => Runner.spawn(options, openSync(stdout, 'a'))).toThrow(/null bytes/);
    expect(hasOpenFd(stdout)).toBe(false);
  });
});
