import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, readEvents, runFile, runJson } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

const SAME_NAME = 'unhash#test_0001_unhashes';
const REASON = 'Gemfile found, without bin/rails or rspec in Gemfile.lock: minitest through `bundle exec rake spec`';

/** The definition lines of the tests in the run's events, in the order minitest ran them. */
async function ranLines(dir: string): Promise<number[]> {
  return readEvents(runFile(dir, 'minitest.jsonl')).filter((event) => event['event'] === 'test_end').map((event) => event['line'] as number);
}

/** minitest's own count, from its summary line in the log. */
async function minitestCount(dir: string): Promise<number> {
  const m = /(\d+) runs, \d+ assertions/.exec(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8'));
  return Number(m?.[1]);
}

suite('a minitest project whose Rakefile names its test task spec', () => {
  it('runs the default task, `rake spec`, and says why', async () => {
    const dir = await copyFixture('minitest-spec');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.command, report.warnings]).toEqual([1, 'failed', 'bundle exec rake spec', []]);
    expect(report.reason).toBe(`${REASON} (the Rakefile's default task \`spec\` is its Rake::TestTask)`);
    expect(report.summary).toEqual({ run: 4, passed: 3, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([[SAME_NAME, 'spec/hash_spec.rb', 13, 'failed']]);
  });

  it('runs every spec file below a directory, nested ones included, through TEST', async () => {
    const dir = await copyFixture('minitest-spec');
    const { exitCode, report } = await runJson(['--cwd', dir, 'spec/models']);
    expect([exitCode, report.status, report.command]).toEqual([0, 'passed', "TEST='spec/models/**/*_spec.rb' bundle exec rake spec"]);
    expect(report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    expect((await ranLines(dir)).sort()).toEqual([4, 4]);
    const one = await runJson(['--cwd', dir, 'spec/models/nested/item_spec.rb']);
    expect([one.report.status, one.report.summary.run]).toEqual(['passed', 1]);
  });

  it('runs a Minitest::TestTask named spec, selecting files and reruns through the plugin (the task ignores TEST)', async () => {
    const dir = await copyFixture('minitest-spec');
    await fs.writeFile(path.join(dir, 'Rakefile'), [
      'require "minitest/test_task"', '',
      'Minitest::TestTask.create(:spec) do |t|', '  t.libs << "spec"', '  t.test_globs = ["spec/**/*_spec.rb"]', 'end', '',
    ].join('\n'));
    const whole = await runJson(['--cwd', dir]);
    expect([whole.report.command, whole.report.reason]).toEqual(['bundle exec rake spec', `${REASON} (the Rakefile's Minitest::TestTask is \`spec\`)`]);
    expect(whole.report.summary).toEqual({ run: 4, passed: 3, failures: 1, errors: 0, skips: 0 });
    const models = await runJson(['--cwd', dir, 'spec/models']);
    expect([models.exitCode, models.report.command]).toEqual([0, 'RUN_TESTS_MINITEST_FILES=\'["spec/models"]\' bundle exec rake spec']);
    expect(models.report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect(rerun.report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect([rerun.report.rerun, failures(rerun.report)]).toEqual([{ selected: 1, not_run: [] }, [[SAME_NAME, 'spec/hash_spec.rb', 13, 'failed']]]);
  });
});

suite('tests that share a name', () => {
  it('counts both and always reports the failing one, whichever order the seed gives', async () => {
    const dir = await copyFixture('minitest-spec');
    const orders = new Set<string>();
    for (const seed of ['1', '7', '8', '9']) {
      const { exitCode, report } = await runJson(['--cwd', dir, 'spec/hash_spec.rb'], { env: { SEED: seed } });
      expect([seed, exitCode, report.status, report.summary.run, await minitestCount(dir)]).toEqual([seed, 1, 'failed', 2, 2]);
      expect(failures(report)).toEqual([[SAME_NAME, 'spec/hash_spec.rb', 13, 'failed']]);
      const saved = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
      expect(saved.failed_tests.map((t: { test_name: string; line: number }) => [t.test_name, t.line])).toEqual([[SAME_NAME, 13]]);
      orders.add((await ranLines(dir)).join(','));
    }
    // The seeds ran the failing test (defined on line 12) both before and after its twin (line 6).
    expect([...orders].sort()).toEqual(['12,6', '6,12']);
  });

  it('reruns both with --failed-only when both fail', async () => {
    const dir = await copyFixture('minitest-spec');
    const spec = path.join(dir, 'spec/hash_spec.rb');
    await fs.writeFile(spec, (await fs.readFile(spec, 'utf8')).replace('must_equal [[:a, 1]]\n', 'must_equal [[:b, 1]]\n'));
    const first = await runJson(['--cwd', dir]);
    expect(first.report.summary).toEqual({ run: 4, passed: 2, failures: 2, errors: 0, skips: 0 });
    expect(failures(first.report).sort()).toEqual([[SAME_NAME, 'spec/hash_spec.rb', 13, 'failed'], [SAME_NAME, 'spec/hash_spec.rb', 7, 'failed']]);
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status, report.rerun]).toEqual([1, 'failed', { selected: 2, not_run: [] }]);
    // The filter as rake's own TESTOPTS, quoted for rake's shell inside the quotes for the person's.
    expect(report.command).toBe("TEST=spec/hash_spec.rb bundle exec rake spec 'TESTOPTS='\\''--name=/\\A(?:unhash\\#test_0001_unhashes)\\z/'\\'''");
    expect(report.summary).toEqual({ run: 2, passed: 0, failures: 2, errors: 0, skips: 0 });
    expect(failures(report).sort()).toEqual(failures(first.report).sort());
  });
});

suite('a test name that is not valid UTF-8', () => {
  it('is reported scrubbed, the suite runs on, and a rerun selects it by that name', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.writeFile(path.join(dir, 'test/binary_name_test.rb'), [
      'require "test_helper"', '', 'class BinaryNameTest < Minitest::Test',
      '  define_method("test_caf\\xE9".b) { assert true }',
      '  define_method("test_fails_\\xFF".b) { assert_equal 1, 2 }', 'end', '',
    ].join('\n'));
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 10, passed: 6, failures: 2, errors: 1, skips: 1 });
    expect(await minitestCount(dir)).toBe(10);
    expect(failures(report).filter(([name]) => name.startsWith('BinaryNameTest'))).toEqual([
      ['BinaryNameTest#test_fails_\uFFFD', 'test/binary_name_test.rb', 5, 'failed'],
    ]);
    const passed = (await fs.readFile(runFile(dir, 'minitest.jsonl'), 'utf8')).split('\n')
      .filter((line) => line.includes('BinaryNameTest') && line.includes('"passed"')).map((line) => (JSON.parse(line) as { name: string }).name);
    expect(passed).toEqual(['BinaryNameTest#test_caf\uFFFD']);
    const rerun = await runJson(['--cwd', dir, '--failed-only', 'test/binary_name_test.rb']);
    expect([rerun.exitCode, rerun.report.summary.run, rerun.report.rerun]).toEqual([1, 1, { selected: 1, not_run: [] }]);
    expect(failures(rerun.report)).toEqual([['BinaryNameTest#test_fails_\uFFFD', 'test/binary_name_test.rb', 5, 'failed']]);
  });
});
