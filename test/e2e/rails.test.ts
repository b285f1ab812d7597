import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, once, readEvents, runFile, runJson } from './helpers.js';

const suite = hasTools('ruby', 'bundle') ? describe : describe.skip;

/** One plain run of a rails-app copy, with what it left in the copy: one test reads
 * them, another reruns its failures in its directory. */
const appRun = once(async () => {
  const dir = await copyFixture('rails-app');
  const run = await runJson(['--cwd', dir]);
  return { dir, ...run, pids: await fs.readdir(path.join(dir, 'tmp/test-pids')), events: readEvents(runFile(dir, 'minitest.jsonl', run.report.run_id)) };
});

suite('rails through bin/rails test', () => {
  it('collects the results of every parallel worker', async () => {
    const { exitCode, report, pids, events } = await appRun();
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({ status: 'failed', framework: 'rails', command: 'bin/rails test', exit_status: 1, warnings: [] });
    expect(report.summary).toEqual({ run: 10, passed: 7, failures: 1, errors: 1, skips: 1 });
    expect(failures(report).sort()).toEqual([
      ['CalculatorTest#test_adds_wrongly', 'test/models/calculator_test.rb', 13, 'failed'],
      ['CalculatorTest#test_divides_by_zero', 'test/models/calculator_test.rb', 17, 'error'],
    ]);
    expect(report.failed_tests.find((t) => t.status === 'error')?.message).toBe('ZeroDivisionError: cannot divide 1 by zero');
    // Both workers ran tests: the fixture leaves one file per test process, and each
    // worker's first test waits for the other's, so one worker cannot take them all.
    expect(pids).toHaveLength(2);
    // The workers' results reach the reporter in the parent: one run_start and run_end, valid events.
    expect(['run_start', 'test_end', 'run_end'].map((name) => events.filter((e) => e['event'] === name).length)).toEqual([1, 10, 1]);
    expect(events.at(-1)?.['totals']).toEqual({ tests: 10, failed: 1, errors: 1, skipped: 1 });
  });

  it('reruns the failures by exact name with -n, including brackets and parentheses', async () => {
    const { dir } = await appRun();
    const model = path.join(dir, 'app/models/calculator.rb');
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect(rerun.report.summary).toEqual({ run: 2, passed: 0, failures: 1, errors: 1, skips: 0 });
    expect(rerun.report.command).toMatch(/^bin\/rails test test\/models\/calculator_test\.rb -n /);
    expect(rerun.report.rerun).toEqual({ selected: 2, not_run: [] });
    expect(fs.existsSync(model)).toBe(true);
    const named = await runJson(['--cwd', dir, '--name', 'divides [integers] (rounding']);
    expect([named.exitCode, named.report.summary.run, named.report.summary.passed]).toEqual([0, 1, 1]);
  });

  it('never passes a bin/rails that prints success but writes no results, and keeps the old failures', async () => {
    const dir = await copyFixture('rails-fake');
    const previous = { version: 1, created_at: '2026-01-01T00:00:00.000Z', framework: 'rails', project_root: dir, failed_tests: [] };
    await fs.outputJson(path.join(dir, '.run-tests/last-failures.json'), previous);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status, report.error?.code]).toEqual([3, 'error', 0, 'REPORT_MISSING']);
    expect(report.summary).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
    expect(report.warnings).toEqual([`the runner wrote no usable report (exit 0); see ${report.artifact}`]);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain('All good!');
    // The recorded failures stay; only how this run ended is added, so an empty list is
    // not taken for "nothing to rerun".
    expect(await fs.readJson(path.join(dir, '.run-tests/last-failures.json'))).toMatchObject({ version: 2, framework: 'rails', failed_tests: [], last_run: { status: 'error' } });
    expect(report.failures_file).toBeNull();
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.status, rerun.report.error?.code]).toEqual([3, 'error', 'FAILURES_MISSING']);
  });
});
