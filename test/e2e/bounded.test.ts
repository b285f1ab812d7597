/** Output an agent can trust to be bounded: at most --max-failures failures listed (all
 * of them kept for reruns), cut messages that say what they leave out and where it is,
 * stacks with the project's frames only, and the tests a timeout struck. Real runners. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, hasTools, once, readEvents, REPO, runCli, runFile, runJson, validateReport } from './helpers.js';
import type { RunReport } from '../../src/model/report.js';
import type { FailedTestRecord } from '../../src/model/results.js';

const suite = hasTools('node') ? describe : describe.skip;

/** 120 lines: far more than a 2 KiB message holds. */
const LONG_LINES = Array.from({ length: 120 }, (_, i) => `detail line ${i + 1} of the long failure`);

/** node-test-mixed (2 failures, 1 error) with 56 more failing tests, and one whose message is 120 lines. */
async function manyFailures(): Promise<string> {
  const dir = await copyFixture('node-test-mixed');
  const many = Array.from({ length: 56 }, (_, i) => `test('many ${String(i + 1).padStart(2, '0')}', () => { assert.fail('failure ${i + 1}'); });`);
  await fs.writeFile(path.join(dir, 'test/many.test.js'), [
    "const { test } = require('node:test');",
    "const assert = require('node:assert');",
    ...many,
    `test('long message', () => { assert.fail(${JSON.stringify(LONG_LINES.join('\n'))}); });`,
  ].join('\n'));
  return dir;
}

const MANY_NAMES = [
  'math > adds wrongly', 'math > explodes', 'with subtests > second fails', 'long message',
  ...Array.from({ length: 56 }, (_, i) => `many ${String(i + 1).padStart(2, '0')}`),
].sort();
const MANY_SUMMARY = { run: 68, passed: 6, failures: 59, errors: 1, skips: 2 };

const lastFailures = async (dir: string): Promise<FailedTestRecord[]> =>
  ((await fs.readJson(path.join(dir, '.run-tests/last-failures.json'))) as { failed_tests: FailedTestRecord[] }).failed_tests;

/** A temp copy of a fixture using this repository's jest, vitest and mocha (devDependencies). */
async function withNodeModules(name: string): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** A failure's stack as [file, line] pairs; null when it has none, undefined when there is no such failure. */
const frames = (t: FailedTestRecord | undefined): [string, number][] | null | undefined =>
  (t === undefined ? undefined : (t.stack ?? null)?.map((f): [string, number] => [f.file, f.line]) ?? null);
const byName = (failed: readonly FailedTestRecord[], name: string): FailedTestRecord | undefined => failed.find((t) => t.test_name === name);

/** One --max-failures 0 run of manyFailures, and the failures file it left: two tests
 * read it, and one runs more in its directory (which changes neither). */
const everyFailure = once(async () => {
  const dir = await manyFailures();
  const { report } = await runJson(['--cwd', dir, '--max-failures', '0']);
  return { dir, report, kept: await lastFailures(dir) };
});

/** One plain run of mocha-mixed, whose report two tests read. */
const mochaMixed = once(async () => (await runJson(['--cwd', await withNodeModules('mocha-mixed')])).report);

