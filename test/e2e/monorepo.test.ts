import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, failures, hasTools, runJson } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake', 'rspec') ? describe : describe.skip;

/** A repository root with no project of its own, holding three Ruby subprojects. */
async function monorepo(): Promise<string> {
  const root = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-monorepo-')));
  await copyFixture('minitest-mixed', path.join(root, 'packages/widgets'));
  await copyFixture('minitest-plain', path.join(root, 'services/calc'));
  await copyFixture('rspec-mixed', path.join(root, 'services/shop'));
  return root;
}

suite('monorepo', () => {
  it('runs the subproject that holds the given file, with its artifacts there', async () => {
    const root = await monorepo();
    const { exitCode, report } = await runJson(['--cwd', root, 'packages/widgets/test/text_test.rb']);
    expect([exitCode, report.status, report.project_root, report.framework]).toEqual([0, 'passed', path.join(root, 'packages/widgets'), 'minitest']);
    expect(report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    expect(report.command).toBe('TEST=test/text_test.rb bundle exec rake test');
    expect(report.projects).toEqual([]);
    expect(fs.existsSync(path.join(root, 'packages/widgets/.run-tests/last-test.log'))).toBe(true);
    expect(fs.existsSync(path.join(root, '.run-tests'))).toBe(false);
  });

  it('runs files from several subprojects each in its own project and merges the reports', async () => {
    const root = await monorepo();
    const { exitCode, report } = await runJson(['--cwd', root, 'services/calc/test/arithmetic_test.rb', 'packages/widgets/test/widget_test.rb']);
    expect([exitCode, report.status, report.framework, report.project_root]).toEqual([1, 'failed', 'minitest', root]);
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.status, p.summary.run])).toEqual([
      ['services/calc', 'failed', 3],
      ['packages/widgets', 'failed', 6],
    ]);
    expect(report.summary).toEqual({ run: 9, passed: 5, failures: 2, errors: 1, skips: 1 });
    expect(failures(report).sort()).toEqual([
      ['ArithmeticTest#test_subtracts_wrongly', 'services/calc/test/arithmetic_test.rb', 13, 'failed'],
      ['WidgetTest#test_explodes', 'packages/widgets/test/widget_test.rb', 13, 'error'],
      ['WidgetTest#test_size_is_wrong', 'packages/widgets/test/widget_test.rb', 9, 'failed'],
    ]);
    expect(report.next).toBe('run-tests --failed-only services/calc packages/widgets');
    const rerun = await runJson(['--cwd', root, '--failed-only', 'services/calc', 'packages/widgets']);
    expect(rerun.report.summary).toEqual({ run: 3, passed: 0, failures: 2, errors: 1, skips: 0 });
  });

  it('merges different runners, and a whole subproject given as a directory', async () => {
    const root = await monorepo();
    const { report } = await runJson(['--cwd', root, 'services/calc', 'services/shop']);
    expect(report.framework).toBe('minitest+rspec');
    expect(report.projects.map((p) => [p.framework, p.project_root])).toEqual([
      ['minitest', path.join(root, 'services/calc')],
      ['rspec', path.join(root, 'services/shop')],
    ]);
    expect(report.summary.run).toBe((report.projects[0]?.summary.run ?? 0) + (report.projects[1]?.summary.run ?? 0));
  });
});
