import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import type { DetectionReport } from '../../src/cli/detect-command.js';
import { copyFixture, failures, REPO, runCli, runJson } from './helpers.js';

/** A temp copy of a fixture whose node_modules is run-tests' own (jest, vitest and mocha
 * are its devDependencies), at the fixture's root as a workspace hoists it. */
async function withRunners(name: string): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('mocha reporting one test twice', () => {
  it('counts a test whose done() is called twice once, with both messages, and reruns it once', async () => {
    const dir = await withRunners('mocha-done-twice');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    // mocha itself says 3 tests (its end line), though it reported 5 results.
    expect(report.summary).toEqual({ run: 3, passed: 1, failures: 1, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([
      ['done fails, then is called again', 'test/done.spec.js', 10, 'failed'],
      ['done passes, then is called again', 'test/done.spec.js', 20, 'error'],
    ]);
    expect(report.failed_tests.map((t) => t.message)).toEqual([
      `Expected values to be strictly equal:\n\n1 !== 2\n\nError: done() called multiple times in test <done fails, then is called again> of file ${dir}/test/done.spec.js`,
      `Error: done() called multiple times in test <done passes, then is called again> of file ${dir}/test/done.spec.js`,
    ]);
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.summary]).toEqual([1, { selected: 2, not_run: [] }, { run: 2, passed: 0, failures: 1, errors: 1, skips: 0 }]);
  });
});

/** The operands of every test below, by runner: a file named as an option of the runner (or
 * of run-tests' launcher), in the root of its package. */
const DASH_FILES = ['packages/node/--test-only.test.js', 'packages/mocha/--grep', 'packages/jest/--dry-run.test.js', 'packages/vitest/-x.test.js'];
const byProject = (dir: string, report: RunReport) => report.projects.map((p) => [path.relative(dir, p.project_root), p.framework, p.status, p.summary.run, p.summary.passed]);

describe('operands of the JavaScript runners', () => {
  it('gives a file whose name looks like an option to node --test, mocha, jest and vitest as a file', async () => {
    const dir = await withRunners('js-operands');
    const { exitCode, report } = await runJson(['--cwd', dir, ...DASH_FILES]);
    expect([exitCode, report.status, report.framework]).toEqual([1, 'failed', 'node-test+mocha+jest+vitest']);
    expect(byProject(dir, report)).toEqual([
      ['packages/node', 'node-test', 'failed', 2, 1],
      ['packages/mocha', 'mocha', 'failed', 2, 1],
      ['packages/jest', 'jest', 'failed', 2, 1],
      ['packages/vitest', 'vitest', 'failed', 2, 1],
    ]);
    expect(failures(report)).toEqual([
      ['other fails', 'packages/node/--test-only.test.js', 7, 'failed'],
      ['dash other fails', 'packages/mocha/--grep', 7, 'failed'],
      ['other fails', 'packages/jest/--dry-run.test.js', 4, 'failed'],
      ['other fails', 'packages/vitest/-x.test.js', 6, 'failed'],
    ]);
    expect(report.projects.map((p) => p.command?.split(' ').at(-1))).toEqual(['./--test-only.test.js', './--grep', './--dry-run.test.js', './-x.test.js']);
  });

  it('keeps a --name that starts with a dash a name filter', async () => {
    const dir = await withRunners('js-operands');
    const { exitCode, report } = await runJson(['--cwd', dir, '--name=-x', ...DASH_FILES]);
    expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 4, passed: 4, failures: 0, errors: 0, skips: 0 }]);
    expect(byProject(dir, report).map((p) => p[3])).toEqual([1, 1, 1, 1]);
  });

  it('runs every test file below a directory, at any depth, and nothing else there', async () => {
    const dir = await withRunners('js-operands');
    const { exitCode, report } = await runJson(['--cwd', dir, ...['node', 'mocha', 'jest', 'vitest'].map((p) => `packages/${p}/tests`)]);
    // packages/node/tests/deep/helper.js throws if node ever loads it.
    expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 4, passed: 4, failures: 0, errors: 0, skips: 0 }]);
    expect(byProject(dir, report).map((p) => [p[0], p[3]])).toEqual([['packages/node', 1], ['packages/mocha', 1], ['packages/jest', 1], ['packages/vitest', 1]]);
    expect(report.projects[0]?.command).toMatch(/ \.\/tests\/deep\/deeper\/deep\.test\.js$/);
    expect(report.projects[1]?.command).toMatch(/ \.\/tests\/deep\/deeper\/deep\.spec\.js$/);
  });
});

