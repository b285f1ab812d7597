import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, failures, hasTools, processGone, readEvents, REPO, runFile, runJson, waitFor } from './helpers.js';

const suite = hasTools('node') ? describe : describe.skip;

/** A temp copy of a mocha fixture, using this repository's mocha (a devDependency). */
async function mochaProject(name: string, into?: string): Promise<string> {
  const dir = await copyFixture(name, into);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

suite('mocha', () => {
  it("runs the script's spec with its --require, reports exactly, and leaves process.argv alone", async () => {
    const dir = await mochaProject('mocha-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({ status: 'failed', framework: 'mocha', reason: 'scripts.test runs mocha', exit_status: 2, warnings: [], error: null });
    expect(report.command).toBe('npx mocha --require ./test/setup.js spec/');
    // 9 = 5 passed (including the --require and process.argv checks) + 1 failure + 1 error + 2 skips.
    expect(report.summary).toEqual({ run: 9, passed: 5, failures: 1, errors: 1, skips: 2 });
    expect(failures(report)).toEqual([
      ['math adds wrongly', 'spec/math.spec.js', 10, 'failed'],
      ['math explodes', 'spec/math.spec.js', 14, 'error'],
    ]);
    expect(report.failed_tests.map((t) => [t.message, t.id])).toEqual([
      ['Expected values to be strictly equal:\n\n2 !== 3', 'spec/math.spec.js::math adds wrongly'],
      ['TypeError: widget exploded: too hot', 'spec/math.spec.js::math explodes'],
    ]);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toMatch(/5 passing[\s\S]*2 pending[\s\S]*2 failing/);
  });

  it('finds where each test is defined when the project path has a space and parentheses', async () => {
    const lines = async (dir: string): Promise<[unknown, unknown][]> => {
      await runJson(['--cwd', dir]);
      const events = readEvents(runFile(dir, 'mocha-events.jsonl'));
      return events.filter((e) => e['event'] === 'test_end').map((e) => [e['name'], e['line']]);
    };
    const plain = await lines(await mochaProject('mocha-mixed'));
    const parent = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-mocha-space-')));
    const spaced = await mochaProject('mocha-mixed', path.join(parent, 'my (old) project'));
    expect(plain.filter(([, line]) => typeof line !== 'number')).toEqual([]);
    expect(await lines(spaced)).toEqual(plain);
  });

  it('reports a parallel run (.mocharc.json) as exactly, error classes included, and reruns it', async () => {
    const dir = await mochaProject('mocha-parallel');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 5, passed: 1, failures: 1, errors: 2, skips: 1 });
    // Errors reach a reporter deserialized in parallel mode: their class comes from the stack.
    // Two workers: the files' results arrive in either order.
    const rows = report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message]);
    expect([...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['alpha (a) fails [x]', 'test/alpha.spec.js', 5, 'failed', 'Expected values to be strictly equal:\n\n1 !== 2'],
      ['alpha (a) throws', 'test/alpha.spec.js', 7, 'error', 'TypeError: not a widget'],
      ['beta "before all" hook for "never runs"', 'test/beta.spec.js', 3, 'error', 'Error: hook broke'],
    ]);
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.report.summary, rerun.report.rerun]).toEqual([{ run: 3, passed: 0, failures: 1, errors: 2, skips: 0 }, { selected: 3, not_run: [] }]);
  });

  it('reruns exactly the previous failures, names with brackets and parentheses included', async () => {
    const dir = await mochaProject('mocha-mixed');
    const spec = path.join(dir, 'spec/math.spec.js');
    await fs.writeFile(spec, (await fs.readFile(spec, 'utf8')).replace("assert.deepStrictEqual(['x'], ['x'])", "assert.deepStrictEqual(['x'], ['y'])"));
    const first = await runJson(['--cwd', dir]);
    expect(first.report.summary).toEqual({ run: 9, passed: 4, failures: 2, errors: 1, skips: 2 });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(exitCode).toBe(1);
    expect(report.summary).toEqual({ run: 3, passed: 0, failures: 2, errors: 1, skips: 0 });
    expect(report.rerun).toEqual({ selected: 3, not_run: [] });
    expect(report.failed_tests.map((t) => t.test_name)).toEqual(['math adds wrongly', 'math explodes', 'math works with [brackets] (and parens)']);
    expect(report.command).toContain("--grep '^(?:");
    expect(report.command).toContain('math works with \\[brackets\\] \\(and parens\\)');
    expect(report.command).toMatch(/ \.\/spec\/math\.spec\.js$/);
  });

  it('filters by --name as a substring or a /regex/, and says no_tests when nothing matches', async () => {
    const dir = await mochaProject('mocha-mixed');
    const plain = await runJson(['--cwd', dir, '--name', '[brackets] (and']);
    expect([plain.exitCode, plain.report.status, plain.report.summary.run]).toEqual([0, 'passed', 1]);
    const regex = await runJson(['--cwd', dir, '--name', '/^math (adds|nested multiplies)$/']);
    expect([regex.exitCode, regex.report.summary.passed, regex.report.summary.run]).toEqual([0, 2, 2]);
    const none = await runJson(['--cwd', dir, '--name', 'no such test']);
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
  });

  it('reports a test file that fails to load as an error entry with its file and line', async () => {
    const dir = await mochaProject('mocha-load-error');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(failures(report)).toEqual([['load error: test/b_broken.spec.js', 'test/b_broken.spec.js', 1, 'error']]);
    expect(report.failed_tests[0]?.message).toMatch(/^Error: Cannot find module '\.\/helpers-that-do-not-exist'/);
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.report.status, rerun.report.rerun, rerun.report.command?.endsWith(' ./test/b_broken.spec.js')]).toEqual(['failed', { selected: 1, not_run: [] }, true]);
  });

  it('is an error naming the file and test when a test calls process.exit', async () => {
    const dir = await mochaProject('mocha-exit');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status]).toEqual([3, 'error', 1]);
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.warnings[0]).toBe('mocha exited with code 1 before its run ended, in test/exit.spec.js, during "exit calls process.exit"');
    // The launcher's exit listener ends the events file: the run stopped early, and where.
    expect(readEvents(runFile(dir, 'mocha-events.jsonl')).map((e) => e['event'])).toEqual(['run_start', 'test_start', 'test_end', 'test_start', 'run_end']);
  });

  it('says RUNNER_MISSING (exit 3) with the install hint when mocha is not installed', async () => {
    const dir = await copyFixture('mocha-exit');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toMatch(/mocha is not installed.*npm install/);
  });

  it('says RUNNER_UNSUPPORTED (exit 3) when the mocha found lacks the modules the launcher drives', async () => {
    const dir = await copyFixture('mocha-exit');
    await fs.outputJson(path.join(dir, 'node_modules/mocha/package.json'), { name: 'mocha', version: '11.0.0' });
    await fs.outputFile(path.join(dir, 'node_modules/.bin/mocha'), '');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_UNSUPPORTED']);
    expect(report.error?.message).toMatch(new RegExp(`^the mocha in ${dir}/node_modules/mocha cannot be run by run-tests: Cannot find module '${dir}/node_modules/mocha/lib/mocha\\.js'`));
    expect(readEvents(runFile(dir, 'mocha-events.jsonl')).map((e) => e['event'])).toEqual(['unusable']);
  });

  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await mochaProject('mocha-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect(exitCode).toBe(124);
    expect(report).toMatchObject({ status: 'timed_out', timed_out: true, signal: 'SIGTERM' });
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });
});
