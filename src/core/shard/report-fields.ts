import path from 'node:path';
import type { ReportedTest, RunReport, ShardInfo } from '../../model/report.js';
import type { Parts } from '../build-report.js';
import type { PackageResult, TestResult } from '../../model/results.js';
import { isFailure, recordOf } from '../failures.js';
import { addDuration } from './timings.js';
import type { UnitOf } from './timings-file.js';

/** What a run's report adds for --shard: every report's unit_durations; a shard's part
 * and the tests it ran. */
export function shardParts(unitOf: UnitOf, shard: ShardInfo | null, tests: readonly TestResult[], log: string, packages: readonly PackageResult[] = []): Pick<Parts, 'unitDurations' | 'shard'> {
  const durations = unitDurations(tests, unitOf, packages);
  return {
    ...(durations === undefined ? {} : { unitDurations: durations }),
    ...(shard === null ? {} : { shard: { info: shard, tests: reportedTests(tests, log) } }),
  };
}

/** `unit_durations`: the ms of each unit's tests that gave a duration, summed. A unit
 * none of whose tests gave one is absent (unknown, never 0); so is the field when no
 * unit has one. A package whose own time the report gives (go's, to the ms) takes that
 * instead: its tests' times leave out init and TestMain, and go gives them in 10 ms
 * steps. Not a package replayed from the runner's cache: that took no time. */
export function unitDurations(tests: readonly TestResult[], unitOf: UnitOf, packages: readonly PackageResult[] = []): RunReport['unit_durations'] {
  const sums = new Map<string, number>();
  for (const test of tests) {
    if (test.durationMs === undefined) continue;
    const unit = unitOf(test);
    if (unit !== null) addDuration(sums, unit, test.durationMs);
  }
  for (const pkg of packages) {
    const unit = pkg.elapsed_ms === undefined || pkg.cached ? null : unitOf({ id: pkg.name, name: pkg.name, file: null, suite: pkg.name });
    if (unit !== null && pkg.elapsed_ms !== undefined) sums.set(unit, pkg.elapsed_ms);
  }
  return sums.size === 0 ? undefined : Object.fromEntries([...sums].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A shard's `tests`: every result, a failure's message bounded as failed_tests' are
 * (cut ones name `log`, where the full text is). */
export function reportedTests(tests: readonly TestResult[], log: string): ReportedTest[] {
  const record = recordOf(log);
  return tests.map((test) => ({
    id: test.id,
    name: test.name,
    file: test.file,
    line: test.line,
    status: test.status,
    duration_ms: test.durationMs ?? null,
    ...(test.suite === undefined ? {} : { suite: test.suite }),
    ...(isFailure(test) ? { message: record(test).message } : {}),
    ...(test.attempts === undefined ? {} : { attempts: test.attempts }),
  }));
}

/** The projects' unit_durations in one, keyed relative to `cwd` (the report's root). */
export function mergeUnitDurations(cwd: string, reports: readonly RunReport[]): Pick<RunReport, 'unit_durations'> {
  const merged: Record<string, number> = {};
  for (const report of reports) {
    for (const [unit, ms] of Object.entries(report.unit_durations ?? {})) {
      merged[path.relative(cwd, path.join(report.project_root, unit)).split(path.sep).join('/')] = ms;
    }
  }
  return Object.keys(merged).length === 0 ? {} : { unit_durations: merged };
}
