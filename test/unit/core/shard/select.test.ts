import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selectShard, type ShardInput } from '../../../../src/core/shard/select.js';
import { mergeUnitDurations, reportedTests, unitDurations } from '../../../../src/core/shard/report-fields.js';
import type { Runner, ShardSupport, UnitsRequest } from '../../../../src/runners/types.js';
import { Interrupts, type RunRequest } from '../../../../src/model/request.js';
import { runListing } from '../../../../src/process/listing.js';
import type { FailedTestRecord, TestResult } from '../../../../src/model/results.js';
import { SCHEMA_VERSION, type RunReport } from '../../../../src/model/report.js';
import { MESSAGE_LIMIT_BYTES } from '../../../../src/parsers/fields.js';
import { waitFor } from '../../../support/wait.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-select-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A runner whose units are the files given: what --shard asks of a runner's ShardSupport. */
const fakeRunner = (selects: ShardSupport['selects'], bytes: Record<string, number>, unitOf?: ShardSupport['unitOf']): Runner => ({
  id: 'fake',
  shard: {
    selects,
    units: async ({ files }: UnitsRequest) => Object.entries(bytes).filter(([name]) => files.length === 0 || files.some((f: string) => name.startsWith(f))).map(([name, size]) => ({ name, bytes: size })),
    ...(unitOf ? { unitOf } : {}),
  },
}) as unknown as Runner;

const sizes = { 'test/a.js': 400, 'test/b.js': 300, 'test/c.js': 200, 'test/d.js': 100, 'other/e.js': 50 };

const input = (over: Partial<ShardInput> & { shard: { index: number; count: number }; timings?: string; cwd?: string; root?: string }): ShardInput => {
  const root = over.root ?? path.join(tmp, 'app');
  return {
    request: { cwd: over.cwd ?? root, env: {}, shard: over.shard, timings: over.timings ?? null } as unknown as RunRequest,
    runner: fakeRunner('files', sizes),
    root,
    facts: {} as ShardInput['facts'],
    files: [],
    artifactsDir: path.join(root, '.run-tests'),
    chosen: null,
    interrupts: new Interrupts(),
    ...over,
  };
};

const record = (name: string, file: string | null): FailedTestRecord => ({ test_name: name, file, line: 1, status: 'failed', message: 'no', id: `${file}::${name}` });

describe('selectShard', () => {
  it('deals every unit to exactly one shard, by file size without recorded durations', async () => {
    const shards = await Promise.all([1, 2, 3].map((index) => selectShard(input({ shard: { index, count: 3 } }))));
    expect(shards.map((s) => s.files)).toEqual([['test/a.js'], ['other/e.js', 'test/b.js'], ['test/c.js', 'test/d.js']]);
    expect(shards.map((s) => s.info.partition).every((digest) => digest === shards[0]?.info.partition)).toBe(true);
    expect(shards[1]?.info).toEqual({ index: 2, count: 3, units: ['other/e.js', 'test/b.js'], partition: shards[0]?.info.partition, total_units: 5, balanced_by: 'file sizes' });
    expect(shards.every((s) => !s.empty && s.units === undefined)).toBe(true);
  });

  it('gives the same partition to checkouts at different paths', async () => {
    const one = await selectShard(input({ shard: { index: 1, count: 2 }, root: '/home/runner/work/app' }));
    const two = await selectShard(input({ shard: { index: 1, count: 2 }, root: '/builds/group/app' }));
    expect(two.info).toEqual(one.info);
  });

  it('plans a part as units for a runner that selects units, never as files', async () => {
    const shard = await selectShard(input({ shard: { index: 1, count: 2 }, runner: fakeRunner('units', sizes) }));
    expect(shard.files).toEqual([]);
    expect(shard.units).toEqual(['other/e.js', 'test/a.js', 'test/d.js']);
  });

  it('says a part with no units is empty, so that no runner starts', async () => {
    const shard = await selectShard(input({ shard: { index: 4, count: 4 }, files: ['test/b', 'test/c', 'test/d'] }));
    expect(shard.empty).toBe(true);
    expect(shard.info.units).toEqual([]);
    expect(shard.warnings).toEqual(['shard 4/4 has no units: 3 units among 4 shards']);
  });

  it('balances by --timings, the median for units it does not name', async () => {
    const timings = path.join(tmp, 'timings.json');
    const report = { schema_version: SCHEMA_VERSION, status: 'passed', project_root: '/ci/app', unit_durations: { 'test/d.js': 5000, 'test/c.js': 10, 'test/b.js': 20 } };
    fs.writeFileSync(timings, JSON.stringify(report));
    const shards = await Promise.all([1, 2].map((index) => selectShard(input({ shard: { index, count: 2 }, timings }))));
    // d 5000 alone; a, e take the median (20): a, b, c, e together 70.
    expect(shards.map((s) => s.files)).toEqual([['test/d.js'], ['other/e.js', 'test/a.js', 'test/b.js', 'test/c.js']]);
    expect(shards[0]?.info.balanced_by).toBe(`--timings ${timings}`);
    expect(shards[0]?.warnings).toEqual([]);
  });

  it('falls back to file sizes, saying so, when --timings names none of the units', async () => {
    const timings = path.join(tmp, 'other.json');
    fs.writeFileSync(timings, JSON.stringify({ schema_version: 1, status: 'passed', project_root: '/ci', unit_durations: { 'x.js': 1 } }));
    const shard = await selectShard(input({ shard: { index: 1, count: 3 }, timings, cwd: tmp }));
    expect(shard.files).toEqual(['test/a.js']);
    expect(shard.info.balanced_by).toBe('file sizes');
    expect(shard.warnings).toEqual(['--timings other.json holds no duration of any of the 5 units: balanced by file sizes']);
  });

  it('with --failed-only, deals out only the failures\' units and reruns each shard\'s own', async () => {
    const failures = [record('a1', 'test/a.js'), record('a2', 'test/a.js'), record('c1', 'test/c.js'), record('x1', null)];
    const chosen = { selected: failures, runnable: failures, warnings: [] };
    const [one, two] = await Promise.all([1, 2].map((index) => selectShard(input({ shard: { index, count: 2 }, chosen }))));
    expect(one?.info.units).toEqual(['test/a.js']);
    expect(one?.chosen?.runnable.map((r) => r.test_name)).toEqual(['a1', 'a2', 'x1']);
    expect(two?.chosen?.runnable.map((r) => r.test_name)).toEqual(['c1']);
    expect(two?.chosen?.selected.map((r) => r.test_name)).toEqual(['c1']);
    expect(two?.info.total_units).toBe(2);
    expect(two?.warnings).toEqual(['1 recorded failure(s) belong to no unit fake lists: shard 1/2 reruns them']);
  });

  it('refuses a runner without ShardSupport, naming it', async () => {
    await expect(selectShard(input({ shard: { index: 1, count: 2 }, runner: { id: 'plain' } as Runner }))).rejects.toThrow(/--shard: plain cannot be sharded/);
  });
});

