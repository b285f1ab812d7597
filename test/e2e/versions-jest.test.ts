import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { RUNNER_VERSIONS } from '../../scripts/runner-versions.js';
import { copyFixture, failures, readEvents, runJson } from './helpers.js';
import { ADDS_NEGATIVES, BEFORE_BROKE, HOOKS_PLAIN, JEST_MIXED_FAILURES, sorted } from './expected.js';
import { installedPackages, installedSets, versionFixture } from './runner-versions.js';
import { addFiles, expectShardsMatchFullRun } from './shard-check.js';

/** Every jest major of the version matrix runs the same fixtures to the same report. */
const sets = installedSets('jest');

describe.each(sets.length > 0 ? sets : ['none installed'])('jest version matrix: %s', (id) => {
  if (!sets.includes(id)) {
    it.skip('is not installed', () => undefined);
    return;
  }

  it('has the pinned packages of the set, a jest of its major', () => {
    const installed = installedPackages(id);
    expect(installed).toEqual(RUNNER_VERSIONS[id]?.packages);
    expect(installed['jest']?.split('.')[0]).toBe(id.split('-')[1]);
  });

  it('reports failures, errors, skips and a load error with the failing lines, reruns them, and filters by --name', async () => {
    const dir = await versionFixture('jest-mixed', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 10, passed: 3, failures: 3, errors: 2, skips: 2 });
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES);
    // The reporter writes the one event format, every line valid by its schema, on every major.
    const events = readEvents(path.join(dir, `.run-tests/runs/${report.run_id}/jest-events.jsonl`));
    expect(events[0]).toMatchObject({ event: 'run_start', runner: 'jest', runner_version: expect.stringMatching(new RegExp(`^${id.split('-')[1]}\\.`)), files: 3 });
    expect([events.filter((e) => e['event'] === 'test_end').length, events.filter((e) => e['event'] === 'error').length]).toEqual([9, 1]);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', totals: { tests: 10, passed: 3, failed: 4, errors: 1, skipped: 2, deselected: 0 }, interrupted: false });
    const byName = Object.fromEntries(report.failed_tests.map((t) => [t.test_name, t.message]));
    expect(byName['math › add › adds negatives']).toBe(ADDS_NEGATIVES);
    expect(byName['load error: test/broken.test.js']).toBe('Error: broken at load: object');
    // The failures by exact names in their files, then the load error's file whole.
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.warnings]).toEqual([1, { selected: 5, not_run: [] }, []]);
    expect(rerun.report.summary).toEqual({ run: 5, passed: 0, failures: 3, errors: 2, skips: 0 });
    expect(sorted(failures(rerun.report))).toEqual(JEST_MIXED_FAILURES);
    const named = await runJson(['--cwd', dir, '--name', '/^math add/', 'test/math.test.js']);
    expect([named.report.summary, failures(named.report)]).toEqual([{ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }, [JEST_MIXED_FAILURES[1]]]);
  });

  it('reports hooks that throw: beforeAll on each of its tests, afterAll on its file', async () => {
    const dir = await versionFixture('jest-hooks', id);
    const { report } = await runJson(['--cwd', dir]);
    expect([report.status, report.warnings, report.summary]).toEqual(['failed', [], { run: 5, passed: 1, failures: 1, errors: 3, skips: 0 }]);
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message])).toEqual([
      ['with before › one', 'test/hooks.test.js', 3, 'error', BEFORE_BROKE],
      ['with before › two', 'test/hooks.test.js', 3, 'error', BEFORE_BROKE],
      ['plain', 'test/hooks.test.js', 17, 'failed', HOOKS_PLAIN],
      ['"after all" hook in test/hooks.test.js', 'test/hooks.test.js', 11, 'error', 'Error: after broke'],
    ]);
  });

  it('is an error naming the file and test when a test calls process.exit in band, never a pass', async () => {
    const dir = await versionFixture('jest-exit', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.summary.passed]).toEqual([3, 'error', 1]);
    expect(report.warnings[0]).toBe('jest stopped while running test/b_exit.test.js (during "calls process.exit") and reported no result for it: a test may have called process.exit, or the process crashed or was killed');
  });

  it('--shard: two shards run the full run\'s tests, each once, on the files jest lists them (console.log on 29, its own console on 30)', async () => {
    const dir = await addFiles(await versionFixture('jest-mixed', id), { 'test/a.test.js': "test('a', () => {});\n", 'test/data.test.js': "test('data', () => {});\n" });
    expect((await expectShardsMatchFullRun(dir, [2])).parts.every((part) => part.length > 0)).toBe(true);
  });
});

describe('a jest outside the supported majors', () => {
  it('is RUNNER_UNSUPPORTED (exit 3) naming the version found and the range, before jest starts', async () => {
    const dir = await copyFixture('jest-mixed');
    await fs.outputJson(path.join(dir, 'node_modules/jest/package.json'), { name: 'jest', version: '28.1.3' });
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code, report.exit_status]).toEqual([3, 'error', 'RUNNER_UNSUPPORTED', null]);
    expect(report.error?.message).toBe(`jest 28.1.3 is not supported: run-tests supports jest 29.x to 30.x (found in ${dir}/node_modules/jest)`);
  });
});