suite('--max-failures', () => {
  it('lists at most N failures, says how many it left out, and keeps them all for --failed-only', async () => {
    const dir = await manyFailures();
    const { exitCode, report } = await runJson(['--cwd', dir, '--max-failures', '7']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual(MANY_SUMMARY);
    expect(report.failed_tests).toHaveLength(7);
    expect(report.truncated).toEqual({ failed_tests: 53 });
    expect(report.next).toBe(`run-tests --cwd ${dir} --failed-only`);
    // Each failure listed keeps the command that reruns it.
    expect(report.failed_tests.map((t) => t.rerun_argv?.slice(0, 3))).toEqual(report.failed_tests.map(() => ['run-tests', '--cwd', dir]));
    const kept = await lastFailures(dir);
    expect(kept.map((t) => t.test_name).sort()).toEqual(MANY_NAMES);
    expect(report.failed_tests.every((t) => kept.some((k) => k.id === t.id))).toBe(true);

    const rerun = await runJson(['--cwd', dir, '--failed-only', '--max-failures', '7']);
    expect(rerun.report.rerun).toEqual({ selected: 60, not_run: [] });
    expect([rerun.report.summary.failures, rerun.report.summary.errors, rerun.report.failed_tests.length]).toEqual([59, 1, 7]);
    expect(rerun.report.truncated).toEqual({ failed_tests: 53 });
    expect((await lastFailures(dir)).map((t) => t.test_name).sort()).toEqual(MANY_NAMES);
  });

  it('lists 50 by default, every one with 0, and says so in the human list', async () => {
    const { dir, report: all } = await everyFailure();
    const byDefault = await runJson(['--cwd', dir]);
    expect([byDefault.report.failed_tests.length, byDefault.report.truncated]).toEqual([50, { failed_tests: 10 }]);
    expect(all.failed_tests.map((t) => t.test_name).sort()).toEqual(MANY_NAMES);
    expect('truncated' in all).toBe(false);
    const human = await runCli(['--cwd', dir, '--max-failures', '2']);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('\nFailures (2 of 60):\n');
    expect(human.stdout).toContain(`\n… 58 more failures not listed (--max-failures); all are in ${path.join(dir, '.run-tests/last-failures.json')}\n`);
    expect(human.stdout.match(/^ {2}\d+\) /gm)).toHaveLength(2);
  });

  it('caps an imported report too: `parse` of a JUnit file with 60 failures', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bounded-'));
    const cases = Array.from({ length: 60 }, (_, i) => `<testcase classname="t" name="case ${i + 1}" file="t.js"><failure message="no">no</failure></testcase>`);
    await fs.writeFile(path.join(dir, 'junit.xml'), `<?xml version="1.0"?>\n<testsuites><testsuite name="t" tests="60" failures="60">${cases.join('')}</testsuite></testsuites>\n`);
    const capped = await runJson(['parse', 'junit.xml', '--cwd', dir, '--max-failures', '5']);
    expect([capped.exitCode, capped.report.summary.failures, capped.report.failed_tests.map((t) => t.test_name), capped.report.truncated])
      .toEqual([1, 60, ['t.case 1', 't.case 2', 't.case 3', 't.case 4', 't.case 5'], { failed_tests: 55 }]);
    expect((await runJson(['parse', 'junit.xml', '--cwd', dir])).report.truncated).toEqual({ failed_tests: 10 });
    expect((await runJson(['parse', 'junit.xml', '--cwd', dir, '--max-failures', '0'])).report.failed_tests).toHaveLength(60);
  });

  it('refuses a count that is not a whole number', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, stderr } = await runCli(['--cwd', dir, '--max-failures', '-1']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--max-failures must be a whole number, got "-1"');
  });

  it('cuts a long message at a line, saying how many lines it left out and that the log has them', async () => {
    const { report, kept } = await everyFailure();
    const message = byName(report.failed_tests, 'long message')?.message ?? '';
    const cut = /\n… (\d+) more lines in (.+)$/.exec(message);
    expect(cut?.[2]).toBe(report.artifact);
    const shown = message.slice(0, cut?.index).split('\n');
    expect(shown).toEqual(LONG_LINES.slice(0, shown.length));
    expect(shown.length + Number(cut?.[1])).toBe(LONG_LINES.length);
    expect(shown.length).toBeGreaterThan(20);
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(2048);
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toContain(LONG_LINES.at(-1));
    // The failures file keeps it as the report gives it.
    expect(byName(kept, 'long message')?.message).toBe(message);
  });
});

(hasTools('python3', 'pytest-3') ? describe : describe.skip)('pytest', () => {
  const DEBIAN = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };

  it('counts the lines a cut message leaves out: its reporter no longer cuts first', async () => {
    const dir = await copyFixture('pytest-mixed');
    const lines = JSON.stringify(LONG_LINES.join('\n'));
    await fs.writeFile(path.join(dir, 'tests/test_long.py'), `def test_long():\n    raise AssertionError(${lines})\n`);
    const { report } = await runJson(['--cwd', dir, 'tests/test_long.py'], { env: DEBIAN });
    const message = report.failed_tests[0]?.message ?? '';
    const cut = /\n… (\d+) more lines in (.+)$/.exec(message);
    expect(cut?.[2]).toBe(report.artifact);
    const shown = message.slice(0, cut?.index).split('\n');
    expect(shown[0]).toBe(`AssertionError: ${LONG_LINES[0]}`);
    expect(shown.slice(1)).toEqual(LONG_LINES.slice(1, shown.length));
    expect(shown.length + Number(cut?.[1])).toBe(LONG_LINES.length);
  });

  it('gives a failure the frames of its traceback in the project, innermost first, not pytest\'s own', async () => {
    const dir = await copyFixture('pytest-mixed');
    const { report } = await runJson(['--cwd', dir], { env: DEBIAN });
    expect([
      'tests/test_widget.py::test_explodes', 'tests/test_widget.py::test_needs_database', 'tests/test_widget.py::test_strict_xpass',
    ].map((name) => [name, frames(byName(report.failed_tests, name))])).toEqual([
      ['tests/test_widget.py::test_explodes', [['widget.py', 2], ['tests/test_widget.py', 16]]],
      ['tests/test_widget.py::test_needs_database', [['conftest.py', 6]]],
      // A strict xpass raised nothing: no traceback.
      ['tests/test_widget.py::test_strict_xpass', null],
    ]);
    expect(byName(report.failed_tests, 'tests/test_widget.py::test_explodes')?.stack?.map((f) => f.function)).toEqual(['explode', 'test_explodes']);
  });

  it('names the test a timeout struck', async () => {
    const dir = await copyFixture('pytest-hang');
    const { report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { ...DEBIAN, HANG_PID_FILE: path.join(dir, 'grandchild.pid') } });
    expect([report.status, report.running_at_timeout]).toEqual(['timed_out', [{ name: 'tests/test_hang.py::test_2_hangs_with_a_grandchild', file: 'tests/test_hang.py' }]]);
  });
});

