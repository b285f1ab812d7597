import { beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { HistoryDocument } from '../../src/model/history.js';
import type { TestStats } from '../../src/model/history.js';
import { validateHistory } from '../support/schemas.js';
import { copyFixture, runCli, runJson } from './helpers.js';

/** Which of the 30 runs (1-based) the `flips` test fails in: P P P P F F P … */
const FAILING_RUNS = new Set([5, 6, 12, 18, 19, 20, 27]);
const RUNS = 30;

/** `run-tests history --json`, checked against the schema. */
async function historyJson(args: readonly string[], cwd?: string): Promise<HistoryDocument> {
  const { exitCode, stdout, stderr } = await runCli(['history', ...args, '--json'], { cwd });
  expect([exitCode, stderr]).toEqual([0, '']);
  const document = JSON.parse(stdout) as HistoryDocument;
  if (!validateHistory(document)) throw new Error(`history does not match the schema: ${JSON.stringify(validateHistory.errors)}`);
  return document;
}

/** The counts of each test, by name, without the timing-dependent fields. */
const counts = (tests: readonly TestStats[]): [string, string | null, number, number, number, number, string | null][] =>
  tests.map((t) => [t.name, t.file, t.runs, t.failures, t.flaky, t.flips, t.last]);

/** The fixture run `RUNS` times, one after another, `flips` failing in FAILING_RUNS. */
async function recordedProject(): Promise<string> {
  const dir = await copyFixture('node-test-history');
  for (let n = 1; n <= RUNS; n += 1) {
    await fs.writeFile(path.join(dir, 'outcome.txt'), FAILING_RUNS.has(n) ? 'fail\n' : 'pass\n');
    const { exitCode, report } = await runJson(['--cwd', dir, '--keep-runs', '2']);
    expect([exitCode, report.status, report.summary.failures]).toEqual([1, 'failed', FAILING_RUNS.has(n) ? 2 : 1]);
  }
  return dir;
}

describe('run-tests history', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await recordedProject();
  }, 120_000);

  it('over 30 recorded runs: exact runs, failures and flips per test, the flippers first', async () => {
    const document = await historyJson(['--cwd', dir]);
    expect(document.warnings).toEqual([]);
    expect(document.runs).toHaveLength(RUNS);
    // --keep-runs 2 pruned the run directories; the index keeps every run.
    expect(fs.readdirSync(path.join(dir, '.run-tests/runs')).filter((n) => !n.startsWith('.'))).toHaveLength(2);
    expect(document.runs.map((r) => [r.status, r.source, r.framework, r.summary.failures, r.shard])).toEqual(
      Array.from({ length: RUNS }, (_, i) => ['failed', 'store', 'node-test', FAILING_RUNS.has(i + 1) ? 2 : 1, null]));
    expect(counts(document.tests)[0]).toEqual(['flips', 'test/flip.test.js', 30, 7, 0, 8, 'passed']);
    expect(counts(document.tests).slice(1).sort()).toEqual([
      ['broken', 'test/broken.test.js', 30, 30, 0, 0, 'failed'],
      ['steady', 'test/flip.test.js', 30, 0, 0, 0, 'passed'],
    ]);
    for (const test of document.tests) {
      expect(test.median_ms).not.toBeNull();
      expect(test.p95_ms).toBeGreaterThanOrEqual(test.median_ms ?? Infinity);
      expect(test.trend).not.toBeNull();
    }
  });

  it('--limit reads the newest runs only', async () => {
    const document = await historyJson(['--cwd', dir, '--limit', '10']);
    expect(document.runs).toHaveLength(10);
    // Runs 21-30: one failure (27), two flips.
    expect(counts(document.tests.filter((t) => t.name === 'flips'))).toEqual([['flips', 'test/flip.test.js', 10, 1, 0, 2, 'passed']]);
  });

  it('an operand selects tests by name or by file; the table shows them', async () => {
    expect(counts((await historyJson(['--cwd', dir, 'stead'])).tests)).toEqual([['steady', 'test/flip.test.js', 30, 0, 0, 0, 'passed']]);
    expect((await historyJson(['--cwd', dir, 'test/flip.test.js'])).tests.map((t) => t.name).sort()).toEqual(['flips', 'steady']);
    const { exitCode, stdout } = await runCli(['history', '--cwd', dir, 'flips']);
    expect(exitCode).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${dir}: 30 runs, from \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z to \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; 1 test$`));
    expect(lines[1]).toBe('runs  fail  flaky  flips  median     p95  trend   last    test');
    expect(lines[2]).toMatch(/^ {2}30 {5}7 {6}0 {6}8 +\d+ ms +\d+ ms  (steady|slower|faster) +passed  test\/flip\.test\.js  flips$/);
    expect(lines.slice(3)).toEqual(['']);
  });

  it('--from a merged report adds each shard as a run', async () => {
    const shards = await copyFixture('node-test-history');
    await fs.writeFile(path.join(shards, 'outcome.txt'), 'fail\n');
    for (const index of [1, 2]) {
      const { stdout } = await runCli(['--shard', `${index}/2`, '--json'], { cwd: shards });
      await fs.writeFile(path.join(shards, `shard-${index}.json`), stdout);
    }
    const merged = await runCli(['merge', 'shard-1.json', 'shard-2.json', '--json'], { cwd: shards });
    expect(merged.exitCode).toBe(1);
    await fs.writeFile(path.join(shards, 'merged.json'), merged.stdout);
    // From the first project's directory: the parts are found beside the merged report.
    const document = await historyJson(['--from', path.join(shards, 'merged.json')], dir);
    expect(document.warnings).toEqual([]);
    expect(document.runs).toHaveLength(RUNS + 2);
    expect(document.runs.slice(RUNS).map((r) => [r.source, r.shard?.index, r.shard?.count])).toEqual([
      [path.join(shards, 'shard-1.json'), 1, 2],
      [path.join(shards, 'shard-2.json'), 2, 2],
    ]);
    // The merged run failed `flips` after the 30th run passed it: one flip more.
    expect(counts(document.tests.filter((t) => t.name !== 'steady')).sort()).toEqual([
      ['broken', 'test/broken.test.js', 31, 31, 0, 0, 'failed'],
      ['flips', 'test/flip.test.js', 31, 8, 0, 9, 'failed'],
    ]);
  }, 60_000);

  it('says where there is no history, and refuses a --from file that is not there', async () => {
    const empty = await copyFixture('node-test-history');
    const none = await runCli(['history', '--cwd', empty]);
    expect([none.exitCode, none.stdout]).toEqual([0, `no history recorded in ${empty}: run the tests first\n`]);
    const missing = await runCli(['history', '--cwd', empty, '--from', path.join(empty, 'nowhere.json')]);
    expect([missing.exitCode, missing.stderr]).toEqual([2, `run-tests: file ${JSON.stringify(path.join(empty, 'nowhere.json'))} does not exist (in ${process.cwd()})\n`]);
  });
});
