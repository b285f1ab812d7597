import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, REPO, runJson } from './helpers.js';

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
