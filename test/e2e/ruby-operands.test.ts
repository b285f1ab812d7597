import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, runCli, validateReport } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake', 'rspec') ? describe : describe.skip;

/** runJson with operands given by --file, which takes a value that starts with a dash
 * (after `--` the words are the runner's own arguments). */
async function runWithOperands(args: readonly string[], operands: readonly string[]): Promise<{ exitCode: number | null; report: RunReport }> {
  const result = await runCli([...args, '--json', ...(operands.length > 0 ? [`--file=${operands.join(',')}`] : [])]);
  const report = JSON.parse(result.stdout) as RunReport;
  if (!validateReport(report)) throw new Error(`report does not match the schema: ${JSON.stringify(validateReport.errors)}`);
  return { exitCode: result.exitCode, report };
}

const RSPEC_FAILING = 'RSpec.describe "Dry" do\n  it("fails") { expect(1).to eq 2 }\nend\n';
const MINITEST_FAILING = (klass: string, helper: string) =>
  `require "${helper}"\n\nclass ${klass} < Minitest::Test\n  def test_fails\n    assert_equal 1, 2\n  end\nend\n`;

suite('a file operand that looks like an option reaches the runner as a file', () => {
  it('rspec: `--file=--dry-run` runs that file (rspec --dry-run would pass), and its rerun selects it', async () => {
    const dir = await copyFixture('rspec-mixed');
    await fs.writeFile(path.join(dir, '--dry-run'), RSPEC_FAILING);
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['--dry-run']);
    expect([exitCode, report.status, report.summary.run]).toEqual([1, 'failed', 1]);
    expect(report.command).toMatch(/ \.\/--dry-run$/);
    expect(failures(report)).toEqual([['Dry fails', '--dry-run', 2, 'failed']]);
    const rerun = await runWithOperands(['--cwd', dir, '--failed-only'], []);
    expect([rerun.exitCode, rerun.report.summary.run, rerun.report.rerun]).toEqual([1, 1, { selected: 1, not_run: [] }]);
    expect(failures(rerun.report)).toEqual([['Dry fails', '--dry-run', 2, 'failed']]);
  });

  it('rspec: a --name that looks like an option is the name to match, never an option', async () => {
    const dir = await copyFixture('rspec-mixed');
    const { exitCode, report } = await runWithOperands(['--cwd', dir, '--name', '--dry-run'], []);
    expect([exitCode, report.status, report.summary.run]).toEqual([4, 'no_tests', 0]);
  });

  it('minitest: TEST gets ./--dry-run_test.rb, which rake\'s loader would otherwise hand minitest as an option', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.writeFile(path.join(dir, '--dry-run_test.rb'), MINITEST_FAILING('DryTest', 'test_helper'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['--dry-run_test.rb']);
    expect([exitCode, report.status, report.command]).toEqual([1, 'failed', 'TEST=./--dry-run_test.rb bundle exec rake test']);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['DryTest#test_fails', '--dry-run_test.rb', 5, 'failed']]);
  });

  it('rails: bin/rails test gets the absolute path, since it runs the whole suite for one it does not see as a path', async () => {
    const dir = await copyFixture('rails-app');
    await fs.writeFile(path.join(dir, '--dry-run_test.rb'), MINITEST_FAILING('DryTest', 'test_helper'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['--dry-run_test.rb']);
    // Shown as run: `bin/rails test --dry-run_test.rb`, typed, would hand Rails an option.
    expect([exitCode, report.status, report.command]).toEqual([1, 'failed', `bin/rails test ${dir}/--dry-run_test.rb`]);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['DryTest#test_fails', '--dry-run_test.rb', 5, 'failed']]);
  });
});

suite('a directory operand runs every test file below it', () => {
  it('rspec: spec/models runs its nested spec files too', async () => {
    const dir = await copyFixture('rspec-mixed');
    await fs.outputFile(path.join(dir, 'spec/models/cart_spec.rb'), 'RSpec.describe "Cart" do\n  it("is empty") { expect([]).to be_empty }\nend\n');
    await fs.outputFile(path.join(dir, 'spec/models/deep/item_spec.rb'), RSPEC_FAILING.replace('Dry', 'Item'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['spec/models']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['Item fails', 'spec/models/deep/item_spec.rb', 2, 'failed']]);
  });

  it('rails: test/models runs its nested test files too', async () => {
    const dir = await copyFixture('rails-app');
    await fs.outputFile(path.join(dir, 'test/models/deep/item_test.rb'), MINITEST_FAILING('ItemTest', 'test_helper'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['test/models']);
    expect([exitCode, report.status, report.command]).toEqual([1, 'failed', 'bin/rails test test/models']);
    expect(report.summary).toEqual({ run: 11, passed: 7, failures: 2, errors: 1, skips: 1 });
    expect(failures(report).filter(([name]) => name.startsWith('ItemTest'))).toEqual([['ItemTest#test_fails', 'test/models/deep/item_test.rb', 5, 'failed']]);
  });

  it('minitest: test/ runs its nested test files, not only the top level', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.outputFile(path.join(dir, 'test/deep/er/item_test.rb'), MINITEST_FAILING('ItemTest', 'test_helper'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['test/deep']);
    expect([exitCode, report.command]).toEqual([1, "TEST='test/deep/**/*_test.rb' bundle exec rake test"]);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['ItemTest#test_fails', 'test/deep/er/item_test.rb', 5, 'failed']]);
  });
});

suite('rspec examples that share a full description', () => {
  it('are counted apart, and the rerun selects the failing one by its id', async () => {
    const dir = await copyFixture('rspec-mixed');
    await fs.writeFile(path.join(dir, 'spec/twin_spec.rb'), [
      'RSpec.describe "Twin" do', '  it("matches") { expect(1).to eq 1 }', 'end', '',
      'RSpec.describe "Twin" do', '  it("matches") { expect(1).to eq 2 }', 'end', '',
    ].join('\n'));
    const { exitCode, report } = await runWithOperands(['--cwd', dir], ['spec/twin_spec.rb']);
    expect([exitCode, report.summary]).toEqual([1, { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.id])).toEqual([['Twin matches', 'spec/twin_spec.rb', 6, './spec/twin_spec.rb[2:1]']]);
    const rerun = await runWithOperands(['--cwd', dir, '--failed-only'], []);
    expect([rerun.report.summary.run, rerun.report.rerun, failures(rerun.report)]).toEqual([1, { selected: 1, not_run: [] }, failures(report)]);
  });
});
