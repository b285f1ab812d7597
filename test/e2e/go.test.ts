import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, junitTests, processGone, runCli, runJson, runFile, waitFor } from './helpers.js';

/** The toolchains every go test runs under: Debian's golang-go (1.19, `go` on PATH) and
 * golang-1.23-go. Go 1.20 changed how test2json reads a test binary's output, and 1.21
 * how build failures reach the stream. */
const GO_123_BIN = '/usr/lib/go-1.23/bin';
const hasGo123 = (): boolean => {
  if (fs.existsSync(path.join(GO_123_BIN, 'go'))) return true;
  if (process.env['CI']) throw new Error(`toolchain missing in CI: ${GO_123_BIN}/go (run scripts/setup-toolchains.sh)`);
  console.warn(`skipping go 1.23: ${GO_123_BIN}/go not installed (run scripts/setup-toolchains.sh)`);
  return false;
};
const hasGo = hasTools('go');
const TOOLCHAINS = [
  { version: 'go1.19', path: process.env['PATH'] ?? '', present: hasGo },
  { version: 'go1.23', path: `${GO_123_BIN}:${process.env['PATH'] ?? ''}`, present: hasGo && hasGo123() },
];

/** go's own build cache, shared by the whole suite (each toolchain keys its entries by its
 * version, and a fixture copy's packages by their directory, so no copy replays another's
 * results), no network, no toolchain switching, no caller GOFLAGS. */
const goEnv: NodeJS.ProcessEnv = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
let toolchainEnv: NodeJS.ProcessEnv = {};
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runJson(args, { env: { ...goEnv, ...toolchainEnv, ...env } });

const MIXED_FAILURES = [
  ['TestSubtractsWrongly', 'mixed_test.go', 11, 'failed'],
  ['TestFatalInHelper', 'mixed_test.go', 16, 'failed'], // t.Helper(): the test's line, not the helper's
  ['TestTable/wrong_[neg]', 'mixed_test.go', 39, 'failed'],
  ['TestNested/outer/inner_(bad)', 'mixed_test.go', 49, 'failed'],
  ['TestHalf', 'sub/calc_test.go', 13, 'failed'],
];

