import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { RUNNER_VERSIONS } from '../../scripts/runner-versions.js';
import { copyFixture, failures, readEvents, runFile, runJson } from './helpers.js';
import { sorted } from './expected.js';
import { installedPackages, installedSets, versionFixture } from './runner-versions.js';
import { addFiles, expectShardsMatchFullRun } from './shard-check.js';

/** Every mocha major of the version matrix runs the same fixtures to the same report. */
const sets = installedSets('mocha');

describe.each(sets.length > 0 ? sets : ['none installed'])('mocha version matrix: %s', (id) => {
  if (!sets.includes(id)) {
    it.skip('is not installed', () => undefined);
    return;
  }

  it('has the pinned packages of the set, a mocha of its major', () => {
    const installed = installedPackages(id);
    expect(installed).toEqual(RUNNER_VERSIONS[id]?.packages);
    expect(installed['mocha']?.split('.')[0]).toBe(id.split('-')[1]);
  });

  it('reports failures, errors and skips with the failing lines, reruns them, and filters by --name', async () => {
    const dir = await versionFixture('mocha-mixed', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 9, passed: 5, failures: 1, errors: 1, skips: 2 });
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message])).toEqual([
      ['math adds wrongly', 'spec/math.spec.js', 10, 'failed', 'Expected values to be strictly equal:\n\n2 !== 3'],
      ['math explodes', 'spec/math.spec.js', 14, 'error', 'TypeError: widget exploded: too hot'],
    ]);
    const events = readEvents(runFile(dir, 'mocha-events.jsonl'));
    expect(events[0]).toMatchObject({ event: 'run_start', runner: 'mocha', runner_version: installedPackages(id)['mocha'] });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', totals: { passed: 5, failed: 2, skipped: 2 } });
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.summary]).toEqual([1, { selected: 2, not_run: [] }, { run: 2, passed: 0, failures: 1, errors: 1, skips: 0 }]);
    expect(failures(rerun.report)).toEqual(failures(report));
    const named = await runJson(['--cwd', dir, '--name', '[brackets] (and']);
    expect([named.exitCode, named.report.status, named.report.summary.run]).toEqual([0, 'passed', 1]);
  });

  it('reports a failed hook in a parallel run', async () => {
    const dir = await versionFixture('mocha-parallel', id);
    const { report } = await runJson(['--cwd', dir]);
    expect([report.status, report.warnings, report.summary]).toEqual(['failed', [], { run: 5, passed: 1, failures: 1, errors: 2, skips: 1 }]);
    expect(sorted(failures(report))).toEqual([
      ['alpha (a) fails [x]', 'test/alpha.spec.js', 5, 'failed'],
      ['alpha (a) throws', 'test/alpha.spec.js', 7, 'error'],
      ['beta "before all" hook for "never runs"', 'test/beta.spec.js', 3, 'error'],
    ]);
  });

  it('reports a file that fails to load with its line', async () => {
    const dir = await versionFixture('mocha-load-error', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, failures(report)]).toEqual([1, 'failed', [['load error: test/b_broken.spec.js', 'test/b_broken.spec.js', 1, 'error']]]);
  });

  it('counts a test whose done() is called twice once, with both failures, and agrees with mocha\'s totals', async () => {
    const dir = await versionFixture('mocha-done-twice', id);
    const { report } = await runJson(['--cwd', dir]);
    expect([report.status, report.warnings, report.summary]).toEqual(['failed', [], { run: 3, passed: 1, failures: 1, errors: 1, skips: 0 }]);
    expect(report.failed_tests.map((t) => [t.test_name, t.line, t.status, t.message.replace(/ of file .*/, '')])).toEqual([
      ['done fails, then is called again', 10, 'failed', 'Expected values to be strictly equal:\n\n1 !== 2\n\nError: done() called multiple times in test <done fails, then is called again>'],
      ['done passes, then is called again', 20, 'error', 'Error: done() called multiple times in test <done passes, then is called again>'],
    ]);
  });

  it('is an error naming the file and test when a test calls process.exit, never a pass', async () => {
    const dir = await versionFixture('mocha-exit', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.summary.passed]).toEqual([3, 'error', 1]);
    expect(report.warnings[0]).toBe('mocha exited with code 1 before its run ended, in test/exit.spec.js, during "exit calls process.exit"');
  });

  it('--shard: two shards run the full run\'s tests, each once, on the files mocha\'s collect-files lists them (an array on 9, an object from 10)', async () => {
    const dir = await addFiles(await versionFixture('mocha-mixed', id), { 'spec/a.spec.js': "it('a', () => {});\n" });
    expect((await expectShardsMatchFullRun(dir, [2])).parts.every((part) => part.length > 0)).toBe(true);
  });
});

describe('a mocha outside the supported majors', () => {
  it('is RUNNER_UNSUPPORTED (exit 3) naming the version found and the range, before mocha starts', async () => {
    const dir = await copyFixture('mocha-mixed');
    await fs.outputJson(path.join(dir, 'node_modules/mocha/package.json'), { name: 'mocha', version: '8.4.0' });
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code, report.exit_status]).toEqual([3, 'error', 'RUNNER_UNSUPPORTED', null]);
    expect(report.error?.message).toBe(`mocha 8.4.0 is not supported: run-tests supports mocha 9.x to 12.x (found in ${dir}/node_modules/mocha)`);
  });
});
