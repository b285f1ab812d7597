/** What people expect of a command line: the runner's own output on --stream, the other
 * tools' names for a rerun of failures, -v, `help`, a --name that matched nothing said as
 * such, and the projects a monorepo root's run left out. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, hasTools, REPO, runCli, runJson } from './helpers.js';

const version = (fs.readJsonSync(path.join(REPO, 'package.json')) as { version: string }).version;
const goEnv = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOCACHE: path.join(os.tmpdir(), 'run-tests-conventions-gocache') };
const cargoEnv = { CARGO_TARGET_DIR: path.join(os.tmpdir(), 'run-tests-conventions-target'), RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };

describe('--stream shows the runner\'s human output, not the JSON run-tests reads', () => {
  (hasTools('go') ? it : it.skip)('go: what go test prints, from the events\' Output', async () => {
    const dir = await copyFixture('go-mixed');
    const { exitCode, stdout, stderr } = await runCli(['--cwd', dir, '--stream', '--no-cache'], { env: goEnv });
    expect(exitCode).toBe(1);
    for (const line of ['=== RUN   TestHalf', '    calc_test.go:13: Half(8) = 2, want 4', '--- FAIL: TestHalf (0.00s)', '--- FAIL: TestSubtractsWrongly (0.00s)', 'FAIL\texample.com/gomixed/sub\t']) {
      expect(stderr).toContain(line);
    }
    expect(stderr).not.toContain('{"');
    // The report is read from the JSON as ever.
    expect(stdout).toContain('FAILED  7 passed, 5 failed, 0 errors, 1 skipped');
  }, 120_000);

  (hasTools('cargo') ? it : it.skip)('cargo: libtest\'s lines, the failures with their output, and cargo\'s own', async () => {
    const dir = await copyFixture('cargo-mixed');
    const { exitCode, stdout, stderr } = await runCli(['--cwd', dir, '--stream'], { env: cargoEnv });
    expect(exitCode).toBe(1);
    for (const line of ['running 5 tests', 'test tests::adds_two_numbers ... ok', 'test tests::adds_wrongly ... FAILED', 'test tests::ignored_slow_test ... ignored',
      '---- tests::adds_wrongly stdout ----', "thread 'tests::adds_wrongly'", 'failures:\n    tests::', 'test result: FAILED. 2 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out; finished in ',
      'test api_doubles_wrongly ... FAILED', 'Running unittests src/lib.rs']) {
      expect(stderr).toContain(line);
    }
    expect(stderr).not.toMatch(/\{ ?"(?:type|reason)"/);
    expect(stdout).toContain('FAILED  4 passed, 4 failed, 0 errors, 1 skipped');
  }, 240_000);
});

describe('conventions of other tools', () => {
  it('--lf and --only-failures rerun the failures as --failed-only does', async () => {
    const dir = await copyFixture('node-test-mixed');
    await runJson(['--cwd', dir]);
    const reruns: unknown[][] = [];
    for (const flag of ['--failed-only', '--lf', '--only-failures']) {
      const { exitCode, report } = await runJson(['--cwd', dir, flag]);
      reruns.push([exitCode, report.rerun, report.failed_tests.map((t) => t.test_name).sort()]);
    }
    expect(reruns[0]).toEqual([1, { selected: 3, not_run: [] }, ['math > adds wrongly', 'math > explodes', 'with subtests > second fails']]);
    expect(reruns.slice(1)).toEqual([reruns[0], reruns[0]]);
    const clash = await runCli(['--cwd', dir, '--lf', '--name', 'x']);
    expect([clash.exitCode, clash.stderr]).toEqual([2, 'run-tests: --failed-only reruns exact tests; it cannot be combined with --name\n']);
  });

  it('-v and -V print the version', async () => {
    for (const flag of ['-v', '-V', '--version']) expect(await runCli([flag])).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('help [command] prints the help of run-tests or of the command, as --help does', async () => {
    const main = await runCli(['--help']);
    expect(main.stdout).toMatch(/^Usage: run-tests \[options\] \[command\] \[files\.\.\. \| file:line \.\.\.\] \[-- <runner args>\]\n[\s\S]*--lf[\s\S]*Exit codes:/);
    expect(await runCli(['help'])).toEqual(main);
    expect(await runCli(['help', 'run'])).toEqual(main);
    expect(await runCli(['help', 'parse'])).toEqual(await runCli(['parse', '--help']));
    expect((await runCli(['help', 'parse'])).stdout).toMatch(/^Usage: run-tests parse \[options\] <file>\n/);
    expect(await runCli(['help', 'nope'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: help: there is no command "nope"; the commands are run, parse, merge, show, runs, history, plan, report, detect, mcp\n' });
  });

  it('a --name that matched nothing says so, rather than only that no tests ran', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--name', 'no such test']);
    expect([exitCode, report.status, report.summary.run, report.warnings]).toEqual([4, 'no_tests', 0, ['no test matched --name "no such test"']]);
    const human = await runCli(['--cwd', dir, '--name', 'no such test']);
    expect(human.exitCode).toBe(4);
    expect(human.stdout).toContain('\nwarning: no test matched --name "no such test"\n\nNO TESTS  0 passed, 0 failed, 0 errors, 0 skipped');
    expect(human.stdout).not.toContain('no tests ran');
  });
});

const ruby = hasTools('ruby', 'bundle', 'rake', 'rspec') ? describe : describe.skip;

ruby('a monorepo root names the projects its run left out, and how to run them', () => {
  it('at a root with no project of its own: with the no-runner error; the command given runs them', async () => {
    const root = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-monorepo-root-')));
    await copyFixture('minitest-mixed', path.join(root, 'packages/widgets'));
    await copyFixture('minitest-plain', path.join(root, 'services/calc'));
    await copyFixture('rspec-mixed', path.join(root, 'services/shop'));
    await copyFixture('rspec-mixed', path.join(root, 'node_modules/some-gem'));
    const { exitCode, report } = await runJson(['--cwd', root]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'NO_RUNNER']);
    expect(report.warnings).toEqual(['not run: 3 projects of their own below this directory, which has no runner: packages/widgets (minitest), services/calc (minitest), services/shop (rspec); run them with `run-tests packages/widgets services/calc services/shop`']);
    const human = await runCli(['--cwd', root]);
    expect(human.stdout).toContain(`\nwarning: ${report.warnings[0] ?? ''}\n`);
    const given = /`run-tests (.*)`$/.exec(report.warnings[0] ?? '')?.[1]?.split(' ') ?? [];
    const all = await runJson(['--cwd', root, ...given]);
    expect([all.report.framework, all.report.projects.map((p) => path.relative(root, p.project_root))]).toEqual(['minitest+rspec', ['packages/widgets', 'services/calc', 'services/shop']]);
    expect(all.report.warnings.filter((w) => w.includes('not run:'))).toEqual([]);
  }, 120_000);

  (hasTools('go') ? it : it.skip)('at a project with another runner\'s project below it: the run of the root, and a warning', async () => {
    const root = await copyFixture('go-mixed');
    await copyFixture('minitest-plain', path.join(root, 'tools/calc'));
    const { exitCode, report } = await runJson(['--cwd', root], { env: goEnv });
    expect([exitCode, report.framework, report.summary.run]).toEqual([1, 'go', 13]);
    expect(report.warnings).toContain("not run: a project of its own below this directory, not go's: tools/calc (minitest); run it with `run-tests tools/calc`");
  }, 120_000);
});
