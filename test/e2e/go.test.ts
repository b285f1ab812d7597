import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, failures, hasTools, processGone, runJson, waitFor } from './helpers.js';

const suite = hasTools('go') ? describe : describe.skip;

/** A build cache of this file's own, no network, no toolchain switching, no caller GOFLAGS. */
const goEnv: NodeJS.ProcessEnv = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runJson(args, { env: { ...goEnv, ...env } });

const MIXED_FAILURES = [
  ['TestSubtractsWrongly', 'mixed_test.go', 11, 'failed'],
  ['TestFatalInHelper', 'mixed_test.go', 16, 'failed'], // t.Helper(): the test's line, not the helper's
  ['TestTable/wrong_[neg]', 'mixed_test.go', 39, 'failed'],
  ['TestNested/outer/inner_(bad)', 'mixed_test.go', 49, 'failed'],
  ['TestHalf', 'sub/calc_test.go', 13, 'failed'],
];

suite('go test -json', () => {
  beforeAll(async () => {
    goEnv.GOCACHE = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-gocache-'));
    // Compile the standard library once, so the timeout test measures the test, not the build.
    const warm = await copyFixture('go-hang');
    const built = spawnSync('go', ['test', '-count=1', '-run', '^$', './...'], { cwd: warm, env: { ...process.env, ...goEnv }, encoding: 'utf8' });
    expect(built.status).toBe(0);
  });
  afterAll(async () => {
    if (goEnv.GOCACHE) await fs.remove(goEnv.GOCACHE);
  });

  // First and alone: the 3 s budget includes go building the test binary.
  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await copyFixture('go-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await run(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { HANG_PID_FILE: pidFile });
    expect([exitCode, report.status, report.timed_out]).toEqual([124, 'timed_out', true]);
    // The signal reaches go and its test binary at once: go sometimes still reports the
    // package's end (the binary died) before it exits, and then TestHang, cut off
    // while it ran, is an error. Seen once in a full `npm test`; never a pass either way.
    const cutOff = report.failed_tests.map((t) => [t.test_name, t.status, t.message]);
    expect([[], [['TestHang', 'error', expect.stringContaining('the test did not finish: its package ended while it ran')]]]).toContainEqual(cutOff);
    expect(report.summary).toEqual({ run: 1 + cutOff.length, passed: 1, failures: 0, errors: cutOff.length, skips: 0 });
    expect(report.duration_ms).toBeGreaterThanOrEqual(3000);
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild), 2000);
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toMatch(/run-tests: timed out after 3s/);
  });

  it('reports exact counts, leaf names, files and lines of both packages, and reruns exactly the failures', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, framework: 'go', reason: 'go.mod found: `go test ./...`', project_root: dir,
      exit_status: 1, signal: null, timed_out: false, warnings: [], error: null, next: 'run-tests --failed-only',
    });
    // go's own command is shown, not the launcher that writes its stream to the report.
    expect(report.command).toBe('go test -json -count=1 ./...');
    // Leaves only: TestTable and TestNested/outer are parents, not tests of their own.
    expect(report.summary).toEqual({ run: 13, passed: 7, failures: 5, errors: 0, skips: 1 });
    // go tests packages in parallel: the order across packages varies.
    expect(failures(report).sort()).toEqual([...MIXED_FAILURES].sort());
    expect(report.failed_tests.find((t) => t.test_name === 'TestTable/wrong_[neg]')).toMatchObject({ id: 'example.com/gomixed TestTable/wrong_[neg]', message: 'mixed_test.go:39: Add(-1, 1) = 0, want 1' });
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toContain('--- FAIL: TestTable/wrong_[neg]');
    // The log is go's own output (its JSON events); the report holds the same lines.
    expect(log).toContain('"Action":"fail","Package":"example.com/gomixed","Test":"TestTable/wrong_[neg]"');

    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect(rerun.exitCode).toBe(1);
    expect(rerun.report.rerun).toEqual({ selected: 5, not_run: [] });
    expect(rerun.report.summary).toEqual({ run: 5, passed: 0, failures: 5, errors: 0, skips: 0 });
    expect(failures(rerun.report).sort()).toEqual([...MIXED_FAILURES].sort());
    // One command per package, each selecting its leaves level by level.
    // In package order, names sorted: the same failures always give the same commands.
    expect(rerun.report.command).toBe("go test -json -count=1 -run '^TestFatalInHelper$|^TestNested$/^outer$/^inner_\\(bad\\)$|^TestSubtractsWrongly$|^TestTable$/^wrong_\\[neg\\]$' . ; "
      + "go test -json -count=1 -run '^TestHalf$' ./sub");
  });

  it('reruns a fixed bracket subtest alone and passes', async () => {
    const dir = await copyFixture('go-mixed');
    await run(['--cwd', dir]);
    // Keep only the bracket subtest's failure, then fix it: the rerun selects just that leaf.
    const failuresFile = path.join(dir, '.run-tests/last-failures.json');
    const saved = await fs.readJson(failuresFile);
    saved.failed_tests = saved.failed_tests.filter((t: { test_name: string }) => t.test_name === 'TestTable/wrong_[neg]');
    await fs.writeJson(failuresFile, saved);
    const source = path.join(dir, 'mixed_test.go');
    await fs.writeFile(source, (await fs.readFile(source, 'utf8')).replace('{"wrong [neg]", -1, 1}', '{"wrong [neg]", -1, 0}'));
    const { exitCode, report } = await run(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status, report.rerun, report.summary]).toEqual([
      0, 'passed', { selected: 1, not_run: [] }, { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 },
    ]);
  });

  it('filters by --name: a plain subtest path with brackets, or a /regex/', async () => {
    const dir = await copyFixture('go-mixed');
    const plain = await run(['--cwd', dir, '--name', 'TestTable/wrong_[neg]']);
    expect([plain.exitCode, plain.report.summary.run, failures(plain.report)]).toEqual([1, 1, [MIXED_FAILURES[2]]]);
    const regex = await run(['--cwd', dir, '--name', '/^Test(Adds|Double)$/']);
    expect([regex.exitCode, regex.report.status, regex.report.summary]).toEqual([0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }]);
    const none = await run(['--cwd', dir, '--name', 'NoSuchTest']);
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
  });

  it('runs the package of a file argument', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir, 'sub/calc_test.go']);
    expect([exitCode, report.summary]).toEqual([1, { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toBe('go test -json -count=1 ./sub');
    expect(failures(report)).toEqual([MIXED_FAILURES[4]]);
  });

  it('reports a package that does not compile as an error at the compiler position, counting the package that passed', async () => {
    const dir = await copyFixture('go-build-error');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status]).toEqual([1, 'failed', 2]);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['build failed: example.com/gobuilderror/broken', 'broken/broken_test.go', 9, 'error']]);
    expect(report.failed_tests[0]).toMatchObject({ id: 'example.com/gobuilderror/broken', message: 'broken/broken_test.go:9:2: undefined: nope' });
    // Fixed, the package reruns whole, and its tests settle the build failure.
    const testFile = path.join(dir, 'broken/broken_test.go');
    await fs.writeFile(testFile, (await fs.readFile(testFile, 'utf8')).replace('\tnope(t)\n', ''));
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.status, rerun.report.command]).toEqual([0, 'passed', 'go test -json -count=1 ./broken']);
    expect([rerun.report.summary.run, rerun.report.rerun]).toEqual([1, { selected: 1, not_run: [] }]);
  });

  it('says what to install when go is missing', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir], { PATH: '/nonexistent' });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toBe(`go not found on PATH (run from ${dir}); install Go (Debian: apt-get install golang-go)`);
  });

  it('reports a panic as an error at the test-file frame and warns that later tests never ran', async () => {
    const dir = await copyFixture('go-panic');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    // TestBefore and TestSaysPanic/child passed; TestSaysPanic only printed "panic: ".
    expect(report.summary).toEqual({ run: 3, passed: 2, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['TestPanics', 'panic_test.go', 19, 'error']]);
    expect(report.failed_tests[0]?.message).toMatch(/^panic: assignment to entry in nil map/);
    expect(report.warnings).toEqual(["example.com/gopanic: TestPanics panicked, which ends the test binary; the package's later tests did not run"]);
  });

  it('places failures go gives no file:line for at their test function: examples, t.Fail() without a message', async () => {
    const dir = await copyFixture('go-unplaced');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 7, passed: 2, failures: 5, errors: 0, skips: 0 });
    // go tests the two packages in parallel: their order varies.
    expect([...failures(report)].sort()).toEqual([
      ['ExampleAdd', 'unplaced_test.go', 15, 'failed'],
      ['Example_wrong', 'sub/sub_test.go', 10, 'failed'],
      ['TestFailsSilently', 'unplaced_test.go', 11, 'failed'],
      ['TestTable/loud', 'unplaced_test.go', 22, 'failed'], // go's own file:line, as before
      ['TestTable/silent', 'unplaced_test.go', 20, 'failed'], // its parent's function
    ]);
    expect(report.failed_tests.find((t) => t.test_name === 'ExampleAdd')?.message).toBe('got:\n3\nwant:\n4');
    expect(report.warnings).toEqual([]);
  });

});
