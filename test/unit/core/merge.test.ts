import { describe, expect, it } from '@jest/globals';
import { mergeShards, type MergeInput } from '../../../src/core/merge.js';
import type { RunReport } from '../../../src/model/report.js';
import { failureRecord, reportedTest, shardReport } from '../../support/shard-report.js';
import { validateReport } from '../../support/schemas.js';

const validate = validateReport;

const test = reportedTest;
const failure = failureRecord;
const shard = shardReport;

const input = (path: string, report: unknown): MergeInput => ({ path, text: JSON.stringify(report) });
const inputs = (...reports: RunReport[]): MergeInput[] => reports.map((r, i) => input(`s${i + 1}.json`, r));
const merge = (list: MergeInput[], maxFailures?: number | null) => mergeShards(list, { cwd: '/here', ...(maxFailures === undefined ? {} : { maxFailures }) });
const problems = (list: MergeInput[]): string => {
  const { report, tests } = merge(list);
  expect([report.status, report.exit_code, report.summary.run, report.failed_tests, tests]).toEqual(['error', 3, null, [], []]);
  expect(validate(report)).toBe(true);
  return report.error?.message ?? '';
};

describe('mergeShards', () => {
  it('sums the counts, keeps every duration and names its parts; the run took as long as its longest shard', () => {
    const failed = shard(2, 3, {
      status: 'failed', exit_code: 1, summary: { run: 3, passed: 2, failures: 1, errors: 0, skips: 0 }, failed_tests: [failure('c2', 'test/2.test.js')],
      tests: [test('a2', 'test/2.test.js'), test('b2', 'test/2.test.js'), test('c2', 'test/2.test.js', 'failed', 'c2 broke')], warnings: ['slow', 'shard 2/3 has no units: 1 unit among 3 shards'],
    });
    const { report, tests } = merge(inputs(shard(1, 3), failed, shard(3, 3)));
    expect(validate(report)).toBe(true);
    expect(report).toMatchObject({
      source: 'merged', status: 'failed', exit_code: 1, framework: 'jest', project_root: '/ci/1', run_id: null, command: null, next: null,
      duration_ms: 3000, started_at: '2026-12-01T00:00:01.000Z', finished_at: '2026-12-01T00:01:03.000Z', artifact: null, error: null, projects: [],
      summary: { run: 7, passed: 6, failures: 1, errors: 0, skips: 0 },
      unit_durations: { 'test/1.test.js': 100, 'test/2.test.js': 200, 'test/3.test.js': 300 },
      warnings: ['shard 2/3: slow', 'shard 2/3 has no units: 1 unit among 3 shards'],
    });
    expect(report.parts).toEqual([
      { path: 's1.json', index: 1, run_id: '20261201-000000.001-00000001', status: 'passed' },
      { path: 's2.json', index: 2, run_id: '20261201-000000.002-00000002', status: 'failed' },
      { path: 's3.json', index: 3, run_id: '20261201-000000.003-00000003', status: 'passed' },
    ]);
    expect(report.failed_tests.map((t) => t.test_name)).toEqual(['c2']);
    expect('shard' in report || 'tests' in report).toBe(false);
    expect(tests.map((t) => [t.name, t.status, t.durationMs])).toEqual([
      ['a1', 'passed', 5], ['b1', 'passed', 5], ['a2', 'passed', 5], ['b2', 'passed', 5], ['c2', 'failed', 5], ['a3', 'passed', 5], ['b3', 'passed', 5]]);
    expect(tests[4]).toMatchObject({ message: 'c2 broke' });
  });

  it('orders the parts by shard whatever the order of the files', () => {
    const { report } = merge([input('b.json', shard(2, 2)), input('a.json', shard(1, 2))]);
    expect(report.parts?.map((p) => [p.index, p.path])).toEqual([[1, 'a.json'], [2, 'b.json']]);
    expect(report.project_root).toBe('/ci/1');
  });

  it('passes with an empty shard beside shards that ran tests; no_tests only when no shard ran one', () => {
    const empty = (index: number) => shard(index, 2, { status: 'no_tests', exit_code: 4, summary: { run: 0, passed: 0, failures: 0, errors: 0, skips: 0 }, tests: [], shard: { index, count: 2, units: [], partition: 'p1' } });
    expect([merge(inputs(shard(1, 2), empty(2))).report.status, merge(inputs(shard(1, 2), empty(2))).report.exit_code]).toEqual(['passed', 0]);
    const none = merge(inputs(empty(1), empty(2))).report;
    expect([none.status, none.exit_code, none.summary.run]).toEqual(['no_tests', 4, 0]);
    const allowed = mergeShards(inputs(empty(1), empty(2)), { cwd: '/here', allowNoTests: true }).report;
    expect([allowed.status, allowed.exit_code]).toEqual(['no_tests', 0]);
  });

  it('keeps an unknown count unknown, never 0', () => {
    const unknown = shard(2, 2, { summary: { run: 2, passed: 2, failures: 0, errors: 0, skips: null } });
    expect(merge(inputs(shard(1, 2), unknown)).report.summary).toEqual({ run: 4, passed: 4, failures: 0, errors: 0, skips: null });
  });

  it('caps the failures in shard order, counting those the shards left out', () => {
    const failing = (index: number, names: string[], left?: number) => shard(index, 2, {
      status: 'failed', exit_code: 1, failed_tests: names.map((n) => failure(n, `test/${index}.test.js`)), ...(left === undefined ? {} : { truncated: { failed_tests: left } }),
      summary: { run: 4, passed: 0, failures: 4, errors: 0, skips: 0 },
    });
    const list = inputs(failing(1, ['x1', 'x2'], 2), failing(2, ['y1', 'y2', 'y3']));
    const capped = merge(list, 3).report;
    expect([capped.failed_tests.map((t) => t.test_name), capped.truncated]).toEqual([['x1', 'x2', 'y1'], { failed_tests: 4 }]);
    const all = merge(list, null).report;
    expect([all.failed_tests.length, all.truncated]).toEqual([5, { failed_tests: 2 }]);
    expect(merge(list).report.failed_tests.length).toBe(5);
  });

  it('is error naming a missing shard, and every one missing', () => {
    expect(problems(inputs(shard(1, 4), shard(2, 4)))).toBe('the shard reports cannot be merged: missing shard 3 of 4; missing shard 4 of 4');
  });

  it('is error naming a shard given twice, and its files', () => {
    expect(problems([input('a.json', shard(1, 2)), input('b.json', shard(2, 2)), input('c.json', shard(2, 2))]))
      .toBe('the shard reports cannot be merged: shard 2 of 2 given twice: b.json, c.json');
  });

  it('is error naming a shard of another partition or of another count', () => {
    expect(problems([input('a.json', shard(1, 2)), input('b.json', shard(2, 2, {}, 'p2')), input('c.json', shard(2, 2))]))
      .toBe('the shard reports cannot be merged: b.json is of partition p2, not p1 as a.json: a shard of another partition (other units, timings or options)');
    expect(problems([input('a.json', shard(1, 2)), input('b.json', shard(2, 3)), input('c.json', shard(2, 2))]))
      .toBe('the shard reports cannot be merged: b.json is shard 2 of 3, not of the 2 shards of a.json: a shard of another partition');
    // A foreign shard does not stand in for the missing one.
    expect(problems([input('a.json', shard(1, 2)), input('b.json', shard(2, 2, {}, 'p2'))])).toBe(
      'the shard reports cannot be merged: b.json is of partition p2, not p1 as a.json: a shard of another partition (other units, timings or options); missing shard 2 of 2');
  });

  it('is error for a unit or a test in two shards', () => {
    const twice = shard(2, 2, { shard: { index: 2, count: 2, units: ['test/2.test.js', 'test/1.test.js'], partition: 'p1' } });
    expect(problems(inputs(shard(1, 2), twice))).toBe('the shard reports cannot be merged: unit test/1.test.js is in shard 1 (s1.json) and shard 2 (s2.json)');
    const again = shard(2, 2, { tests: [test('a2', 'test/2.test.js'), test('b1', 'test/1.test.js')] });
    expect(problems(inputs(shard(1, 2), again))).toBe('the shard reports cannot be merged: test "b1" (test/1.test.js) is in shard 1 (s1.json) and shard 2 (s2.json)');
    // The same name in another file is another test.
    expect(merge(inputs(shard(1, 2), shard(2, 2, { tests: [test('b1', 'test/2.test.js')] }))).report.status).toBe('passed');
    // Without a file (go's passing tests), the suite tells them apart: the same name in two packages is two tests.
    const inPackage = (name: string, suite: string) => ({ ...test(name, ''), file: null, suite });
    const [alpha, beta] = [shard(1, 2, { tests: [inPackage('TestAdd', 'm/alpha')] }), shard(2, 2, { tests: [inPackage('TestAdd', 'm/beta')] })];
    expect(merge(inputs(alpha, beta)).report.status).toBe('passed');
    expect(problems(inputs(alpha, shard(2, 2, { tests: [inPackage('TestAdd', 'm/alpha')] })))).toBe('the shard reports cannot be merged: test "TestAdd" (m/alpha) is in shard 1 (s1.json) and shard 2 (s2.json)');
  });

  it('is error when the shards hold fewer units than their partition says it has', () => {
    const withTotal = (index: number, total: number) => shard(index, 2, { shard: { index, count: 2, units: [`test/${index}.test.js`], partition: 'p1', total_units: total } });
    expect(merge(inputs(withTotal(1, 2), withTotal(2, 2))).report.status).toBe('passed');
    expect(problems(inputs(withTotal(1, 3), withTotal(2, 3)))).toBe('the shard reports cannot be merged: the shards hold 2 units, but their partition has 3');
  });

  it('names five tests in two shards and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) => test(`t${i}`, 'test/x.test.js'));
    const message = problems(inputs(shard(1, 2, { tests: many }), shard(2, 2, { tests: many })));
    expect(message.split('; ').slice(4)).toEqual(['test "t4" (test/x.test.js) is in shard 1 (s1.json) and shard 2 (s2.json)', '3 more tests are in two shards']);
  });

  it('is error for a shard that did not complete, naming its status', () => {
    for (const status of ['error', 'timed_out', 'interrupted', 'abandoned', 'nothing_to_rerun'] as const) {
      expect(problems(inputs(shard(1, 2), shard(2, 2, { status })))).toBe(
        `the shard reports cannot be merged: s2.json: shard 2 of 2 did not complete: its status is ${status}, and only a passed, failed or no_tests run holds all its tests; missing shard 2 of 2`);
    }
  });

  it('names the harness error of a shard that did not complete, told before what else its report lacks', () => {
    const { tests: _, ...broken } = shard(2, 2, { status: 'error', error: { code: 'RUNNER_MISSING', message: 'no jest' } });
    expect(problems(inputs(shard(1, 2), broken as RunReport))).toBe('the shard reports cannot be merged: s2.json: shard 2 of 2 did not complete: its status is error (RUNNER_MISSING), '
      + 'and only a passed, failed or no_tests run holds all its tests; missing shard 2 of 2');
    const { shard: __, ...unsharded } = broken;
    expect(problems(inputs(shard(1, 2), unsharded as RunReport))).toContain('s2.json: the run did not complete: its status is error (RUNNER_MISSING)');
  });

  it('is error for a report that is not of a shard, not of a run, not a report or not JSON, naming each file', () => {
    const { shard: _, ...whole } = shard(2, 2);
    expect(problems([input('a.json', shard(1, 2)), input('b.json', whole), input('c.json', { ...shard(2, 2), source: 'merged' }),
      input('d.json', { hello: 1 }), { path: 'e.json', text: '{"schema_version": 1,' }, { path: 'f.json', unreadable: 'ENOENT' }, { path: 'g.json', text: '\n' }]))
      .toBe([
        'the shard reports cannot be merged: b.json: is not a shard report (no "shard": it was not run with --shard i/n)',
        'c.json: is not the report of a run (source "merged"); merge takes the reports of `run-tests --shard i/n --json`',
        'd.json: is not a run-tests JSON report (schema_version 1)',
        `e.json: is not JSON (${jsonError('{"schema_version": 1,')})`,
        'f.json: could not be read: ENOENT',
        'g.json: is empty: the shard printed no report (was it stopped before its end?)',
        'missing shard 2 of 2',
      ].join('; '));
  });

  it('is error for a shard report missing what the merge relies on', () => {
    const { tests: _, ...untested } = shard(2, 2);
    expect(problems(inputs(shard(1, 2), untested as RunReport))).toContain('s2.json: is not a well-formed shard report: it lists no "tests"');
    expect(problems(inputs(shard(1, 2), shard(3, 2)))).toContain('s2.json: is not a well-formed shard report: "shard.index" is 3, not 1 to 2');
  });

  it('keeps a unit named __proto__ a unit', () => {
    const odd = JSON.parse(JSON.stringify(shard(2, 2)).replace('"unit_durations":{', '"unit_durations":{"__proto__":7,')) as RunReport;
    const { report } = merge([input('s1.json', shard(1, 2)), { path: 's2.json', text: JSON.stringify(odd) }]);
    expect(Object.keys(report.unit_durations ?? {})).toEqual(['test/1.test.js', '__proto__', 'test/2.test.js']);
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
