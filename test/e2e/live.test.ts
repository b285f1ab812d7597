/** The live display: on a pseudo-terminal (script(1) from util-linux: node has no pty
 * module, and script needs no build), a progress line redrawn in place and each failure
 * on a line as it happens; plain lines on a dumb terminal and in CI; nothing with --json. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyFixture, failures, hasTools, REPO, runCli, runJson } from './helpers.js';

const BIN = path.join(REPO, 'bin/run-tests.js');

/** The CLI on a pseudo-terminal: stdout and stderr both arrive here, newlines as CRLF.
 * script -e exits as the command did; a failing run's exit (1) is expected. */
async function onTerminal(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((arg) => JSON.stringify(arg)).join(' ');
  // Without CI: the test runner's own CI=true would turn the display plain.
  const options = { env: { ...process.env, CI: undefined, TERM: 'xterm', FORCE_COLOR: '0', ...env } };
  try {
    await promisify(execFile)('script', ['-qfec', command, '/dev/null'], options);
    throw new Error('the run passed; every fixture here fails');
  } catch (error) {
    const { code, stdout } = error as { code?: number; stdout?: string };
    if (code !== 1 || stdout === undefined) throw error;
    return stdout;
  }
}

async function jestFixture(): Promise<string> {
  const dir = await copyFixture('jest-mixed');
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** jest-mixed's failures as its run reports them, in the order they happen. */
const JEST_FAILURES = [
  'FAIL  math › add › adds negatives  test/math.test.js:11',
  'ERROR  math › parses config  test/math.test.js:16',
  'FAIL  math › fails [with] (brackets) too  test/math.test.js:30',
  'FAIL  top level fails  test/second.test.js:6',
  'ERROR  load error: test/broken.test.js  test/broken.test.js:3',
];

/** Lines as written, a redrawn line cut at each carriage return that is not a CRLF. */
const linesOf = (output: string): string[] => output.split(/\r\n|\r\x1b\[2K/);

describe('the live display', () => {
  it('redraws the counts in place on a terminal and prints each failure as it happens', async () => {
    const dir = await jestFixture();
    const output = await onTerminal(['--cwd', dir]);
    const lines = linesOf(output);
    // Each failure on a line of its own, before the report, in the order the runner ran them.
    const live = lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l));
    expect(live.sort()).toEqual([...JEST_FAILURES].sort());
    const header = lines.findIndex((l) => l.startsWith('run-tests · jest'));
    expect(lines.findIndex((l) => l === JEST_FAILURES[3])).toBeLessThan(header);
    // jest announces its files, not its tests: the counts say how many files of 3 are done.
    expect(output).toMatch(/\r\x1b\[2K\d+ tests · [0-3]\/3 files · \d failed · \d skipped · \d+s/);
    expect(lines.some((l) => /^10 tests · 3\/3 files · 5 failed · 2 skipped · \d+s$/.test(l) || /^9 tests · [0-3]\/3 files · 4 failed · 2 skipped · \d+s$/.test(l))).toBe(true);
    expect(output).toMatch(/3 passed, 3 failed, 2 errors, 2 skipped/);
    // The same failures, where the report puts them.
    const { report } = await runJson(['--cwd', dir]);
    expect(failures(report).map(([name, file, line, status]) => `${status === 'error' ? 'ERROR' : 'FAIL'}  ${name}  ${file}:${line}`).sort()).toEqual([...JEST_FAILURES].sort());
  });

  it('prints plain lines, never a carriage return, on a dumb terminal and in CI', async () => {
    const dir = await jestFixture();
    const dumb = await onTerminal(['--cwd', dir], { TERM: 'dumb' });
    expect(dumb).not.toMatch(/\r(?!\n)/);
    expect(dumb).not.toContain('\x1b[2K');
    // The last counts end the live lines, before the report.
    const lines = dumb.split('\r\n');
    expect(lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l)).sort()).toEqual([...JEST_FAILURES].sort());
    const last = lines.findIndex((l) => /^10 tests · 3\/3 files · 5 failed · 2 skipped · \d+s$/.test(l));
    expect(last).toBeGreaterThan(-1);
    expect(last).toBeLessThan(lines.findIndex((l) => l.startsWith('run-tests · jest')));

    // In CI the live lines go to stderr even when it is not a terminal (a job's log); stdout is the report alone.
    const ci = await runCli(['--cwd', dir], { env: { CI: 'true' } });
    expect(ci.exitCode).toBe(1);
    expect(ci.stderr).not.toContain('\r');
    const errLines = ci.stderr.split('\n');
    expect(errLines.filter((l) => /^(FAIL|ERROR) {2}/.test(l)).sort()).toEqual([...JEST_FAILURES].sort());
    expect(errLines).toContainEqual(expect.stringMatching(/^10 tests · 3\/3 files · 5 failed · 2 skipped · \d+s$/));
    expect(ci.stdout).not.toMatch(/^(FAIL|ERROR) {2}/m);
    expect(ci.stdout).toMatch(/^run-tests · jest/);
  });

  it('writes nothing but the report with --json, on a terminal too, and nothing live when piped outside CI', async () => {
    const dir = await jestFixture();
    const output = await onTerminal(['--cwd', dir, '--json']);
    const report = JSON.parse(output.replace(/\r\n/g, '\n')) as { status: string };
    expect(report.status).toBe('failed');
    const piped = await runCli(['--cwd', dir], { env: { CI: undefined } });
    expect(piped.exitCode).toBe(1);
    expect(piped.stderr).toBe('');
  });
});