describe('an npm workspaces root whose npm test runs its workspaces', () => {
  it("runs each workspace's tests with the runner its scripts reach, and merges the reports", async () => {
    const dir = await withRunners('js-workspace-tests');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.framework, report.project_root]).toEqual([1, 'failed', 'mocha+node-test', dir]);
    expect(report.reason).toBe('scripts.test runs the tests of its workspaces ("npm test --workspaces --if-present"): each ran in its own directory (packages/x, packages/y); without scripts.test, not run: packages/z');
    expect(byProject(dir, report)).toEqual([['packages/x', 'mocha', 'failed', 3, 2], ['packages/y', 'node-test', 'failed', 2, 1]]);
    expect(report.summary).toEqual({ run: 5, passed: 3, failures: 2, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([
      ['math subtracts wrongly', 'packages/x/tests/lib/math.test.js', 9, 'failed'],
      ['y fails', 'packages/y/tests/y.test.js', 7, 'failed'],
    ]);
    // packages/x: `npm run test:types && npm run test:unit`, mocha hoisted to the root, the glob kept.
    expect(report.projects[0]?.reason).toBe('scripts.test runs mocha; scripts.test ("npm run test:types && npm run test:unit") runs mocha through scripts["test:unit"]; run-tests runs only that command, with its arguments: the rest is not run');
    expect(report.projects[0]?.command).toBe(`${dir}/node_modules/.bin/mocha 'tests/**/*.test.{js,cjs}'`);
    // packages/y: `node --test && npm run check:types`, its tests under tests/.
    expect(report.projects[1]?.reason).toBe('scripts.test runs node --test; scripts.test ("node --test && npm run check:types") runs node --test; run-tests runs only that command, with its arguments: the rest is not run');
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.summary]).toEqual([1, { selected: 2, not_run: [] }, { run: 2, passed: 0, failures: 2, errors: 0, skips: 0 }]);
  });

  it("keeps a workspace's spec glob with --runner, and runs the spec's files below a directory", async () => {
    const dir = await withRunners('js-workspace-tests');
    const forced = await runJson(['--cwd', path.join(dir, 'packages/x'), '--runner', 'mocha']);
    expect([forced.exitCode, forced.report.summary.run, forced.report.command]).toEqual([1, 3, `${dir}/node_modules/.bin/mocha 'tests/**/*.test.{js,cjs}'`]);
    // tests/lib/data.js throws if mocha loads it: the spec says it is no test file.
    const { exitCode, report } = await runJson(['--cwd', dir, 'packages/x/tests']);
    expect([exitCode, report.framework, report.project_root, report.summary]).toEqual([1, 'mocha', path.join(dir, 'packages/x'), { run: 3, passed: 2, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toMatch(/ \.\/tests\/lib\/math\.test\.js \.\/tests\/top\.test\.cjs$/);
  });

  it('says what it saw in a package where no runner applies', async () => {
    const dir = await withRunners('js-workspace-tests');
    const { exitCode, report } = await runJson(['--cwd', path.join(dir, 'packages/z')]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'NO_RUNNER']);
    expect(report.error?.message).toMatch(/\. Saw: package\.json has no scripts\.test; no vitest, jest or mocha in its dependencies, no config file of theirs, and no node --test files in \., test\/, tests\/, __tests__\/$/);
  });
});

describe('run-tests detect at an npm workspaces root whose npm test runs its workspaces', () => {
  it('says what runs in each workspace, and why', async () => {
    const dir = await withRunners('js-workspace-tests');
    const { exitCode, stdout } = await runCli(['detect', '--json', '--cwd', dir]);
    const report = JSON.parse(stdout) as DetectionReport;
    expect([exitCode, report.framework, report.argv, report.project_root]).toEqual([0, 'mocha+node-test', [], dir]);
    expect(report.reason).toMatch(/^scripts\.test runs the tests of its workspaces \("npm test --workspaces --if-present"\)/);
    expect(report.projects?.map((p) => [path.relative(dir, p.project_root), p.framework, p.argv.at(-1)])).toEqual([
      ['packages/x', 'mocha', `${dir}/packages/x/.run-tests/runs/<id>/mocha-events.jsonl`],
      ['packages/y', 'node-test', `--test-reporter-destination=${dir}/packages/y/.run-tests/runs/<id>/node-test-events.jsonl`],
    ]);
    expect(report.projects?.[0]?.argv).toContain('tests/**/*.test.{js,cjs}');
    expect(report.projects?.[0]?.reason).toMatch(/^scripts\.test runs mocha; .* the rest is not run$/);
  });
});

describe('node --test files outside test/', () => {
  it('finds them in tests/ and __tests__/ without a runner in package.json, and runs them', async () => {
    const dir = await copyFixture('node-test-dirs');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.framework]).toEqual([1, 'failed', 'node-test']);
    expect(report.reason).toBe("no runner in package.json; test files found (tests/unit/b.test.mjs, __tests__/a.test.js): node --test; package.json has no scripts.test; run-tests runs node --test on node's default test files");
    expect(report.summary).toEqual({ run: 3, passed: 2, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['a in __tests__ fails', '__tests__/a.test.js', 7, 'failed']]);
  });
});
