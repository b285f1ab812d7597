import type { History, HistoryRun, HistoryTest, TestStats } from '../../model/history.js';
import type { RunReport } from '../../model/report.js';
import type { Outcome, RunStatus } from '../../model/results.js';

/** How much of the history the page lists, so that 10,000 tests over 200 runs still make
 * a page people can open (and at most 2 MB): the page says what it left out. */
export const PAGE_LIMITS = { slowest: 12, flakiest: 20, failures: 50, message: 2000, partitions: 8 } as const;

/** One run's outcome counts, as the run's summary states them. */
export interface RunBar {
  readonly run_id: string;
  readonly started_at: string | null;
  readonly status: RunStatus;
  readonly passed: number;
  readonly failed: number;
  readonly flaky: number;
  readonly skipped: number;
}

/** A test with its duration in each run (null where it did not run). */
export interface SlowTest {
  readonly name: string;
  readonly file: string | null;
  readonly median_ms: number | null;
  readonly p95_ms: number | null;
  readonly trend: TestStats['trend'];
  readonly durations: readonly (number | null)[];
}

/** A test whose outcome changes from run to run, with its outcome in each run. */
export interface FlakyRow {
  readonly name: string;
  readonly file: string | null;
  readonly flips: number;
  readonly flaky: number;
  readonly failures: number;
  readonly runs: number;
  readonly outcomes: readonly (Outcome | null)[];
}

export interface LastFailure {
  readonly name: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly status: 'failed' | 'error';
  readonly message: string;
}

/** The parts of one --shard partition, each with how long its run took. */
export interface Partition {
  readonly partition: string;
  readonly parts: readonly { readonly index: number; readonly count: number; readonly run_id: string; readonly duration_ms: number }[];
}

/** What the page shows, computed apart from writing it (renderReportPage). */
export interface PageModel {
  readonly project: string;
  /** ISO 8601: when the page was made. */
  readonly generated_at: string;
  readonly runs: readonly RunBar[];
  readonly tests: number;
  readonly slowest: readonly SlowTest[];
  readonly flakiest: readonly FlakyRow[];
  /** Tests whose outcome changed or that were flaky, listed or not. */
  readonly unsteady: number;
  readonly last: { readonly run_id: string | null; readonly status: RunStatus; readonly failures: readonly LastFailure[]; readonly total: number } | null;
  readonly partitions: readonly Partition[];
  readonly warnings: readonly string[];
}

const key = (name: string, file: string | null): string => `${file ?? ''}\0${name}`;

export function pageModel(history: History, stats: readonly TestStats[], lastReport: RunReport | null, project: string, generatedAt = new Date().toISOString()): PageModel {
  const byKey = new Map<string, HistoryTest>(history.tests.map((t) => [key(t.name, t.file), t]));
  const column = <T>(s: TestStats, pick: (t: HistoryTest) => readonly T[]): readonly (T | null)[] =>
    pick(byKey.get(key(s.name, s.file)) ?? { name: s.name, file: s.file, outcomes: [], durations: [] });
  const unsteady = stats.filter((s) => s.flips > 0 || s.flaky > 0);
  return {
    project,
    generated_at: generatedAt,
    runs: history.runs.map(runBar),
    tests: stats.length,
    slowest: slowest(stats).map((s) => ({ name: s.name, file: s.file, median_ms: s.median_ms, p95_ms: s.p95_ms, trend: s.trend, durations: column(s, (t) => t.durations) })),
    flakiest: flakiest(unsteady).map((s) => ({ name: s.name, file: s.file, flips: s.flips, flaky: s.flaky, failures: s.failures, runs: s.runs, outcomes: column(s, (t) => t.outcomes) })),
    unsteady: unsteady.length,
    last: lastReport === null ? null : lastRun(lastReport),
    partitions: partitions(history.runs),
    warnings: history.warnings,
  };
}

function runBar(run: HistoryRun): RunBar {
  const n = (value: number | null | undefined): number => value ?? 0;
  const { summary } = run;
  return { run_id: run.run_id, started_at: run.started_at, status: run.status, passed: n(summary.passed), failed: n(summary.failures) + n(summary.errors), flaky: n(summary.flaky), skipped: n(summary.skips) };
}

/** Slowest by median first; ties by p95, then by name so the page is the same each time. */
function slowest(stats: readonly TestStats[]): TestStats[] {
  return stats.filter((s) => s.median_ms !== null)
    .sort((a, b) => (b.median_ms ?? 0) - (a.median_ms ?? 0) || (b.p95_ms ?? 0) - (a.p95_ms ?? 0) || byName(a, b))
    .slice(0, PAGE_LIMITS.slowest);
}

/** Most flips first, then most flaky verdicts: the tests whose outcome tells least. */
function flakiest(unsteady: readonly TestStats[]): TestStats[] {
  return [...unsteady].sort((a, b) => b.flips - a.flips || b.flaky - a.flaky || b.failures - a.failures || byName(a, b)).slice(0, PAGE_LIMITS.flakiest);
}

const byName = (a: TestStats, b: TestStats): number => key(a.name, a.file) < key(b.name, b.file) ? -1 : key(a.name, a.file) > key(b.name, b.file) ? 1 : 0;

function lastRun(report: RunReport): NonNullable<PageModel['last']> {
  // A report of several projects (or shards) lists every project's failures too.
  const total = report.failed_tests.length + (report.truncated?.failed_tests ?? 0);
  const failures = report.failed_tests.slice(0, PAGE_LIMITS.failures).map((f) => ({
    name: f.test_name, file: f.file, line: f.line, status: f.status,
    message: f.message.length > PAGE_LIMITS.message ? `${f.message.slice(0, PAGE_LIMITS.message)}…` : f.message,
  }));
  return { run_id: report.run_id, status: report.status, failures, total };
}

/** The sharded runs by partition, newest partitions first, each part once (its newest run). */
function partitions(runs: readonly HistoryRun[]): Partition[] {
  const grouped = new Map<string, Map<number, Partition['parts'][number]>>();
  for (const run of [...runs].reverse()) {
    if (run.shard === null) continue;
    const parts = grouped.get(run.shard.partition) ?? new Map<number, Partition['parts'][number]>();
    grouped.set(run.shard.partition, parts);
    if (!parts.has(run.shard.index)) parts.set(run.shard.index, { index: run.shard.index, count: run.shard.count, run_id: run.run_id, duration_ms: run.duration_ms });
  }
  return [...grouped].slice(0, PAGE_LIMITS.partitions)
    .map(([partition, parts]) => ({ partition, parts: [...parts.values()].sort((a, b) => a.index - b.index) }));
}
