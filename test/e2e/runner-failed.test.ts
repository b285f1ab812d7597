import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, hasTools, runCli, runJson } from './helpers.js';

/** A runner that fails before any test runs is `error` RUNNER_FAILED, in its own words. */

const UNKNOWN = { run: null, passed: null, failures: null, errors: null, skips: null };

interface Case {
  readonly label: string;
  readonly fixture: string;
  readonly tools: readonly string[];
  /** Where to run, inside the copy, and the files to give. */
  readonly args: (dir: string) => string[];
  /** The project root, inside the copy. */
  readonly root?: string;
  /** The runner's own first error line, as the log has it. */
  readonly line: RegExp;
  readonly exitStatus: number;
  /** A change to the copied fixture before the run. */
  readonly prepare?: (dir: string) => Promise<void>;
}

const CASES: readonly Case[] = [
  { label: 'bundler cannot resolve the Gemfile', fixture: 'minitest-gem-missing', tools: ['ruby', 'bundle', 'rake'], args: (d) => ['--cwd', d], line: /^.*Could not find .*run_tests_absent_gem.* \(Bundler::GemNotFound\)$/m, exitStatus: 1 },
  {
    label: 'bundler cannot resolve a Rails app\'s Gemfile (config/boot.rb requires it)', fixture: 'rails-app', tools: ['ruby', 'bundle'], args: (d) => ['--cwd', d],
    line: /^.*Could not find gem 'run_tests_absent_gem.* \(Bundler::GemNotFound\)$/m, exitStatus: 1,
    prepare: (dir) => fs.appendFile(path.join(dir, 'Gemfile'), 'gem "run_tests_absent_gem", "1.0.0"\n'),
  },
  { label: 'rake has no test task', fixture: 'minitest-no-test-task', tools: ['ruby', 'rake'], args: (d) => ['--cwd', d], line: /^Don't know how to build task 'test'.*$/m, exitStatus: 1 },
  { label: 'cargo cannot resolve a dependency offline', fixture: 'cargo-dep-offline', tools: ['cargo'], args: (d) => ['--cwd', d], line: /^error: no matching package named `run-tests-absent-crate` found$/m, exitStatus: 101 },
  { label: 'go cannot download a nested module\'s dependency', fixture: 'go-nested-dep', tools: ['go'], args: (d) => ['--cwd', d, 'inner/inner_test.go'], root: 'inner', line: /^go: example\.com\/runtestsabsent@v1\.0\.0: .*$/m, exitStatus: 1 },
];

const runnable = CASES.filter((c) => hasTools(...c.tools));
const suite = runnable.length > 0 ? describe.each(runnable) : describe.skip.each(CASES);

suite('when $label', (c) => {
  it('is error RUNNER_FAILED (exit 3) quoting the runner, with unknown counts and no failures file', async () => {
    const dir = await copyFixture(c.fixture);
    await c.prepare?.(dir);
    const root = path.join(dir, c.root ?? '');
    const { exitCode, report } = await runJson(c.args(dir));
    const log = await fs.readFile(path.join(root, '.run-tests/last-test.log'), 'utf8');
    const line = c.line.exec(log)?.[0];
    expect(line).toBeDefined();
    expect([exitCode, report.status, report.exit_code, report.exit_status, report.error?.code]).toEqual([3, 'error', 3, c.exitStatus, 'RUNNER_FAILED']);
    expect(report.error?.message).toMatch(new RegExp(`^the runner exited ${c.exitStatus} before running any test; its first error lines \\(${report.artifact}\\):\\n`));
    expect(report.error?.message).toContain(`\n  ${line}`);
    expect([report.summary, report.failed_tests, report.failures_file, report.next]).toEqual([UNKNOWN, [], null, null]);
    // No "report ended early" or "no usable report" beside the runner's own words.
    expect(report.warnings.filter((w) => /ended early|no usable report/.test(w))).toEqual([]);
    expect(fs.existsSync(path.join(root, '.run-tests/last-failures.json'))).toBe(false);

    const terminal = await runCli(c.args(dir));
    expect(terminal.exitCode).toBe(3);
    expect(terminal.stdout + terminal.stderr).toContain(`  ${line}`);
    expect(terminal.stdout).toContain('ERROR  ? passed, ? failed, ? errors, ? skipped');
  });
});

const rakeSuite = hasTools('ruby', 'rake') ? describe : describe.skip;

rakeSuite('--failed-only after a run that failed before its tests', () => {
  const taskless = (dir: string) => fs.readFile(path.join(dir, 'Rakefile'), 'utf8');
  const withTestTask = (rakefile: string) => `require "rake/testtask"\n\nRake::TestTask.new(:test) { |t| t.pattern = "tests/**/*_test.rb" }\n\n${rakefile}`;
  const lastFailures = async (dir: string) => fs.readJson(path.join(dir, '.run-tests/last-failures.json')) as Promise<{ version: number; failed_tests: unknown[]; last_run: { status: string } }>;
  const rerun = async (dir: string): Promise<[number | null, RunReport]> => {
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    return [exitCode, report];
  };

  it('answers "nothing to rerun" only after a run that passed, and keeps the failures through one that did not', async () => {
    const dir = await copyFixture('minitest-no-test-task');
    const rakefile = await taskless(dir);
    await fs.writeFile(path.join(dir, 'Rakefile'), withTestTask(rakefile));
    const passed = await runJson(['--cwd', dir]);
    expect([passed.exitCode, passed.report.status, passed.report.failures_file]).toEqual([0, 'passed', path.join(dir, '.run-tests/last-failures.json')]);
    const [nothingCode, nothing] = await rerun(dir);
    expect([nothingCode, nothing.status]).toEqual([0, 'nothing_to_rerun']);

    await fs.writeFile(path.join(dir, 'Rakefile'), rakefile);
    const failed = await runJson(['--cwd', dir]);
    expect([failed.exitCode, failed.report.error?.code, failed.report.failures_file]).toEqual([3, 'RUNNER_FAILED', null]);
    expect(await lastFailures(dir)).toMatchObject({ version: 2, failed_tests: [], last_run: { status: 'error' } });
    const [exitCode, report] = await rerun(dir);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'FAILURES_MISSING']);
    expect(report.error?.message).toBe('the last run ended as error, without results that tell what failed: run the tests without --failed-only');

    // A failure recorded before the runner failed stays, and is what --failed-only reruns.
    await fs.writeFile(path.join(dir, 'Rakefile'), withTestTask(rakefile));
    await fs.writeFile(path.join(dir, 'tests/calc_test.rb'), (await fs.readFile(path.join(dir, 'tests/calc_test.rb'), 'utf8')).replace('assert_equal 3', 'assert_equal 4'));
    expect((await runJson(['--cwd', dir])).report.status).toBe('failed');
    await fs.writeFile(path.join(dir, 'Rakefile'), rakefile);
    expect((await runJson(['--cwd', dir])).report.error?.code).toBe('RUNNER_FAILED');
    expect(await lastFailures(dir)).toMatchObject({ failed_tests: [{ id: 'CalcTest#test_adds' }], last_run: { status: 'error' } });
    await fs.writeFile(path.join(dir, 'Rakefile'), withTestTask(rakefile));
    const [again, rerunReport] = await rerun(dir);
    expect([again, rerunReport.status, rerunReport.rerun]).toEqual([1, 'failed', { selected: 1, not_run: [] }]);
  });
});
