/** What the --shard end-to-end tests of the JavaScript runners check: for n = 1..4, the
 * tests the n shards ran are the full run's exactly (by file, name and outcome), none in
 * two shards, and their counts add up to the full run's. */
import { expect } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, junitTests, REPO, runJson } from './helpers.js';

/** A temp copy of a fixture with run-tests' own node_modules and the extra files. */
export async function fixture(name: string, extra: Record<string, string>): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return addFiles(dir, extra);
}

export async function addFiles(dir: string, extra: Record<string, string>): Promise<string> {
  for (const [file, text] of Object.entries(extra)) await fs.outputFile(path.join(dir, file), text);
  return dir;
}

const OUTCOME: Readonly<Record<string, string>> = { passed: 'passed', failed: 'failure', error: 'error', skipped: 'skipped' };

/** A shard's tests as the JUnit file of a full run lists them: [file, name, outcome]. */
const asJunit = (report: RunReport): [string, string, string][] =>
  (report.tests ?? []).map((t) => [t.file ?? '', t.name, OUTCOME[t.status] ?? t.status]);

const sorted = <T>(items: readonly T[]): T[] => [...items].sort((a, b) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
});

type Counts = RunReport['summary'];
/** Counts summed; an unknown one (null) makes the sum NaN, which equals no count. */
const add = (a: Counts, b: Counts): Counts => {
  const sum = (key: keyof Counts): number => (a[key] ?? Number.NaN) + (b[key] ?? Number.NaN);
  return { run: sum('run'), passed: sum('passed'), failures: sum('failures'), errors: sum('errors'), skips: sum('skips') };
};

/** Runs every shard of each count (1..4), then the full suite, and checks that each
 * count deals the units out once and runs the full run's tests exactly. The shards run
 * first: with no run recorded they are balanced by file sizes, the same parts on every
 * run of the test (a shard's own durations are not recorded). Returns the units, and the
 * units of every shard. */
export async function expectShardsMatchFullRun(dir: string, counts: readonly number[] = [1, 2, 3, 4]): Promise<{ units: string[]; parts: string[][] }> {
  const runs: RunReport[][] = [];
  for (const count of counts) {
    const shards: RunReport[] = [];
    for (let index = 1; index <= count; index += 1) shards.push((await runJson(['--cwd', dir, '--shard', `${index}/${count}`])).report);
    runs.push(shards);
  }
  const junit = path.join(dir, 'full.xml');
  const full = await runJson(['--cwd', dir, '--junit', junit]);
  const expected = sorted(await junitTests(junit));
  expect(expected.length).toBeGreaterThan(0);
  const units = sorted(runs[0]?.flatMap((shards) => shards.shard?.units ?? []) ?? []);
  for (const shards of runs) {
    const count = shards.length;
    const given = shards.flatMap((s) => s.shard?.units ?? []);
    // Each unit in exactly one shard, every shard of the same partition, by file sizes.
    expect(new Set(given).size).toBe(given.length);
    expect(sorted(given)).toEqual(units);
    expect(new Set(shards.map((s) => `${s.shard?.partition} ${s.shard?.balanced_by}`))).toEqual(new Set([`${shards[0]?.shard?.partition} file sizes`]));
    // A shard ran only tests of its own units.
    for (const shard of shards) expect((shard.tests ?? []).filter((t) => !(shard.shard?.units ?? []).includes(t.file ?? ''))).toEqual([]);
    expect([count, sorted(shards.flatMap(asJunit))]).toEqual([count, expected]);
    expect([count, shards.map((s) => s.summary).reduce(add)]).toEqual([count, full.report.summary]);
  }
  return { units, parts: runs.flat().map((s) => [...(s.shard?.units ?? [])]) };
}
