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

/** Runs the full suite, then every shard of 1..4, and checks that each n deals the
 * units out once and runs the full run's tests exactly. Returns the units, and the
 * units of every shard. */
export async function expectShardsMatchFullRun(dir: string): Promise<{ units: string[]; parts: string[][] }> {
  const junit = path.join(dir, 'full.xml');
  const full = await runJson(['--cwd', dir, '--junit', junit]);
  const expected = sorted(await junitTests(junit));
  expect(expected.length).toBeGreaterThan(0);
  let units: string[] = [];
  const parts: string[][] = [];
  for (let count = 1; count <= 4; count += 1) {
    const shards: RunReport[] = [];
    for (let index = 1; index <= count; index += 1) shards.push((await runJson(['--cwd', dir, '--shard', `${index}/${count}`])).report);
    parts.push(...shards.map((s) => [...(s.shard?.units ?? [])]));
    const given = parts.slice(-count).flat();
    // Each unit in exactly one shard, every shard of the same partition.
    expect(new Set(given).size).toBe(given.length);
    expect(new Set(shards.map((s) => s.shard?.partition)).size).toBe(1);
    if (count === 1) units = sorted(given);
    expect(sorted(given)).toEqual(units);
    // A shard ran only tests of its own units.
    for (const shard of shards) expect((shard.tests ?? []).filter((t) => !(shard.shard?.units ?? []).includes(t.file ?? ''))).toEqual([]);
    const ran = shards.flatMap(asJunit);
    expect([count, sorted(ran)]).toEqual([count, expected]);
    expect([count, shards.map((s) => s.summary).reduce(add)]).toEqual([count, full.report.summary]);
  }
  return { units, parts };
}

