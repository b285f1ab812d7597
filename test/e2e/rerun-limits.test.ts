import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, failures, hasTools, runJson } from './helpers.js';

/** Recorded failures a command line cannot carry: an id with a NUL byte, and more
 * selectors than the kernel takes (E2BIG). */

const rspecSuite = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;
const rakeSuite = hasTools('ruby', 'rake') ? describe : describe.skip;

interface Store { failed_tests: Record<string, unknown>[] }
const storePath = (dir: string) => path.join(dir, '.run-tests/last-failures.json');

rspecSuite('a recorded id with a NUL byte', () => {
  it('is skipped with a warning naming it, and the other failures rerun', async () => {
    const dir = await copyFixture('rspec-rerun-identity');
    expect((await runJson(['--cwd', dir])).exitCode).toBe(1);
    const store = (await fs.readJson(storePath(dir))) as Store;
    const ghost = { ...store.failed_tests[0], id: './spec/cart_spec.rb[1:9]\u0000', test_name: 'Cart ghost\u0000' };
    await fs.writeJson(storePath(dir), { ...store, failed_tests: [...store.failed_tests, ghost] });

    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(failures(report)).toEqual([['Cart totals the prices', 'spec/cart_spec.rb', 9, 'failed']]);
    expect(report.rerun).toEqual({ selected: 2, not_run: ['Cart ghost\u0000'] });
    expect(report.warnings).toEqual([
      'not rerun: "./spec/cart_spec.rb[1:9]\\u0000", whose recorded id holds a NUL byte, which no command line can carry',
      '1 of the 2 selected tests did not run: Cart ghost\u0000',
    ]);
    expect(report.command).not.toContain('[1:9]');
    // Not run, so still recorded.
    expect(((await fs.readJson(storePath(dir))) as Store).failed_tests.map((t) => t['test_name'])).toEqual(['Cart totals the prices', 'Cart ghost\u0000']);
  });

  it('alone is an error naming it, never "nothing to rerun"', async () => {
    const dir = await copyFixture('rspec-rerun-identity');
    await runJson(['--cwd', dir]);
    const store = (await fs.readJson(storePath(dir))) as Store;
    await fs.writeJson(storePath(dir), { ...store, failed_tests: [{ ...store.failed_tests[0], id: 'x\u0000' }] });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'STORE_CORRUPT']);
    expect(report.error?.message).toContain('no command line can carry the recorded failures ("x\\u0000")');
  });
});

const COUNT = 2500;
/** ~110 bytes a name: the exact selection is ~280 KB, over Linux's 128 KiB for one variable. */
const testName = (i: number) => `test_the_widget_renders_every_locale_and_currency_without_dropping_a_single_digit_${String(i).padStart(4, '0')}`;

async function generatedProject(skip: number | null): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-long-names-')));
  await fs.outputFile(path.join(dir, 'Rakefile'), 'require "rake/testtask"\n\nRake::TestTask.new(:test) { |t| t.pattern = "test/**/*_test.rb" }\n');
  await writeTests(dir, skip);
  return dir;
}

const writeTests = (dir: string, skip: number | null) => fs.outputFile(path.join(dir, 'test/long_names_test.rb'), [
  'require "minitest/autorun"',
  '',
  'class LongNamesTest < Minitest::Test',
  ...Array.from({ length: COUNT }, (_, i) => (i === skip ? '' : `  def ${testName(i)}; flunk "no #${i}"; end`)),
  'end',
  '',
].join('\n'));

rakeSuite(`${COUNT} failures with long names`, () => {
  it('rerun by their file when the exact selection exceeds the argument limit, each checked by identity', async () => {
    const dir = await generatedProject(null);
    const first = await runJson(['--cwd', dir]);
    expect([first.exitCode, first.report.summary.failures]).toEqual([1, COUNT]);
    // One test is gone before the rerun: the check by identity still sees it did not run.
    await writeTests(dir, 7);

    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: COUNT - 1, passed: 0, failures: COUNT - 1, errors: 0, skips: 0 });
    expect(report.rerun).toEqual({ selected: COUNT, not_run: [`LongNamesTest#${testName(7)}`] });
    expect(report.warnings[0]).toMatch(new RegExp(`^the exact rerun of ${COUNT} tests is too large for one command line \\(one of its arguments would be \\d+ bytes long\\): their 1 file\\(s\\) ran whole instead$`));
    expect(report.command).toBe('TEST=test/long_names_test.rb rake test');
    const store = (await fs.readJson(storePath(dir))) as Store;
    expect(store.failed_tests).toHaveLength(COUNT);
  });
});
