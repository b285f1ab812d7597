/** What every --shard end-to-end test checks: for n = 1..4, the shards' `tests` together
 * are the whole run's, by file, name and status, none in two shards, and their summed
 * counts are the whole run's summary. */
import { expect } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import type { Summary } from '../../src/model/results.js';
import { failures, runCli, runJson } from './helpers.js';

const COUNTS = ['run', 'passed', 'failures', 'errors', 'skips'] as const;

/** A test as the comparison sees it. */
const keyOf = (t: { file: string | null; name: string; status: string }): string => `${t.file ?? '(no file)'} | ${t.name} | ${t.status}`;

/** The whole run's report, also written to a file beside the project for `--timings`,
 * so every shard of a partition is dealt from the same durations (the local run records
 * change with each shard that runs). */
export async function wholeRun(dir: string, env: NodeJS.ProcessEnv = {}): Promise<{ report: RunReport; timings: string }> {
  const { stdout } = await runCli(['--cwd', dir, '--json'], { env });
  const timings = path.join(path.dirname(dir), `${path.basename(dir)}-whole.json`);
  await fs.writeFile(timings, stdout);
  return { report: JSON.parse(stdout) as RunReport, timings };
}

/** Runs shard i/n for i = 1..n and checks them against the whole run; returns the units
 * each shard was given. */
export async function expectShardsCover(dir: string, whole: RunReport, timings: string, n: number, env: NodeJS.ProcessEnv = {}): Promise<string[][]> {
  const reports: RunReport[] = [];
  const files: string[] = [];
  for (let i = 1; i <= n; i += 1) {
    const { report } = await runJson(['--cwd', dir, '--shard', `${i}/${n}`, '--timings', timings], { env });
    reports.push(report);
    files.push(`${dir}-shard-${i}-of-${n}.json`);
    await fs.writeJson(files[files.length - 1] ?? '', report);
  }
  // One partition, and every unit in exactly one part.
  expect(new Set(reports.map((r) => r.shard?.partition)).size).toBe(1);
  const units = reports.map((r) => [...(r.shard?.units ?? [])]);
  expect(units.flat().sort()).toEqual([...new Set(units.flat())].sort());
  // Every test the whole run ran, in exactly one shard.
  const seen = new Map<string, number>();
  for (const [i, report] of reports.entries()) {
    for (const key of (report.tests ?? []).map(keyOf)) {
      const before = seen.get(key);
      if (before !== undefined && before !== i) throw new Error(`${key} ran in shard ${before + 1} and shard ${i + 1} of ${n}`);
      seen.set(key, i);
    }
  }
  const shardTests = reports.flatMap((r) => (r.tests ?? []).map(keyOf)).sort();
  // Shard 1/1 is the command wholeTestKeys runs: the first one run in a copy lists the
  // whole suite's tests that every later n is checked against.
  const known = wholeKeys.get(dir);
  if (n === 1 && known === undefined) wholeKeys.set(dir, shardTests);
  else expect(shardTests).toEqual(known ?? await wholeTestKeys(dir, timings, env));
  expect(summed(reports)).toEqual(counts(whole.summary));
  // `run-tests merge` of the shards says what the whole run said.
  const { report: merged } = await runJson(['merge', ...files]);
  expect([merged.source, merged.summary, sortedFailures(merged)]).toEqual(['merged', whole.summary, sortedFailures(whole)]);
  return units;
}

/** The tests of the whole suite as one shard lists them (a run without --shard lists
 * none), checked once against the plain run's counts by the caller's expectShardsCover:
 * the tests of its shard 1/1 where it ran n = 1 (the same command), else a run of its own. */
const wholeKeys = new Map<string, string[]>();
async function wholeTestKeys(dir: string, timings: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const known = wholeKeys.get(dir);
  if (known !== undefined) return known;
  const { report } = await runJson(['--cwd', dir, '--shard', '1/1', '--timings', timings], { env });
  const keys = (report.tests ?? []).map(keyOf).sort();
  wholeKeys.set(dir, keys);
  return keys;
}

const counts = (summary: Summary): Record<string, number | null> => Object.fromEntries(COUNTS.map((k) => [k, summary[k]]));

/** The shards' counts added up; a shard that ran nothing (an empty part) adds nothing. */
function summed(reports: readonly RunReport[]): Record<string, number | null> {
  return Object.fromEntries(COUNTS.map((k) => [k, reports.reduce((sum, r) => sum + (r.summary[k] ?? 0), 0)]));
}

const sortedFailures = (report: RunReport): string[] => failures(report).map((f) => JSON.stringify(f)).sort();
