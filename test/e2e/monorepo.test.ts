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
    expect(report.next).toBe(`run-tests --cwd ${root} --failed-only services/calc packages/widgets`);
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

const polyglot = hasTools('go', 'bundle') ? describe : describe.skip;

polyglot('monorepo with JavaScript, Go and Ruby subprojects', () => {
  it('runs each subproject with its own runner when given files in each, and merges the reports', async () => {
    const root = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-polyglot-')));
    await copyFixture('node-test-mixed', path.join(root, 'packages/web'));
    await copyFixture('go-mixed', path.join(root, 'services/api'));
    await copyFixture('minitest-plain', path.join(root, 'tools/calc'));
    const { exitCode, report } = await runJson(['--cwd', root, 'packages/web', 'services/api/sub/calc_test.go', 'tools/calc/test/arithmetic_test.rb'],
      { env: { GOFLAGS: '-mod=mod', GOCACHE: path.join(os.tmpdir(), 'run-tests-polyglot-gocache') } });
    expect([exitCode, report.status, report.framework]).toEqual([1, 'failed', 'node-test+go+minitest']);
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.framework, p.status])).toEqual([
      ['packages/web', 'node-test', 'failed'],
      ['services/api', 'go', 'failed'],
      ['tools/calc', 'minitest', 'failed'],
    ]);
    for (const project of report.projects) expect(fs.existsSync(path.join(project.project_root, '.run-tests/last-test.log'))).toBe(true);
    const goFailure = report.failed_tests.find((t) => t.file?.startsWith('services/api/'));
    expect(goFailure?.file).toBe('services/api/sub/calc_test.go');
    expect(report.summary.run).toBe(report.projects.reduce((sum, p) => sum + (p.summary.run ?? 0), 0));
  });
});
