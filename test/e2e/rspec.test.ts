import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, processGone, readEvents, runFile, runJson, waitFor } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;

// In rspec's order: a group's own examples run before its nested groups.
const MIXED_FAILURES = [
  ['Calculator subtracts numbers', 'spec/mixed_spec.rb', 8, 'failed'],
  ['Calculator loads config via a helper', 'spec/mixed_spec.rb', 12, 'error'],
  ['Calculator doubles 2 (loop)', 'spec/mixed_spec.rb', 42, 'failed'],
  ['Calculator pending work is pending but passes', 'spec/mixed_spec.rb', 21, 'failed'],
  ['Second file raises a plain error', 'spec/second_spec.rb', 7, 'error'],
  ['Second file misses a mocked call', 'spec/second_spec.rb', 12, 'failed'],
];

suite('rspec through bundle exec rspec', () => {
  it('separates expectation failures from errors, counts pending as skips, and finds the failing line', async () => {
    const dir = await copyFixture('rspec-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({ status: 'failed', framework: 'rspec', exit_status: 1, warnings: [], next: `run-tests --cwd ${dir} --failed-only` });
    expect(report.summary).toEqual({ run: 13, passed: 4, failures: 4, errors: 2, skips: 3 });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    expect(report.failed_tests.map((t) => t.id)).toEqual([
      './spec/mixed_spec.rb[1:2]', './spec/mixed_spec.rb[1:3]', './spec/mixed_spec.rb[1:7]', './spec/mixed_spec.rb[1:4:2]',
      './spec/second_spec.rb[1:2]', './spec/second_spec.rb[1:3]',
    ]);
    expect(report.failed_tests[0]?.message).toBe('expected: 3\n     got: 2\n\n(compared using ==)');
    expect(report.failed_tests[1]?.message).toBe('ArgumentError: no config named missing');
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain('13 examples, 6 failures, 3 pending');
    // The stream the formatter wrote beside rspec's JSON: valid events with rspec's own totals.
    const events = readEvents(runFile(dir, 'rspec-events.jsonl'));
    const ended = events.filter((e) => e['event'] === 'test_end');
    expect(ended.filter((e) => e['status'] !== 'passed' && e['status'] !== 'skipped').map((e) => e['id'])).toEqual(report.failed_tests.map((t) => t.id));
    expect(events.at(-1)).toMatchObject({ event: 'run_end', totals: { tests: 13, failed: 6, errors: 0, skipped: 3 }, interrupted: false });
  });

  it('reruns exactly the failures by example id, even two examples defined on one line', async () => {
    const dir = await copyFixture('rspec-mixed');
    await runJson(['--cwd', dir]);
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(exitCode).toBe(1);
    expect(report.summary).toEqual({ run: 6, passed: 0, failures: 4, errors: 2, skips: 0 });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    expect(report.rerun).toEqual({ selected: 6, not_run: [] });
    // "doubles 1 (loop)" shares line 41 with the failing "doubles 2": ids keep it out.
    expect(report.command).toContain("'./spec/mixed_spec.rb[1:7]'");
  });

  it('filters by --name as a substring with brackets, or by /regex/', async () => {
    const dir = await copyFixture('rspec-mixed');
    const plain = await runJson(['--cwd', dir, '--name', 'handles [brackets] and (parens)']);
    expect([plain.exitCode, plain.report.status, plain.report.summary.run]).toEqual([0, 'passed', 1]);
    const regex = await runJson(['--cwd', dir, '--name', '/^Calculator (adds|doubles 1)/']);
    expect([regex.exitCode, regex.report.summary.passed, regex.report.summary.run]).toEqual([0, 2, 2]);
  });

  it('never passes a --name run whose runner dropped the filter (run_all_when_everything_filtered)', async () => {
    const dir = await copyFixture('rspec-run-all');
    const dropped = await runJson(['--cwd', dir, '--name', 'no such example']);
    expect([dropped.exitCode, dropped.report.status, dropped.report.summary.run, dropped.report.summary.passed]).toEqual([3, 'error', 2, 2]);
    expect(dropped.report.warnings).toEqual(['the runner ran 2 tests that do not match --name "no such example" (e.g. "Sum adds"): it may have dropped the filter']);
    const kept = await runJson(['--cwd', dir, '--name', 'adds nothing']);
    expect([kept.exitCode, kept.report.status, kept.report.summary.run, kept.report.warnings]).toEqual([0, 'passed', 1, []]);
  });

  it('turns a load error into an error entry with file and line, and reruns its file', async () => {
    const dir = await copyFixture('rspec-load-error');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['load error: spec/broken_spec.rb', 'spec/broken_spec.rb', 3, 'error']]);
    expect(report.failed_tests[0]?.message).toContain('NameError');
    const fixed = path.join(dir, 'spec/broken_spec.rb');
    await fs.writeFile(fixed, (await fs.readFile(fixed, 'utf8')).replace('UndefinedThing.new', ''));
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.status, rerun.report.summary.run, rerun.report.rerun]).toEqual([0, 'passed', 1, { selected: 1, not_run: [] }]);
    const next = await runJson(['--cwd', dir, '--failed-only']);
    expect([next.exitCode, next.report.status]).toEqual([0, 'nothing_to_rerun']);
  });

  it('kills the tree on timeout and keeps the examples that finished', async () => {
    const dir = await copyFixture('rspec-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect([exitCode, report.status, report.timed_out]).toEqual([124, 'timed_out', true]);
    // The example that hung is reported as not finished, the one before it as passed.
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['Hang hangs with a grandchild', 'spec/hang_spec.rb', 8, 'error']]);
    expect(report.running_at_timeout).toEqual([{ name: 'Hang hangs with a grandchild', file: 'spec/hang_spec.rb' }]);
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });
});