const rspec = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;

rspec('the live display of a runner that announces its tests', () => {
  it('counts against the total rspec announced', async () => {
    const dir = await copyFixture('rspec-mixed');
    const output = await onTerminal(['--cwd', dir]);
    const lines = linesOf(output);
    expect(lines).toContainEqual(expect.stringMatching(/^13\/13 · 6 failed · 3 skipped · \d+s$/));
    expect(lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l))).toEqual([
      'FAIL  Calculator subtracts numbers  spec/mixed_spec.rb:8',
      'ERROR  Calculator loads config via a helper  spec/mixed_spec.rb:12',
      'FAIL  Calculator doubles 2 (loop)  spec/mixed_spec.rb:42',
      'FAIL  Calculator pending work is pending but passes  spec/mixed_spec.rb:21',
      'ERROR  Second file raises a plain error  spec/second_spec.rb:7',
      'FAIL  Second file misses a mocked call  spec/second_spec.rb:12',
    ]);
  });
});

const go = hasTools('go') ? describe : describe.skip;

go('the live display of go', () => {
  it("prints each failing test of go's JSON stream as it happens, where the report puts it", async () => {
    const dir = await copyFixture('go-mixed');
    const lines = linesOf(await onTerminal(['--cwd', dir]));
    const live = lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l));
    // go tests its packages at once: each package's failures in order, the packages in any.
    expect(live.filter((l) => !l.includes('sub/'))).toEqual([
      'FAIL  TestSubtractsWrongly  mixed_test.go:11',
      'FAIL  TestFatalInHelper  mixed_test.go:16',
      'FAIL  TestTable/wrong_[neg]  mixed_test.go:39',
      'FAIL  TestNested/outer/inner_(bad)  mixed_test.go:49',
    ]);
    expect(live.filter((l) => l.includes('sub/'))).toEqual(['FAIL  TestHalf  sub/calc_test.go:13']);
    const { report } = await runJson(['--cwd', dir]);
    expect(failures(report).map(([name, file, line]) => `FAIL  ${name}  ${file}:${line}`).sort()).toEqual([...live].sort());
  });
});

const pytest = hasTools('python3', 'pytest-3') ? describe : describe.skip;

pytest('the live display of pytest', () => {
  it('counts against the tests pytest collected, in the plain lines of a CI log', async () => {
    const dir = await copyFixture('pytest-mixed');
    const { exitCode, stderr } = await runCli(['--cwd', dir], { env: { CI: 'true' } });
    expect(exitCode).toBe(1);
    const lines = stderr.split('\n');
    expect(lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l))).toEqual([
      'FAIL  tests/test_widget.py::test_size_is_wrong  tests/test_widget.py:12',
      'ERROR  tests/test_widget.py::test_explodes  tests/test_widget.py:16',
      'ERROR  tests/test_widget.py::test_needs_database  tests/test_widget.py:19',
      'ERROR  tests/test_widget.py::test_leaks  tests/test_widget.py:26',
      'FAIL  tests/test_widget.py::test_strict_xpass  tests/test_widget.py:48',
      'FAIL  tests/test_widget.py::test_words[[x] and y]  tests/test_widget.py:55',
      'FAIL  tests/test_widget.py::TestCart::test_discount  tests/test_widget.py:63',
    ]);
    // The last line of counts, before the report: pytest collected 16.
    expect(lines.filter((l) => /^\d+\/16 · /.test(l)).at(-1)).toMatch(/^16\/16 · 7 failed · 2 skipped · \d+s$/);
  });
});
