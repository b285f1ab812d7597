import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Invocation } from '../../../src/runners/types.js';
import { runCommands } from '../../../src/core/commands.js';
import { Interrupts } from '../../../src/model/request.js';

const scripts = fileURLToPath(new URL('../../fixtures/scripts/', import.meta.url));
const script = (name: string, ...args: string[]) => [process.execPath, path.join(scripts, name), ...args];

function setup(argv: string[][]): { invocation: Invocation; logPath: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-commands-'));
  const [first = [], ...rest] = argv;
  return { invocation: { argv: first, thenArgv: rest, env: process.env, cwd: dir, reports: [] }, logPath: path.join(dir, 'log') };
}

describe('runCommands', () => {
  it('runs every command in turn into one log, and keeps the first non-zero exit', async () => {
    const { invocation, logPath } = setup([script('exit-with.js', '0'), script('exit-with.js', '3'), script('exit-with.js', '5')]);
    const outcome = await runCommands(invocation, { logPath, timeoutMs: 10_000, killGraceMs: 500, tee: null, maxLogBytes: null }, new Interrupts());
    expect(outcome).toMatchObject({ exitCode: 3, signal: null, timedOut: false, interrupted: false, leaked: [] });
    expect(fs.readFileSync(logPath, 'utf8')).toBe('exit-with: exiting with 0\nexit-with: exiting with 3\nexit-with: exiting with 5\n');
  });

  it('shares one timeout across the sequence and stops at it', async () => {
    const { invocation, logPath } = setup([script('exit-with.js', '0'), script('forever.js'), script('exit-with.js', '7')]);
    const outcome = await runCommands(invocation, { logPath, timeoutMs: 1000, killGraceMs: 500, tee: null, maxLogBytes: null }, new Interrupts());
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    expect(fs.readFileSync(logPath, 'utf8')).not.toContain('exiting with 7');
  });
});
