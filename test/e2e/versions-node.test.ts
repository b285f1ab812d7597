import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { RUNNER_VERSIONS, versionDir } from '../../scripts/runner-versions.js';
import { copyFixture, failures, junitSkips, readEvents, runFile, runJson } from './helpers.js';
import { NODE_TEST_MIXED_FAILURES, NODE_TEST_MIXED_MESSAGES } from './expected.js';
import { installedSets } from './runner-versions.js';

/** node:test is node's own: each node of the matrix (beside the suite's node 20) runs
 * run-tests itself, which runs `node --test` with the node it runs on. */
const sets = installedSets('node');

/** What `node --test <args>` itself counts, in run-tests' terms: skipped and todo tests
 * are skips, cancelled ones errors (counted with the failures, as node counts them). */
function nodeSummary(node: string, dir: string, args: readonly string[]): { run: number; passed: number; failures: number; skips: number } {
  const { stdout } = spawnSync(node, ['--test', '--test-reporter=tap', ...args], { cwd: dir, encoding: 'utf8' });
  const count = (what: string): number => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(stdout)?.[1] ?? NaN);
  return { run: count('tests'), passed: count('pass'), failures: count('fail') + count('cancelled'), skips: count('skipped') + count('todo') };
}

const counted = ({ run, passed, failures: failed, errors, skips }: { run: number | null; passed: number | null; failures: number | null; errors: number | null; skips: number | null }) =>
  ({ run, passed, failures: (failed ?? 0) + (errors ?? 0), skips });

describe.each(sets.length > 0 ? sets : ['none installed'])('node:test version matrix: %s', (id) => {
  if (!sets.includes(id)) {
    it.skip('is not installed', () => undefined);
    return;
  }
  const node = path.join(versionDir(id), 'node_modules', Object.keys(RUNNER_VERSIONS[id]?.packages ?? {})[0] ?? '', 'bin', 'node');
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().slice(1);

  it('is a node of its major', () => {
    expect(version.split('.')[0]).toBe(id.split('-')[1]);
  });

  it('reports leaves exactly, with nested names, lines and messages, and the node that ran them', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir], { node });
    expect([exitCode, report.status, report.warnings, report.error]).toEqual([1, 'failed', [], null]);
    expect(report.summary).toEqual({ run: 11, passed: 6, failures: 2, errors: 1, skips: 2 });
    expect(failures(report)).toEqual(NODE_TEST_MIXED_FAILURES);
    expect(report.failed_tests.map((t) => t.message)).toEqual(NODE_TEST_MIXED_MESSAGES);
    expect(readEvents(runFile(dir, 'node-test-events.jsonl'))[0]).toMatchObject({ runner: 'node-test', runner_version: version });
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { node });
    expect([rerun.exitCode, rerun.report.rerun, failures(rerun.report)]).toEqual([1, { selected: 3, not_run: [] }, failures(report)]);
  });

  // node 22 reports the tests --test-only and --test-name-pattern filter out not at all,
  // nor counts them (nodejs/node#52221): nor does run-tests, which counts as node does.
  it('counts --test-only, { skip }, t.skip(), { todo } and --test-name-pattern as node does, with its reasons', async () => {
    const only = await copyFixture('node-test-only');
    const testOnly = await runJson(['--cwd', only, '--', '--test-only'], { node });
    expect([testOnly.exitCode, testOnly.report.status, testOnly.report.summary]).toEqual([0, 'passed', { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }]);
    expect(counted(testOnly.report.summary)).toEqual(nodeSummary(node, only, ['--test-only']));

    const dir = await copyFixture('node-test-skips');
    const junit = path.join(dir, 'junit.xml');
    const all = await runJson(['--cwd', dir, '--junit', junit], { node });
    expect([all.exitCode, all.report.summary]).toEqual([0, { run: 9, passed: 2, failures: 0, errors: 0, skips: 7 }]);
    expect(counted(all.report.summary)).toEqual(nodeSummary(node, dir, []));
    expect((await junitSkips(junit)).map(([, name, reason]) => [name, reason])).toEqual([
      ['checkout refunds', 'no payment sandbox'],
      ['checkout ships', 'skipped'],
      ['checkout retries', 'flaky upstream'],
      ['checkout invoices', 'todo: needs the PDF writer'],
      ['checkout splits', 'todo (failed: not split yet)'],
      ['coupons > stacks coupons', 'todo'],
      ['coupons > expires a coupon', 'skipped'],
    ]);
    const pattern = await runJson(['--cwd', dir, '--', '--test-name-pattern=coupon'], { node });
    expect([pattern.exitCode, pattern.report.summary]).toEqual([0, { run: 3, passed: 1, failures: 0, errors: 0, skips: 2 }]);
    expect(counted(pattern.report.summary)).toEqual(nodeSummary(node, dir, ['--test-name-pattern=coupon']));
    const named = await runJson(['--cwd', dir, '--name', 'coupon'], { node });
    expect([named.exitCode, named.report.command, named.report.summary]).toEqual([0, 'node --test --test-name-pattern=coupon', pattern.report.summary]);
  });
});