describe('an interrupted listing', () => {
  it('is stopped at once with all it started, and the shard fails rather than waits', async () => {
    // A listing that would take 30 s, and a process it started in its group.
    const started = path.join(tmp, 'listing-started');
    const slow: Runner = { id: 'slow', shard: { selects: 'files', units: async () => {
      const outcome = await runListing({ argv: ['sh', '-c', `sleep 30 & touch '${started}'; sleep 30`], cwd: tmp, env: process.env });
      throw new Error(`listing ended by ${outcome.signal}`);
    } } } as unknown as Runner;
    const interrupts = new Interrupts();
    const selecting = selectShard(input({ shard: { index: 1, count: 2 }, runner: slow, interrupts }));
    // The interrupt comes while the listing runs, however late the scheduler started it.
    await waitFor('the listing to start', () => fs.existsSync(started));
    interrupts.raise('SIGINT');
    // Killed when the interrupt came; left alone, it would have ended by itself (signal null).
    await expect(selecting).rejects.toThrow('listing ended by SIGKILL');
  });
});

describe('report fields', () => {
  const tests: TestResult[] = [
    { id: 'a1', name: 'a one', file: 'test/a.js', line: 2, status: 'passed', durationMs: 1.25 },
    { id: 'a2', name: 'a two', file: 'test/a.js', line: 4, status: 'failed', message: 'x'.repeat(5000), durationMs: 2.5, suite: 'A' },
    { id: 'b1', name: 'b one', file: 'test/b.js', line: 1, status: 'skipped' },
    { id: 'n1', name: 'no file', file: null, line: null, status: 'passed', durationMs: 9 },
  ];

  it('unit_durations sums the durations per unit; a unit without any is absent, never 0', () => {
    expect(unitDurations(tests, (t) => t.file)).toEqual({ 'test/a.js': 3.75 });
    expect(unitDurations(tests, (t) => t.suite ?? null)).toEqual({ A: 2.5 });
    expect(unitDurations([tests[2] as TestResult], (t) => t.file)).toBeUndefined();
  });

  it('unit_durations takes a package\'s own time where the report gives one, unless replayed from the cache', () => {
    const go: TestResult[] = [
      { id: 'm/lib TestA', name: 'TestA', file: null, line: null, status: 'passed', durationMs: 0, suite: 'm/lib' },
      { id: 'm/cmd TestB', name: 'TestB', file: null, line: null, status: 'passed', durationMs: 20, suite: 'm/cmd' },
    ];
    const dirOf = (t: { suite?: string }) => (t.suite ?? '').replace(/^m\/?/, '') || '.';
    const packages = [{ name: 'm/lib', cached: false, elapsed_ms: 1500 }, { name: 'm/cmd', cached: true, elapsed_ms: 0 }, { name: 'm', cached: false, elapsed_ms: 300 }];
    expect(unitDurations(go, dirOf, packages)).toEqual({ '.': 300, cmd: 20, lib: 1500 });
  });

  it('tests lists every result, a failure\'s message bounded as failed_tests\' are', () => {
    const listed = reportedTests(tests, '/app/.run-tests/runs/x/test.log');
    expect(listed.map((t) => [t.id, t.status, t.duration_ms, t.suite ?? null])).toEqual([['a1', 'passed', 1.25, null], ['a2', 'failed', 2.5, 'A'], ['b1', 'skipped', null, null], ['n1', 'passed', 9, null]]);
    expect(listed[1]?.message?.length).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES + 200);
    expect(listed[1]?.message).toContain('/app/.run-tests/runs/x/test.log');
    expect('message' in (listed[0] ?? {})).toBe(false);
  });

  it('a report of several projects keys them relative to where run-tests was started', () => {
    const project = (root: string, durations?: Record<string, number>) => ({ project_root: root, ...(durations ? { unit_durations: durations } : {}) }) as RunReport;
    expect(mergeUnitDurations('/m', [project('/m/a', { 'test/a.js': 1 }), project('/m/b'), project('/m', { 'top.js': 2 })])).toEqual({ unit_durations: { 'a/test/a.js': 1, 'top.js': 2 } });
    expect(mergeUnitDurations('/m', [project('/m/b')])).toEqual({});
  });
});
