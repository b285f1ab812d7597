import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../src/model/report.js';
import { readHistory, recordHistory } from '../../../src/store/history.js';
import { artifactPaths } from '../../../src/store/artifacts.js';
import { failureRecord, reportedTest, shardReport } from '../../support/shard-report.js';

const root = mkdtempSync(join(tmpdir(), 'run-tests-history-from-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const store = join(root, 'project/.run-tests');
mkdirSync(store, { recursive: true });

const write = (name: string, value: unknown): string => {
  const file = join(root, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

/** A plain report (no `tests`): one failure and one flaky test are all it tells. */
const plain: RunReport = {
  ...shardReport(1, 1), shard: undefined, tests: undefined, run_id: '20261201-000009.000-00000009', started_at: '2026-12-01T00:00:09.000Z', status: 'failed',
  failed_tests: [failureRecord('breaks', 'test/a.test.js')],
  flaky_tests: [{ test_name: 'wobbles', file: 'test/a.test.js', line: 2, id: 'wobbles', attempts: [] }],
};

describe('--from reports', () => {
  it('a plain report knows only its failed and flaky tests: every other test is unknown there, never passed', () => {
    const shard = write('shard.json', shardReport(1, 2, { tests: [reportedTest('breaks', 'test/a.test.js'), reportedTest('quiet', 'test/a.test.js')] }));
    const history = readHistory(store, { from: [write('plain.json', plain), shard] });
    expect(history.warnings).toEqual([]);
    expect(history.runs.map((r) => [r.source, r.shard?.index ?? null])).toEqual([[shard, 1], [join(root, 'plain.json'), null]]);
    expect(history.tests.map((t) => [t.name, t.outcomes, t.durations])).toEqual([
      ['breaks', ['passed', 'failed'], [5, null]],
      ['quiet', ['passed', null], [5, null]],
      ['wobbles', [null, 'flaky'], [null, null]],
    ]);
  });

  it('a merged report is a run per part, its parts found beside it; a part that is gone makes it one run of its lists', () => {
    const dir = join(root, 'ci');
    mkdirSync(dir);
    const parts = [1, 2].map((i) => ({ path: `shard-${i}.json`, index: i, run_id: shardReport(i, 2).run_id, status: 'passed' as const }));
    for (const i of [1, 2]) writeFileSync(join(dir, `shard-${i}.json`), JSON.stringify(shardReport(i, 2)));
    const merged = { ...shardReport(1, 2), source: 'merged', shard: undefined, tests: undefined, run_id: null, parts, failed_tests: [failureRecord('x', 'test/x.test.js')] };
    writeFileSync(join(dir, 'merged.json'), JSON.stringify(merged));
    const whole = readHistory(store, { from: [join(dir, 'merged.json')], cwd: root });
    expect(whole.warnings).toEqual([]);
    expect(whole.runs.map((r) => [r.run_id, r.source, r.shard?.index])).toEqual([[parts[0]?.run_id, join(dir, 'shard-1.json'), 1], [parts[1]?.run_id, join(dir, 'shard-2.json'), 2]]);
    expect(whole.tests.map((t) => [t.name, t.outcomes])).toEqual([['a1', ['passed', null]], ['b1', ['passed', null]], ['a2', [null, 'passed']], ['b2', [null, 'passed']]]);
    rmSync(join(dir, 'shard-2.json'));
    const lists = readHistory(store, { from: [join(dir, 'merged.json')], cwd: root });
    expect(lists.warnings).toEqual([`${join(dir, 'merged.json')}: its part shard-2.json is not there; the merged report is read as one run of its failed and flaky tests`]);
    expect(lists.runs.map((r) => r.run_id)).toEqual([join(dir, 'merged.json')]);
    expect(lists.tests.map((t) => [t.name, t.outcomes])).toEqual([['x', ['failed']]]);
  });

  it('skips a file that is not JSON or not a report, and a run the store holds already, each with a warning naming it', () => {
    const runId = '20261201-000005.000-00000005';
    recordHistory(artifactPaths(join(root, 'project'), runId), { ...plain, run_id: runId }, [], 200);
    const again = write('again.json', { ...plain, run_id: runId });
    const history = readHistory(store, { from: [write('broken.json', '{"schema'), write('foreign.json', { hello: 1 }), again] });
    expect(history.runs.map((r) => r.source)).toEqual(['store']);
    expect(history.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${join(root, 'broken.json')}: cannot be read as a run-tests JSON report \\(.*JSON.*\\); skipped$`)),
      `${join(root, 'foreign.json')}: not a run-tests JSON report (schema_version 1); skipped`,
      `${again}: run ${runId} is in the history already; skipped`,
    ]);
  });
});
