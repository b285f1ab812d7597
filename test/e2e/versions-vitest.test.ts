import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { RUNNER_VERSIONS } from '../../scripts/runner-versions.js';
import { copyFixture, failures, readEvents, runJson } from './helpers.js';
import { VITEST_MIXED_FAILURES, sorted } from './expected.js';
import { installedPackages, installedSets, versionFixture } from './runner-versions.js';
import { addFiles, expectShardsMatchFullRun } from './shard-check.js';

/** Every vitest major of the version matrix runs the same fixtures to the same report. */
const sets = installedSets('vitest');

describe.each(sets.length > 0 ? sets : ['none installed'])('vitest version matrix: %s', (id) => {
  if (!sets.includes(id)) {
    it.skip('is not installed', () => undefined);
    return;
  }

  it('has the pinned packages of the set, a vitest of its major', () => {
    const installed = installedPackages(id);
    expect(installed).toEqual(RUNNER_VERSIONS[id]?.packages);
    expect(installed['vitest']?.split('.')[0]).toBe(id.split('-')[1]);
  });

  it('reports failures, errors, a timeout, skips and a load error with the failing lines, reruns them, and filters by --name', async () => {
    const dir = await versionFixture('vitest-mixed', id);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 11, passed: 3, failures: 3, errors: 3, skips: 2 });
    // The lines are the failing assertions' (a test's definition line only for the timeout).
    expect(sorted(failures(report))).toEqual(VITEST_MIXED_FAILURES);
    // The reporter writes the one event format, every line valid by its schema, on every major.
    const events = readEvents(path.join(dir, `.run-tests/runs/${report.run_id}/vitest-events.jsonl`));
    expect(events[0]).toMatchObject({ event: 'run_start', runner: 'vitest', runner_version: expect.stringMatching(new RegExp(`^${id.split('-')[1]}\\.`)), files: 3 });
    expect([events.filter((e) => e['event'] === 'test_end').length, events.filter((e) => e['event'] === 'error').length]).toEqual([10, 1]);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', totals: { tests: 11, passed: 3, failed: 5, errors: 1, skipped: 2, deselected: 0 }, interrupted: false });
    const byName = Object.fromEntries(report.failed_tests.map((t) => [t.test_name, t.message]));
    expect(byName['math > add > adds negatives']).toBe("expected -2 to be -3 // Object.is equality\n\n- Expected\n+ Received\n\n- -3\n+ -2\n\n13|     it('adds negatives', () => {\n14|       console.log('noise from a test: {\"type\":\"end\"}');\n15|       expect(add(-1, -1)).toBe(-3);\n  |                           ^\n16|     });\n17|   });");
    expect(byName['load error: test/broken.test.ts']).toBe('Error: broken at load: function');
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.warnings]).toEqual([1, { selected: 6, not_run: [] }, []]);
    expect(rerun.report.summary).toEqual({ run: 6, passed: 0, failures: 3, errors: 3, skips: 0 });
    expect(sorted(failures(rerun.report))).toEqual(VITEST_MIXED_FAILURES);
    const named = await runJson(['--cwd', dir, '--name', '/^math add/', 'test/math.test.ts']);
    expect([named.report.summary, failures(named.report)]).toEqual([{ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }, [VITEST_MIXED_FAILURES[1]]]);
  });

  it('reports a suite whose beforeAll failed, and the tests it skipped', async () => {
    const dir = await versionFixture('vitest-hook', id);
    const { report } = await runJson(['--cwd', dir]);
    expect([report.status, report.warnings, report.summary]).toEqual(['failed', [], { run: 5, passed: 2, failures: 1, errors: 1, skips: 1 }]);
    expect(sorted(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message]))).toEqual([
      ['store > when connected', 'test/hook.test.ts', 8, 'error', 'Error: cannot connect'],
      ['subtracts wrongly', 'test/other.test.ts', 4, 'failed', "expected 1 to be +0 // Object.is equality\n\n- Expected\n+ Received\n\n- 0\n+ 1\n\n2|\n3| test('adds', () => expect(1 + 1).toBe(2));\n4| test('subtracts wrongly', () => expect(2 - 1).toBe(0));\n |                                               ^\n5|"],
    ]);
  });

  it('never calls a run whose worker died a pass, and names the file it died in', async () => {
    const dir = await versionFixture('vitest-exit', id);
    const { report } = await runJson(['--cwd', dir]);
    // vitest 4 goes on and reports the other file; vitest 3's own CLI dies with the worker's channel.
    expect(report.status).toBe(id === 'vitest-3' ? 'error' : 'failed');
    expect(report.warnings).toContain('vitest stopped while running test/crash.test.js and reported no result for it: a test may have called process.exit, or the process crashed or was killed');
  });

  it('--shard: two shards run the full run\'s tests, each once, on the files vitest lists them, and a shard runs exactly its files', async () => {
    const dir = await addFiles(await versionFixture('vitest-mixed', id), { 'test/x/a.test.ts': "import { test } from 'vitest';\ntest('x a', () => {});\n", 'test/xx/a.test.ts': `import { test } from 'vitest';\ntest('xx a', () => {});\n${'// the heaviest unit, a shard of its own\n'.repeat(100)}` });
    const { parts } = await expectShardsMatchFullRun(dir, [2]);
    expect(parts.some((part) => part.includes('test/x/a.test.ts') && !part.includes('test/xx/a.test.ts'))).toBe(true);
  });
});

describe('a vitest outside the supported majors', () => {
  it('is RUNNER_UNSUPPORTED (exit 3) naming the version found and the range, before vitest starts', async () => {
    const dir = await copyFixture('vitest-mixed');
    await fs.outputJson(path.join(dir, 'node_modules/vitest/package.json'), { name: 'vitest', version: '5.1.2' });
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code, report.exit_status]).toEqual([3, 'error', 'RUNNER_UNSUPPORTED', null]);
    expect(report.error?.message).toBe(`vitest 5.1.2 is not supported: run-tests supports vitest 3.x to 4.x (found in ${dir}/node_modules/vitest)`);
  });
});