suite('stack', () => {
  it('jest: the frames in the project, the source file the error came from first', async () => {
    const dir = await withNodeModules('jest-mixed');
    const { report } = await runJson(['--cwd', dir]);
    expect(frames(byName(report.failed_tests, 'math › parses config'))).toEqual([['src/math.js', 2], ['test/math.test.js', 16]]);
    expect(frames(byName(report.failed_tests, 'top level fails'))).toEqual([['test/second.test.js', 6]]);
  });

  it('vitest: source-mapped frames in the project', async () => {
    const dir = await withNodeModules('vitest-mixed');
    const { report } = await runJson(['--cwd', dir]);
    expect(frames(byName(report.failed_tests, 'math > parses config'))).toEqual([['src/math.ts', 2], ['test/math.test.ts', 20]]);
  });

  it('mocha: the project\'s frames, not mocha\'s', async () => {
    const report = await mochaMixed();
    expect(report.failed_tests.map((t) => [t.test_name, frames(t)])).toEqual([
      ['math adds wrongly', [['spec/math.spec.js', 10]]],
      ['math explodes', [['lib/widget.js', 2], ['spec/math.spec.js', 14]]],
    ]);
  });

  it('node:test: node\'s own frames left out of what its reporter wrote', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { report } = await runJson(['--cwd', dir]);
    expect(frames(byName(report.failed_tests, 'math > explodes'))).toEqual([['lib/widget.js', 2], ['test/math.test.js', 15]]);
    const written = readEvents(runFile(dir, 'node-test-events.jsonl')).find((e) => e['name'] === 'math > explodes');
    expect(String(written?.['stack'])).toMatch(/\(node:internal\//);
  });

  it('go: a panic\'s trace without GOROOT\'s frames; a t.Error has no stack', async () => {
    if (!hasTools('go')) return;
    const panic = await copyFixture('go-panic');
    const { report } = await runJson(['--cwd', panic]);
    expect(frames(byName(report.failed_tests, 'TestPanics'))).toEqual([['panic_test.go', 19]]);
    expect(byName(report.failed_tests, 'TestPanics')?.stack?.[0]?.function).toBe('example.com/gopanic.TestPanics');
    const mixed = await copyFixture('go-mixed');
    const plain = await runJson(['--cwd', mixed]);
    const errored = plain.report.failed_tests.filter((t) => !t.message.includes('panic:'));
    expect(errored.length).toBeGreaterThan(0);
    expect(errored.map((t) => [t.test_name, t.stack])).toEqual(errored.map((t) => [t.test_name, null]));
  });
});

suite('running_at_timeout', () => {
  it('jest: names the test the timeout struck, in the report and in the human output', async () => {
    const dir = await withNodeModules('jest-hang');
    const env = { HANG_PID_FILE: path.join(dir, 'grandchild.pid') };
    // One run: the human output it printed, and the report it kept (the one --json prints).
    const human = await runCli(['--cwd', dir, '--timeout', '5', '--kill-grace', '1'], { env });
    const report = await fs.readJson(runFile(dir, 'report.json')) as RunReport;
    expect(validateReport(report)).toBe(true);
    expect([human.exitCode, report.status]).toEqual([124, 'timed_out']);
    expect(report.running_at_timeout).toEqual([{ name: 'hangs with a grandchild', file: 'test/hang.test.js' }]);
    expect(human.stdout).toContain('\nrunning when it timed out: hangs with a grandchild (test/hang.test.js)\n');
  });

  it('mocha and go: the test running; none on a run that did not time out', async () => {
    const mocha = await withNodeModules('mocha-hang');
    const { report } = await runJson(['--cwd', mocha, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: path.join(mocha, 'grandchild.pid') } });
    expect([report.status, report.running_at_timeout]).toEqual(['timed_out', [{ name: 'hang hangs with a grandchild', file: 'test/hang.spec.js' }]]);
    expect('running_at_timeout' in (await mochaMixed())).toBe(false);
    if (!hasTools('go')) return;
    const go = await copyFixture('go-hang');
    const timed = await runJson(['--cwd', go, '--timeout', '4', '--kill-grace', '1'], { env: { HANG_PID_FILE: path.join(go, 'grandchild.pid') } });
    expect(timed.report.status).toBe('timed_out');
    // go may still report the package's end before it exits: TestHang is then an error, no longer running.
    expect([[{ name: 'TestHang', file: null }], []]).toContainEqual(timed.report.running_at_timeout);
  });

  it('minitest: null, since its reporter writes no test starts', async () => {
    if (!hasTools('ruby', 'bundle')) return;
    const dir = await copyFixture('minitest-hang');
    const { report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: path.join(dir, 'grandchild.pid') } });
    expect([report.status, report.running_at_timeout]).toEqual(['timed_out', null]);
  });

  it('node:test: null, since node reports a test only once it ended', async () => {
    const dir = await copyFixture('node-test-hang');
    const { report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: path.join(dir, 'grandchild.pid') } });
    expect([report.status, report.running_at_timeout]).toEqual(['timed_out', null]);
  });
});
