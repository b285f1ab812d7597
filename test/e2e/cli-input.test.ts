import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { copyFixture, REPO, runCli, type CliResult } from './helpers.js';

const BIN = path.join(REPO, 'bin/run-tests.js');
/** What a terminal acts on: C0 but newline and tab, DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Runs the CLI in a directory (an empty --cwd means it), its stdout closed at once when
 * `closeStdout`: every write to it then fails with EPIPE. */
function runIn(dir: string, args: readonly string[], { closeStdout = false } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, FORCE_COLOR: '0', CI: undefined }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    if (closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

describe('bad input is exit 2 with one line naming it, and nothing runs', () => {
  const limit = 'must be at most 2147483.647 seconds (about 24.8 days, the longest a timer can wait)';
  const cases: [string[], string][] = [
    [['--timeout', '9999999999'], `--timeout ${limit}, got 9999999999`],
    [['--kill-grace', '2147484'], `--kill-grace ${limit}, got 2147484`],
    [['--timeout', '0x10'], '--timeout must be a positive number of seconds, got "0x10"; write a decimal such as 90 or 1.5'],
    [['--timeout', ' 5'], '--timeout must be a positive number of seconds, got " 5"; write a decimal such as 90 or 1.5'],
    [['--kill-grace', '1e3'], '--kill-grace must be a non-negative number of seconds, got "1e3"; write a decimal such as 90 or 1.5'],
    [['--min-tests', '0x1'], '--min-tests must be a whole number, got "0x1"'],
    [['--max-log', ' 5'], '--max-log must be a whole number of bytes, optionally with K, M or G (0 for no cap), got " 5"'],
    [['--cwd', ''], '--cwd needs a directory, got ""'],
    [[''], 'a file operand is an empty string; name a file or directory (. for all of it)'],
    [['--file', ''], '--file needs at least one file, got ""'],
    [['parse', ''], 'the report file is an empty string; name a file'],
    [['--name', 'a\u009bb'], '--name must not contain control characters'],
    [['--name', 'a\u0085b'], '--name must not contain control characters'],
    [['--runner', 'node-test', '--command', 'node --test', '--report', 'tap:-'], '--runner "node-test" cannot be combined with --command: the command is what runs'],
  ];

  it.each(cases)('%j', async (args, message) => {
    // A project that would run if the input were taken.
    const dir = await copyFixture('node-test-files');
    expect(await runIn(dir, args)).toEqual({ exitCode: 2, stdout: '', stderr: `run-tests: ${message}\n` });
    expect(fs.existsSync(path.join(dir, '.run-tests'))).toBe(false);
  });
});

describe('what commander refuses', () => {
  it('is echoed with its control characters as escapes', async () => {
    expect(await runCli(['--\x1b[2J'])).toEqual({ exitCode: 2, stdout: '', stderr: "error: unknown option '--\\x1b[2J'\n" });
    expect(await runCli(['parse', '--x\u009b1A'])).toEqual({ exitCode: 2, stdout: '', stderr: "error: unknown option '--x\\u009b1A'\n" });
  });
});

describe("after --, every word is the runner's", () => {
  it('gives words named parse, detect and help to node --test (which runs them as files) rather than running those commands', async () => {
    const dir = await copyFixture('node-test-files');
    for (const name of ['parse', 'detect', 'help']) {
      await fs.writeFile(path.join(dir, name), `require('node:test')('in ${name}', () => { throw new Error('${name} ran'); });\n`);
    }
    const { exitCode, stdout } = await runCli(['--cwd', dir, '--json', '--', 'parse']);
    const report = JSON.parse(stdout) as { summary: { run: number }; failed_tests: { test_name: string; file: string }[] };
    expect([exitCode, report.summary.run, report.failed_tests.map((t) => [t.test_name, t.file])]).toEqual([1, 1, [['in parse', 'parse']]]);
    const all = JSON.parse((await runCli(['--cwd', dir, '--json', '--', 'detect', 'help', 'parse'])).stdout) as typeof report;
    expect(all.failed_tests.map((t) => t.file).sort()).toEqual(['detect', 'help', 'parse']);
    // A subcommand before -- is still the subcommand.
    expect((await runCli(['detect', '--cwd', dir])).stdout).toMatch(/^runner: {2}node-test\n/);
  });
});

describe('a closed stdout', () => {
  it('ends --help quietly, as `run-tests --help | head -1` does', async () => {
    expect(await runIn(REPO, ['--help'], { closeStdout: true })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const piped = await runIn(REPO, ['--version'], { closeStdout: true });
    expect(piped).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('ends a run quietly with the run\'s own exit code', async () => {
    const dir = await copyFixture('node-test-hostile');
    expect(await runIn(dir, [], { closeStdout: true })).toEqual({ exitCode: 1, stdout: '', stderr: '' });
    expect(fs.existsSync(path.join(dir, '.run-tests/last-test.log'))).toBe(true);
  });
});

describe('a test cannot drive the terminal it is reported on', () => {
  const TITLE = '\x1b]0;pwned\x07 \x1b[2J \u009b31m';
  const SHOWN = '\\x1b]0;pwned\\x07 \\x1b[2J \\u009b31m';

  it('shows control characters of test names and messages as escapes; the JSON report keeps them exact', async () => {
    const dir = await copyFixture('node-test-hostile');
    const human = await runCli(['--cwd', dir]);
    expect([human.exitCode, human.stderr]).toEqual([1, '']);
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    expect(human.stdout).toContain(`  1) test/hostile.test.js:9 failed\n     name ${SHOWN}\n     message ${SHOWN}\n     \tsecond line\n`);

    const json = await runCli(['--cwd', dir, '--json']);
    // JSON escapes C0 itself; DEL and C1 are escaped too, and read back exactly.
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    const report = JSON.parse(json.stdout) as { failed_tests: { test_name: string; message: string }[] };
    expect(report.failed_tests.map((t) => [t.test_name, t.message])).toEqual([[`name ${TITLE}`, `message ${TITLE}\n\tsecond line`]]);
  });

  it('shows a rerun command that names such a test with escapes', async () => {
    const dir = await copyFixture('node-test-hostile');
    await runCli(['--cwd', dir]);
    const rerun = await runCli(['--cwd', dir, '--failed-only']);
    expect(rerun.exitCode).toBe(1);
    expect(rerun.stdout).not.toMatch(RAW_CONTROL);
    const command = rerun.stdout.split('\n').find((line) => line.startsWith('$ '));
    expect(command).toContain("'--test-name-pattern=^(?:name \\x1b\\]0;pwned\\x07 \\x1b\\[2J \\u009b31m)$' ./test/hostile.test.js");
    // The name with its raw characters reached node: exactly the failed test ran again.
    expect(rerun.stdout).toContain('FAILED  0 passed, 1 failed, 0 errors, 0 skipped');
  });
});