describe.each(TOOLCHAINS)('go test -json, $version', ({ version, path: PATH, present }) => {
  if (!present) return void it.skip(`needs ${version}`, () => undefined);
  // What run-tests asks of go, not how go reports it, is tested under one toolchain: the
  // others do not declare these tests at all, so the suite reports no skipped test.
  const once = (name: string, test: () => Promise<void>): void => {
    if (version === 'go1.19') it(name, test);
  };
  beforeAll(async () => {
    toolchainEnv = { PATH };
    const env = { ...process.env, ...goEnv, ...toolchainEnv };
    expect(spawnSync('go', ['version'], { env, encoding: 'utf8' }).stdout).toContain(`go version ${version}`);
    // Compile the standard library once, so the timeout test measures the test, not the build.
    const warm = await copyFixture('go-hang');
    const built = spawnSync('go', ['test', '-count=1', '-run', '^$', './...'], { cwd: warm, env, encoding: 'utf8' });
    expect(built.status).toBe(0);
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
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toMatch(/run-tests: timed out after 3s/);
  });

  it('reports exact counts, leaf names, files and lines of both packages, and reruns exactly the failures', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, framework: 'go', reason: 'go.mod found: `go test ./...`', project_root: dir,
      exit_status: 1, signal: null, timed_out: false, warnings: [], error: null, next: `run-tests --cwd ${dir} --failed-only`,
    });
    // go's own command is shown, not the launcher that writes its stream to the report.
    expect(report.command).toBe('go test ./...');
    // Leaves only: TestTable and TestNested/outer are parents, not tests of their own.
    expect(report.summary).toEqual({ run: 13, passed: 7, failures: 5, errors: 0, skips: 1 });
    // go tests packages in parallel: the order across packages varies.
    expect(failures(report).sort()).toEqual([...MIXED_FAILURES].sort());
    expect(report.failed_tests.find((t) => t.test_name === 'TestTable/wrong_[neg]')).toMatchObject({ id: 'example.com/gomixed TestTable/wrong_[neg]', message: 'mixed_test.go:39: Add(-1, 1) = 0, want 1' });
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toContain('--- FAIL: TestTable/wrong_[neg]');
    // The log is go's own output (its JSON events), and the report run-tests reads: kept once.
    expect(log).toContain('"Action":"fail","Package":"example.com/gomixed","Test":"TestTable/wrong_[neg]"');
    expect((await fs.readdir(path.join(dir, '.run-tests'))).sort()).toEqual(['.gitignore', 'history', 'last-failures.json', 'last-report.json', 'last-test.log', 'runs']);
    expect((await fs.readdir(path.dirname(runFile(dir, 'test.log')))).sort()).toEqual(['report.json', 'run.json', 'test.log']);

    // --max-log does not cut the log that is go's report.
    const rerun = await run(['--cwd', dir, '--failed-only', '--max-log', '1K']);
    expect((await fs.stat(path.join(dir, '.run-tests/last-test.log'))).size).toBeGreaterThan(4096);
    expect(rerun.exitCode).toBe(1);
    expect(rerun.report.rerun).toEqual({ selected: 5, not_run: [] });
    expect(rerun.report.summary).toEqual({ run: 5, passed: 0, failures: 5, errors: 0, skips: 0 });
    expect(failures(rerun.report).sort()).toEqual([...MIXED_FAILURES].sort());
    // One command per package, each selecting its leaves level by level.
    // In package order, names sorted: the same failures always give the same commands.
    expect(rerun.report.command).toBe("go test -run '^TestFatalInHelper$|^TestNested$/^outer$/^inner_\\(bad\\)$|^TestSubtractsWrongly$|^TestTable$/^wrong_\\[neg\\]$' . ; "
      + "go test -run '^TestHalf$' ./sub");
  });

  once('reruns a fixed bracket subtest alone and passes', async () => {
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

  once('filters by --name: a plain subtest path with brackets, or a /regex/', async () => {
    const dir = await copyFixture('go-mixed');
    const plain = await run(['--cwd', dir, '--name', 'TestTable/wrong_[neg]']);
    expect([plain.exitCode, plain.report.summary.run, failures(plain.report)]).toEqual([1, 1, [MIXED_FAILURES[2]]]);
    const regex = await run(['--cwd', dir, '--name', '/^Test(Adds|Double)$/']);
    expect([regex.exitCode, regex.report.status, regex.report.summary]).toEqual([0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }]);
    const none = await run(['--cwd', dir, '--name', 'NoSuchTest']);
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
  });

  once('runs the tests a file argument declares', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir, 'sub/calc_test.go']);
    expect([exitCode, report.summary]).toEqual([1, { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toBe("go test -run '^TestDouble$|^TestHalf$' ./sub");
    expect(failures(report)).toEqual([MIXED_FAILURES[4]]);
  });

  it('reports a package that does not compile as an error at the compiler position, counting the package that passed', async () => {
    const dir = await copyFixture('go-build-error');
    const { exitCode, report } = await run(['--cwd', dir]);
    // Go 1.19's go command exits 2 when a package does not build, Go 1.23's 1.
    expect([exitCode, report.status, report.exit_status]).toEqual([1, 'failed', version === 'go1.19' ? 2 : 1]);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['build failed: example.com/gobuilderror/broken', 'broken/broken_test.go', 9, 'error']]);
    expect(report.failed_tests[0]).toMatchObject({ id: 'example.com/gobuilderror/broken', message: 'broken/broken_test.go:9:2: undefined: nope' });
    // Fixed, the package reruns whole, and its tests settle the build failure.
    const testFile = path.join(dir, 'broken/broken_test.go');
    await fs.writeFile(testFile, (await fs.readFile(testFile, 'utf8')).replace('\tnope(t)\n', ''));
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.status, rerun.report.command]).toEqual([0, 'passed', 'go test ./broken']);
    expect([rerun.report.summary.run, rerun.report.rerun]).toEqual([1, { selected: 1, not_run: [] }]);
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

  it("reports a package TestMain failed after its tests passed as an error, live, parsed and in --junit", async () => {
    const dir = await copyFixture('go-testmain');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status, report.warnings]).toEqual([1, 'failed', 1, []]);
    expect(report.summary).toEqual({ run: 3, passed: 2, failures: 0, errors: 1, skips: 0 });
    const packageFailure = ['package failed: example.com/gotestmain', null, null, 'error'];
    expect(failures(report)).toEqual([packageFailure]);
    // Why go failed the package first, then the last 15 of the 21 lines TestMain printed.
    const migrations = Array.from({ length: 14 }, (_, i) => `setup: migration ${String(i + 7).padStart(2, '0')} applied`);
    const entry = {
      id: 'example.com/gotestmain',
      test_name: 'package failed: example.com/gotestmain',
      status: 'error',
      message: [
        "go failed example.com/gotestmain after its tests passed (its TestMain's exit code, say); the last 15 of its 21 lines of output outside its tests:",
        ...migrations, 'teardown failed: db still open',
      ].join('\n'),
    };
    expect(report.failed_tests[0]).toMatchObject(entry);
    // The stream of `go test -json` run by hand, read by `parse`: the same entry, saying why.
    const stream = spawnSync('go', ['test', '-json', '-count=1', './...'], { cwd: dir, env: { ...process.env, ...goEnv, ...toolchainEnv }, encoding: 'utf8' });
    expect(stream.status).toBe(1);
    const file = path.join(dir, 'go-test.jsonl');
    await fs.writeFile(file, stream.stdout + stream.stderr);
    const fromFile = await run(['parse', file, '--cwd', dir]);
    expect([fromFile.exitCode, fromFile.report.status, fromFile.report.source, fromFile.report.summary, fromFile.report.warnings]).toEqual([
      1, 'failed', 'imported', { run: 3, passed: 2, failures: 0, errors: 1, skips: 0 }, [],
    ]);
    expect(fromFile.report.failed_tests).toEqual([{ ...report.failed_tests[0], rerun_argv: null }]);
    expect(fromFile.report.failed_tests[0]).toMatchObject(entry);
    // The same stream read by `parse` is no pass either, and neither is its JUnit file.
    const junit = path.join(dir, 'parsed.xml');
    const parsed = await run(['parse', path.join(dir, '.run-tests/last-test.log'), '--cwd', dir, '--junit', junit]);
    expect([parsed.exitCode, parsed.report.status, parsed.report.summary, failures(parsed.report)]).toEqual([
      1, 'failed', { run: 3, passed: 2, failures: 0, errors: 1, skips: 0 }, [packageFailure],
    ]);
    expect(await junitTests(junit)).toEqual([
      ['undefined', 'TestOne', 'passed'], ['undefined', 'TestTwo', 'passed'], ['undefined', 'package failed: example.com/gotestmain', 'error'],
    ].sort());
    // --failed-only reruns the package whole: TestMain fails it again.
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, failures(rerun.report)]).toEqual([
      1, 'go test .', { selected: 1, not_run: [] }, [packageFailure],
    ]);
  });

  it('does not count the tests of a nested run (testing.RunTests), whose failure go passed, live or parsed', async () => {
    const dir = await copyFixture('go-nested');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status, report.failed_tests]).toEqual([0, 'passed', 0, []]);
    // TestParallel paused while the others ran: counted, not taken for a nested run.
    expect(report.summary).toEqual({ run: 3, passed: 3, failures: 0, errors: 0, skips: 0 });
    const notes = [
      "example.com/gonested: TestRunsInnerTests ran TestInnerFails, TestInnerPasses in a nested run (testing.RunTests, testing.MainStart): not counted, TestRunsInnerTests's own result is go's verdict on them (1 of their results failed)",
    ];
    expect(report.warnings).toEqual(notes);
    const parsed = await run(['parse', path.join(dir, '.run-tests/last-test.log'), '--cwd', dir]);
    expect([parsed.exitCode, parsed.report.status, parsed.report.summary.run, parsed.report.warnings]).toEqual([0, 'passed', 3, notes]);
  });

  it('counts a passing test whose output lacks a trailing newline, warning where go gave it no outcome', async () => {
    const dir = await copyFixture('go-no-newline');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }]);
    // Go 1.20+ marks its own framing lines, so the `--- PASS` glued to the output is still read.
    expect(report.warnings).toEqual(version === 'go1.19'
      ? ["example.com/gonewline: go gave no outcome for TestNoNewline (before Go 1.20 it loses one when a test's output does not end in a newline); its package passed, so counted as passed"]
      : []);
  });

  it("replays packages from go's test cache, marks them cached, runs afresh with --no-cache, and reruns a failure", async () => {
    const dir = await copyFixture('go-packages');
    const packages = (report: { packages?: readonly { name: string; cached: boolean }[] }) =>
      [...(report.packages ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1)).map((p) => [p.name, p.cached]);
    const SUMMARY = { run: 9, passed: 8, failures: 1, errors: 0, skips: 0 };
    const BAD = [['TestBad', 'bad/bad_test.go', 6, 'failed']];
    const first = await run(['--cwd', dir]);
    expect([first.exitCode, first.report.command, first.report.summary, failures(first.report)]).toEqual([1, 'go test ./...', SUMMARY, BAD]);
    expect(packages(first.report)).toEqual([
      ['example.com/gopackages', false], ['example.com/gopackages/bad', false], ['example.com/gopackages/lib', false], ['example.com/gopackages/lib/deep', false],
    ]);
    expect(first.report.reason).toBe('go.mod found: `go test ./...`');
    // go caches passing packages only: bad runs again.
    const second = await run(['--cwd', dir]);
    expect([second.exitCode, second.report.summary, failures(second.report)]).toEqual([1, SUMMARY, BAD]);
    expect(packages(second.report)).toEqual([
      ['example.com/gopackages', true], ['example.com/gopackages/bad', false], ['example.com/gopackages/lib', true], ['example.com/gopackages/lib/deep', true],
    ]);
    expect(second.report.reason).toBe("go.mod found: `go test ./...`; 3 of 4 packages replayed from go's test cache (--no-cache runs them afresh)");
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain('ok  \\texample.com/gopackages/lib\\t(cached)');
    const fresh = await run(['--cwd', dir, '--no-cache']);
    expect([fresh.exitCode, fresh.report.command, fresh.report.summary, fresh.report.reason]).toEqual([1, 'go test -count=1 ./...', SUMMARY, 'go.mod found: `go test ./...`']);
    expect(packages(fresh.report).map(([, cached]) => cached)).toEqual([false, false, false, false]);
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, failures(rerun.report)]).toEqual([1, "go test -run '^TestBad$' ./bad", { selected: 1, not_run: [] }, BAD]);
    expect(rerun.report.summary).toEqual({ run: 1, passed: 0, failures: 1, errors: 0, skips: 0 });
  });

  once('narrows a _test.go file to the functions it declares, and runs every package below a directory', async () => {
    const dir = await copyFixture('go-packages');
    const file = await run(['--cwd', dir, 'lib/a_test.go']);
    expect([file.exitCode, file.report.status, file.report.command]).toEqual([0, 'passed', "go test -run '^ExampleAdd$|^TestAddA$|^TestAddAgain$' ./lib"]);
    expect(file.report.summary).toEqual({ run: 4, passed: 4, failures: 0, errors: 0, skips: 0 });
    // The external test package's file (package lib_test) narrows the same way.
    const external = await run(['--cwd', dir, 'lib/b_test.go', '--junit', path.join(dir, 'b.xml')]);
    expect([external.exitCode, external.report.command, external.report.summary.run]).toEqual([0, "go test -run '^TestB$' ./lib", 1]);
    expect(await junitTests(path.join(dir, 'b.xml'))).toEqual([['undefined', 'TestB', 'passed']]);
    const directory = await run(['--cwd', dir, 'lib']);
    expect([directory.exitCode, directory.report.command, directory.report.summary.run]).toEqual([0, 'go test ./lib/...', 6]);
    // ./lib ran whole just before, with the same flags: go replays it from its cache.
    const source = await run(['--cwd', dir, 'lib/lib.go']);
    expect([source.exitCode, source.report.command, source.report.summary.run, source.report.reason]).toEqual([
      0, 'go test ./lib', 5,
      "go.mod found: `go test ./...`; lib/lib.go is not a _test.go file: its package's tests run; 1 of 1 packages replayed from go's test cache (--no-cache runs them afresh)",
    ]);
    const helpers = await runCli(['--cwd', dir, 'lib/helpers_test.go', '--json'], { env: { ...goEnv, ...toolchainEnv } });
    expect([helpers.exitCode, helpers.stdout, helpers.stderr]).toEqual([2, '', 'run-tests: lib/helpers_test.go declares no Test, Fuzz or Example function: there is no test in it to run\n']);
  });
});

describe('go test -json, go missing', () => {
  if (!hasGo) return void it.skip('needs go', () => undefined);
  it('says what to install when go is missing', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, report } = await run(['--cwd', dir], { PATH: '/nonexistent' });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toBe(`go not found on PATH (run from ${dir}); install Go (Debian: apt-get install golang-go)`);
  });
});
