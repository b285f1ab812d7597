import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { copyFixture, failures, hasTools, junitSkips, processGone, readEvents, runFile, runJson, waitFor } from './helpers.js';
import { NODE_TEST_MIXED_FAILURES, NODE_TEST_MIXED_MESSAGES } from './expected.js';

const suite = hasTools('node') ? describe : describe.skip;

/** node 20 and 21 report the tests --test-only and --test-name-pattern filter out, as
 * skipped; node 22 reports them not at all, nor counts them (nodejs/node#52221). */
const REPORTS_FILTERED = Number(process.versions.node.split('.')[0]) < 22;

/** What `node --test <args>` itself counts, in run-tests' terms: its skipped and todo
 * tests are skips, its cancelled ones errors. */
function nodeSummary(dir: string, args: readonly string[]): { run: number; passed: number; failures: number; skips: number } {
  const { stdout } = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...args], { cwd: dir, encoding: 'utf8' });
  const count = (what: string): number => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(stdout)?.[1] ?? NaN);
  return { run: count('tests'), passed: count('pass'), failures: count('fail') + count('cancelled'), skips: count('skipped') + count('todo') };
}

/** The summary without errors, to compare with nodeSummary (node counts its fails and cancels together). */
const counted = ({ run, passed, failures: failed, errors, skips }: { run: number | null; passed: number | null; failures: number | null; errors: number | null; skips: number | null }) =>
  ({ run, passed, failures: (failed ?? 0) + (errors ?? 0), skips });

