/** `run-tests [files] -- <runner args>`: the words after `--` reach the runner's own
 * command, with the injected reporter and the truth rules unchanged; what would replace
 * the reporter or report tests that did not run is exit 2. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, REPO, runCli, validateReport } from './helpers.js';

/** --json before `--`: after it, runJson's trailing --json would be the runner's. */
async function runPassing(args: readonly string[], runnerArgs: readonly string[]): Promise<{ exitCode: number | null; report: RunReport }> {
  const result = await runCli([...args, '--json', '--', ...runnerArgs]);
  const report = JSON.parse(result.stdout) as RunReport;
  if (!validateReport(report)) throw new Error(`report does not match the schema: ${JSON.stringify(validateReport.errors)}`);
  return { exitCode: result.exitCode, report };
}

const pytestSuite = hasTools('python3') ? describe : describe.skip;

pytestSuite('pytest', () => {
  it('-x stops at the first failure: one failure of the four tests that ran, and the run failed', async () => {
    const dir = await copyFixture('pytest-mixed');
    const whole = await runPassing(['--cwd', dir], []);
    expect(whole.report.summary).toEqual({ run: 16, passed: 7, failures: 4, errors: 3, skips: 2 });
    const { exitCode, report } = await runPassing(['--cwd', dir], ['-x']);
    expect([exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 4, passed: 3, failures: 1, errors: 0, skips: 0 }]);
    expect(failures(report)).toEqual([['tests/test_widget.py::test_size_is_wrong', 'tests/test_widget.py', 12, 'failed']]);
    expect(report.command).toBe('python3 -m pytest -x');
  });

  it('a -k that selects nothing is no_tests, never a pass', async () => {
    const dir = await copyFixture('pytest-mixed');
    const { exitCode, report } = await runPassing(['--cwd', dir, 'tests/test_widget.py'], ['-k', 'no_such_test']);
    expect([exitCode, report.status, report.summary.run]).toEqual([4, 'no_tests', 0]);
    expect(report.command).toBe('python3 -m pytest tests/test_widget.py -k no_such_test');
  });

  it('a --failed-only rerun whose -k leaves its tests out reports them not run, never a pass', async () => {
    const dir = await copyFixture('pytest-mixed');
    await runPassing(['--cwd', dir, 'tests/test_widget.py'], []);
    const { exitCode, report } = await runPassing(['--cwd', dir, '--failed-only'], ['-k', 'no_such_test']);
    expect([exitCode, report.status, report.summary.run, report.rerun?.selected, report.rerun?.not_run.length]).toEqual([4, 'no_tests', 0, 7, 7]);
  });

  it('refuses -p no:run_tests_pytest and --collect-only with exit 2, naming the argument, before anything runs', async () => {
    const dir = await copyFixture('pytest-mixed');
    expect(await runCli(['--cwd', dir, '--', '-x', '-p', 'no:run_tests_pytest'])).toEqual({
      exitCode: 2, stdout: '', stderr: 'run-tests: "-p no:run_tests_pytest" cannot be passed to pytest: it turns off run_tests_pytest, the plugin run-tests reads the results from\n',
    });
    expect(await runCli(['--cwd', dir, '--', '--co'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: "--co" cannot be passed to pytest: it collects the tests and runs none\n' });
    expect(fs.existsSync(path.join(dir, '.run-tests/runs'))).toBe(false);
  });
});

/** Two files, each with a passing and a failing test: whichever jest runs first, --bail
 * stops it after that file. */
async function bailProject(): Promise<string> {
  const dir = await copyFixture('jest-mixed');
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  await fs.remove(path.join(dir, 'test'));
  for (const name of ['one', 'two']) {
    await fs.outputFile(path.join(dir, `test/${name}.test.js`), `test('${name} passes', () => {});\ntest('${name} fails', () => { expect(1).toBe(2); });\n`);
  }
  return dir;
}

describe('jest', () => {
  it('--bail stops after the first failing file: two of the four tests ran, and the run failed', async () => {
    const dir = await bailProject();
    const whole = await runPassing(['--cwd', dir], ['--runInBand']);
    expect([whole.exitCode, whole.report.summary]).toEqual([1, { run: 4, passed: 2, failures: 2, errors: 0, skips: 0 }]);
    const { exitCode, report } = await runPassing(['--cwd', dir], ['--bail', '--runInBand']);
    expect([exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.failed_tests.map((t) => t.test_name)).toEqual([expect.stringMatching(/^(?:one|two) fails$/)]);
    expect(report.command).toBe('npx jest --bail --runInBand');
  });

  it('--failed-only keeps its exact selection with arguments passed through', async () => {
    const dir = await bailProject();
    await runPassing(['--cwd', dir], []);
    const { exitCode, report } = await runPassing(['--cwd', dir, '--failed-only'], ['--runInBand']);
    expect([exitCode, report.status, report.rerun, report.summary.run]).toEqual([1, 'failed', { selected: 2, not_run: [] }, 2]);
    expect(failures(report).map((f) => f[0]).sort()).toEqual(['one fails', 'two fails']);
  });

  it('refuses --reporters, in either form, with exit 2 naming it', async () => {
    const dir = await bailProject();
    for (const args of [['--reporters=default'], ['--bail', '--reporters', 'default']]) {
      expect(await runCli(['--cwd', dir, '--', ...args])).toEqual({
        exitCode: 2, stdout: '', stderr: `run-tests: "${args.at(-2) === '--reporters' ? '--reporters' : '--reporters=default'}" cannot be passed to jest: it replaces the reporter run-tests reads the results from\n`,
      });
    }
  });
});

describe('where arguments cannot be passed', () => {
  it('a subcommand and a --command take none; a runner that takes none says so', async () => {
    const dir = await copyFixture('node-test-files');
    expect(await runCli(['detect', '--cwd', dir, '--', '-x'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: run-tests detect takes no arguments after --; they are for the runner of a run\n' });
    expect(await runCli(['--cwd', dir, '--command', 'node --test', '--report', 'tap:-', '--', '-x'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: --command takes no arguments after --: give them in the command\n' });
    const minitest = await copyFixture('minitest-plain');
    expect(await runCli(['--cwd', minitest, '--', '-v'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: minitest takes no arguments after --: run-tests cannot pass them on to it\n' });
  });

  it('node --test: --test-reporter is refused, other node options reach node', async () => {
    const dir = await copyFixture('node-test-files');
    expect((await runCli(['--cwd', dir, '--', '--test-reporter=spec'])).stderr).toBe('run-tests: "--test-reporter=spec" cannot be passed to node --test: it replaces the reporters run-tests gives node (its own reads the results)\n');
    const { report } = await runPassing(['--cwd', dir], ['--test-concurrency=1']);
    expect(report.command).toContain(' --test-concurrency=1');
    expect(report.summary.run).toBeGreaterThan(0);
  });
});

describe('each runner places them where it reads them', () => {
  const goSuite = hasTools('go') ? it : it.skip;
  goSuite('go: -failfast before -run and the package stops the file\'s tests at the first failure; -c is refused', async () => {
    const dir = await copyFixture('go-mixed');
    const env = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
    const result = await runCli(['--cwd', dir, 'mixed_test.go', '--json', '--', '-failfast'], { env });
    const report = JSON.parse(result.stdout) as RunReport;
    expect([result.exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toMatch(/^go test -failfast -run '\^TestAdds\$\|.*' \.$/);
    expect((await runCli(['--cwd', dir, '--', '-c'], { env })).stderr).toBe('run-tests: "-c" cannot be passed to go test: it compiles the test binary and runs no test\n');
  });

  const rubySuite = hasTools('ruby', 'bundle', 'rspec') ? it : it.skip;
  rubySuite('rspec: --fail-fast after the files; --dry-run (every example "passed", none run) is refused', async () => {
    const dir = await copyFixture('rspec-mixed');
    const { exitCode, report } = await runPassing(['--cwd', dir, 'spec/mixed_spec.rb'], ['--fail-fast']);
    expect([exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toMatch(/ spec\/mixed_spec\.rb --fail-fast$/);
    expect((await runCli(['--cwd', dir, '--', '--dry-run'])).stderr).toBe('run-tests: "--dry-run" cannot be passed to rspec: rspec then reports every example as passed without running it\n');
  });

  const cargoSuite = hasTools('cargo') ? it : it.skip;
  cargoSuite('cargo: after a second --, to the test binaries after the JSON options; their --format is refused', async () => {
    const dir = await copyFixture('cargo-mixed');
    const env = { CARGO_TARGET_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-target-')), RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };
    const result = await runCli(['--cwd', dir, 'tests/api.rs', '--json', '--', '--', '--test-threads=1'], { env });
    const report = JSON.parse(result.stdout) as RunReport;
    expect([result.exitCode, report.summary]).toEqual([1, { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toBe('cargo test --offline --no-fail-fast --test api -- --test-threads=1');
    expect((await runCli(['--cwd', dir, '--', '--', '--format=pretty'], { env })).stderr).toBe('run-tests: "--format=pretty" cannot be passed to cargo\'s test binaries: run-tests reads libtest\'s JSON events (--format json)\n');
  }, 240_000);
});
