import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { REPO, runCli, runFile, runJson } from './helpers.js';

const SCRIPT = path.join(REPO, 'test/fixtures/scripts/tap-and-flood.js');
const TAP_BYTES = 'TAP version 13\n1..2\nok 1 - before the flood\nok 2 - after the flood\n'.length;

const created: string[] = [];
afterAll(() => Promise.all(created.map((dir) => fs.remove(dir))));

async function tempDir(): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-max-log-')));
  created.push(dir);
  return dir;
}

describe('--max-log', () => {
  it('caps the log at 64K around a marker while the TAP report on stdout still parses', async () => {
    const dir = await tempDir();
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', `node ${SCRIPT} 2048`, '--report', 'tap:-', '--max-log', '64K']);
    expect([exitCode, report.status]).toEqual([0, 'passed']);
    expect(report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    const marker = `run-tests: ${TAP_BYTES + 2048 * 1024 - 64 * 1024} bytes of output dropped here (--max-log 64K)\n`;
    const at = log.indexOf(marker);
    // The marker follows the 32K head, after a newline of its own when the head ends mid-line.
    expect([32 * 1024, 32 * 1024 + 1]).toContain(at);
    expect(log.length).toBe(64 * 1024 + (at - 32 * 1024) + marker.length);
    // The report copy is never capped.
    expect((await fs.stat(runFile(dir, 'custom-report.tap'))).size).toBe(TAP_BYTES + 2048 * 1024);
  });

  it('does not cap with --max-log 0', async () => {
    const dir = await tempDir();
    const { exitCode } = await runJson(['--cwd', dir, '--command', `node ${SCRIPT} 256`, '--report', 'tap:-', '--max-log', '0']);
    expect(exitCode).toBe(0);
    expect((await fs.stat(path.join(dir, '.run-tests/last-test.log'))).size).toBe(TAP_BYTES + 256 * 1024);
  });

  it.each(['12X', '-1', '1.5M', ''])('rejects --max-log %j with exit 2', async (value) => {
    const dir = await tempDir();
    const result = await runCli(['--cwd', dir, '--command', `node ${SCRIPT} 1`, '--report', 'tap:-', '--max-log', value]);
    expect([result.exitCode, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toBe(`run-tests: --max-log must be a whole number of bytes, optionally with K, M or G (0 for no cap), got ${JSON.stringify(value)}\n`);
  });
});