suite('node --test', () => {
  it("runs what scripts.test runs, before a devDependency on jest, with the script's glob expanded for node 20", async () => {
    const dir = await copyFixture('node-test-script-glob');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.framework, report.error]).toEqual([1, 'failed', 'node-test', null]);
    // checks/*.js as a shell expands it: not checks/deep/c.js, not test/old.test.js, not the jest example.
    if (Number(process.versions.node.split('.')[0]) < 21) {
      expect(report.reason).toBe(`scripts.test runs node --test; node ${process.versions.node} does not expand globs: run-tests gave it the files of checks/*.js, as npm's shell would`);
      expect(report.command).toMatch(/ \.\/checks\/a\.js \.\/checks\/b\.js$/);
    }
    expect(report.summary).toEqual({ run: 4, passed: 3, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['b fails', 'checks/b.js', 10, 'failed']]);
    expect(report.warnings).toEqual([]);
  });

  it('reports leaves exactly, with nested names, and leaves the tests\' process.argv alone', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({ status: 'failed', framework: 'node-test', reason: 'scripts.test runs node --test', exit_status: 1, warnings: [], error: null });
    // 11 leaves: 6 passed (including the process.argv check), 2 failures, 1 error, a skip and a todo.
    expect(report.summary).toEqual({ run: 11, passed: 6, failures: 2, errors: 1, skips: 2 });
    expect(failures(report)).toEqual(NODE_TEST_MIXED_FAILURES);
    expect(report.failed_tests.map((t) => t.message)).toEqual(NODE_TEST_MIXED_MESSAGES);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toMatch(/✖ adds wrongly/);
    const events = readEvents(runFile(dir, 'node-test-events.jsonl'));
    expect([events[0]?.['runner'], events[0]?.['runner_version'], events.filter((e) => e['event'] === 'test_end').length, events.at(-1)?.['event']])
      .toEqual(['node-test', process.versions.node, 11, 'run_end']);
  });

  it('reruns exactly the previous failures, names with brackets and parentheses included', async () => {
    const dir = await copyFixture('node-test-mixed');
    const file = path.join(dir, 'test/math.test.js');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace("assert.deepStrictEqual(['x'], ['x'])", "assert.deepStrictEqual(['x'], ['y'])"));
    const first = await runJson(['--cwd', dir]);
    expect(first.report.summary).toEqual({ run: 11, passed: 5, failures: 3, errors: 1, skips: 2 });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(exitCode).toBe(1);
    // The failed subtest reruns inside its parent test, whose other subtest passes.
    expect(report.summary).toEqual({ run: 5, passed: 1, failures: 3, errors: 1, skips: 0 });
    expect(report.rerun).toEqual({ selected: 4, not_run: [] });
    expect(report.failed_tests.map((t) => t.test_name).sort()).toEqual([
      'math > adds wrongly', 'math > explodes', 'math > works with [brackets] (and parens)', 'with subtests > second fails',
    ]);
    expect(report.command).toContain('works with \\[brackets\\] \\(and parens\\)');
  });

  it('filters by --name without counting the tests node filtered out as skips', async () => {
    const dir = await copyFixture('node-test-mixed');
    const plain = await runJson(['--cwd', dir, '--name', '[brackets] (and']);
    expect([plain.exitCode, plain.report.status, plain.report.summary]).toEqual([0, 'passed', { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }]);
    const none = await runJson(['--cwd', dir, '--name', 'no such test']);
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
  });

  it("counts the tests --test-only skips, as node does, each with node's reason", async () => {
    const dir = await copyFixture('node-test-only');
    const junit = path.join(dir, 'junit.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--junit', junit, '--', '--test-only']);
    expect([exitCode, report.status, report.command, report.warnings]).toEqual([0, 'passed', 'node --test --test-only', []]);
    expect(report.summary).toEqual(REPORTS_FILTERED ? { run: 3, passed: 1, failures: 0, errors: 0, skips: 2 } : { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(counted(report.summary)).toEqual(nodeSummary(dir, ['--test-only']));
    expect(await junitSkips(junit)).toEqual(REPORTS_FILTERED ? [
      ['test/cart.test.js', 'adds an item', "'only' option not set"],
      ['test/cart.test.js', 'empties the cart', "'only' option not set"],
    ] : []);
  });

  it("counts { skip }, t.skip() and { todo } tests as skips, with node's reasons, as many as node counts", async () => {
    const dir = await copyFixture('node-test-skips');
    const junit = path.join(dir, 'junit.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--junit', junit]);
    expect([exitCode, report.status, report.failed_tests]).toEqual([0, 'passed', []]);
    // node: tests 9, pass 2, skipped 4, todo 3 (a failing todo test is a todo, not a failure).
    expect(report.summary).toEqual({ run: 9, passed: 2, failures: 0, errors: 0, skips: 7 });
    expect(counted(report.summary)).toEqual(nodeSummary(dir, []));
    expect(await junitSkips(junit)).toEqual([
      ['test/skips.test.js', 'checkout refunds', 'no payment sandbox'],
      ['test/skips.test.js', 'checkout ships', 'skipped'],
      ['test/skips.test.js', 'checkout retries', 'flaky upstream'],
      ['test/skips.test.js', 'checkout invoices', 'todo: needs the PDF writer'],
      ['test/skips.test.js', 'checkout splits', 'todo (failed: not split yet)'],
      ['test/skips.test.js', 'coupons > stacks coupons', 'todo'],
      ['test/skips.test.js', 'coupons > expires a coupon', 'skipped'],
    ]);
  });

  it("counts the tests the user's or the script's --test-name-pattern leaves out, as node does; --name's are not in the run", async () => {
    const dir = await copyFixture('node-test-skips');
    const junit = path.join(dir, 'junit.xml');
    const filtered = (name: string): [string, string, string] => ['test/skips.test.js', name, 'test name does not match pattern'];
    const ownSkips: [string, string, string][] = [['test/skips.test.js', 'coupons > stacks coupons', 'todo'], ['test/skips.test.js', 'coupons > expires a coupon', 'skipped']];
    const expected = REPORTS_FILTERED
      ? { summary: { run: 9, passed: 1, failures: 0, errors: 0, skips: 8 }, skips: [...['pays', 'refunds', 'ships', 'retries', 'invoices', 'splits'].map((n) => filtered(`checkout ${n}`)), ...ownSkips] }
      : { summary: { run: 3, passed: 1, failures: 0, errors: 0, skips: 2 }, skips: ownSkips };
    const passed = await runJson(['--cwd', dir, '--junit', junit, '--', '--test-name-pattern=coupon']);
    expect([passed.exitCode, passed.report.command, passed.report.summary]).toEqual([0, 'node --test --test-name-pattern=coupon', expected.summary]);
    expect(counted(passed.report.summary)).toEqual(nodeSummary(dir, ['--test-name-pattern=coupon']));
    expect(await junitSkips(junit)).toEqual(expected.skips);
    // The project's own pattern is node's filter too.
    await fs.writeJson(path.join(dir, 'package.json'), { name: 'node-test-skips', private: true, scripts: { test: 'node --test --test-name-pattern=coupon' } });
    const script = await runJson(['--cwd', dir, '--junit', junit]);
    expect([script.exitCode, script.report.summary]).toEqual([0, expected.summary]);
    expect(await junitSkips(junit)).toEqual(expected.skips);
    // run-tests' own selection, the same pattern: what it leaves out is no skip, on any node.
    const named = await runJson(['--cwd', dir, '--junit', junit, '--name', 'coupon']);
    expect([named.exitCode, named.report.command, named.report.summary]).toEqual([0, 'node --test --test-name-pattern=coupon', { run: 3, passed: 1, failures: 0, errors: 0, skips: 2 }]);
    expect(await junitSkips(junit)).toEqual(ownSkips);
  });

  it('finds tests without scripts.test, and reports a load error and a process.exit as file-level errors', async () => {
    const dir = await copyFixture('node-test-files');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.reason]).toEqual([1, 'failed', expect.stringMatching(/^no runner in package\.json; test files found .*: node --test; package\.json has no scripts\.test/)]);
    expect(report.summary).toEqual({ run: 3, passed: 1, failures: 0, errors: 2, skips: 0 });
    expect(failures(report)).toEqual([
      ['test/b_broken.test.js', 'test/b_broken.test.js', 4, 'error'],
      ['test/c_exit.test.js', 'test/c_exit.test.js', null, 'error'],
    ]);
    expect(report.failed_tests.map((t) => t.message)).toEqual([
      'Error: helpers are missing',
      "the test file's process exited with code 1 before all its tests were reported (a test may have called process.exit)",
    ]);
    // process.exit(0) in a test: node reports the file as passed, with no tests in it.
    expect(report.warnings).toEqual(['1 test file(s) reported no tests: test/d_exit_zero.test.js; such a file holds no tests, or a test in it ended its process with exit code 0 (process.exit(0)) before node saw a result']);
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.report.summary.run, rerun.report.rerun]).toEqual([2, { selected: 2, not_run: [] }]);
  });

  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await copyFixture('node-test-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect(exitCode).toBe(124);
    expect(report).toMatchObject({ status: 'timed_out', timed_out: true });
    // The signal reaches node --test and the file's process at once: node sometimes still
    // reports the file's death before it exits itself, and then the file is an error. Seen
    // under load in a full `npm test`; never a pass either way.
    const cutOff = report.failed_tests.map((t) => [t.test_name, t.status, t.message]);
    expect([[], [['test/hang.test.js', 'error', "the test file's process was killed by SIGTERM before all its tests were reported"]]]).toContainEqual(cutOff);
    expect(report.summary).toEqual({ run: 1 + cutOff.length, passed: 1, failures: 0, errors: cutOff.length, skips: 0 });
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });
});
