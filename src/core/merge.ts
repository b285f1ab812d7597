import { SCHEMA_VERSION, type MergePart, type RunReport } from '../model/report.js';
import type { RunStatus } from '../model/results.js';
import { DEFAULT_MAX_FAILURES } from '../model/request.js';
import { exitCodeOf } from '../model/exit-codes.js';
import { capFailures } from './failures.js';
import { withFlaky } from './build-report.js';
import { checkParts } from './merge-checks.js';
import { sumReruns, sumSummaries, unique, sumFlaky, sumRetries } from './sum-reports.js';
import { readShardReport, type MergedTest, type MergeInput, type Refused, type ShardPart } from './merge-read.js';

export type { MergeInput } from './merge-read.js';

export interface MergeOptions {
  /** Where merge was started: the project root of a merge without any shard report. */
  readonly cwd: string;
  /** --max-failures (DEFAULT_MAX_FAILURES when absent; null: no cap). */
  readonly maxFailures?: number | null;
  /** --allow-no-tests: a merge that ran no test exits 0, as such a run does. */
  readonly allowNoTests?: boolean;
}

/** The merged report, and every test of its parts (for JUnit); none when it is `error`. */
export interface Merged {
  readonly report: RunReport;
  readonly tests: readonly MergedTest[];
}

/** `run-tests merge`: shard reports of one partition, each shard exactly once and each
 * a completed run, combined into one report by the rules of a single run. Anything less
 * is `error`, naming every file and every shard at fault: never a pass. */
export function mergeShards(inputs: Iterable<MergeInput>, options: MergeOptions): Merged {
  const { maxFailures = DEFAULT_MAX_FAILURES } = options;
  // One input at a time: a file's text is dropped once read, only its report is kept.
  const read: (ShardPart | Refused)[] = [];
  for (const input of inputs) read.push(readShardReport(input));
  const parts = read.filter((r): r is ShardPart => 'report' in r);
  const refused = read.flatMap((r) => ('problem' in r ? [r.problem] : []));
  // With no shard report at all there is no partition to say which shards are missing.
  const checked = parts.length === 0 ? { problems: refused.length > 0 ? [] : ['no shard report to merge'], parts: [] } : checkParts(parts);
  const problems = [...refused, ...checked.problems];
  if (problems.length > 0) return { report: invalidMerge(parts, problems, options), tests: [] };
  return { report: combine(checked.parts, maxFailures, options), tests: checked.parts.flatMap((p) => p.tests) };
}

function combine(parts: readonly ShardPart[], maxFailures: number | null, options: MergeOptions): RunReport {
  const reports = parts.map((p) => p.report);
  const summary = sumSummaries(reports.map((r) => r.summary));
  const status = mergedStatus(reports.map((r) => r.status));
  const count = reports[0]?.shard.count ?? 0;
  const packages = reports.flatMap((r) => r.packages ?? []);
  const drift = reports.filter((r) => r.drift !== undefined);
  return {
    ...base(parts, options, status, `merged from ${count} shard reports of partition ${reports[0]?.shard.partition ?? ''}`),
    framework: unique(reports.map((r) => r.framework)),
    // The shards ran side by side: the merged run took as long as its longest part.
    duration_ms: Math.max(0, ...reports.map((r) => r.duration_ms)),
    started_at: earliest(reports.map((r) => r.started_at)),
    finished_at: latest(reports.map((r) => r.finished_at)),
    summary,
    // Each shard's list is capped by its own --max-failures already; together once more.
    ...withFlaky(capFailures(reports.flatMap((r) => r.failed_tests), maxFailures, reports.reduce((sum, r) => sum + (r.truncated?.failed_tests ?? 0), 0)),
      sumFlaky(reports), maxFailures, reports.reduce((sum, r) => sum + (r.truncated?.flaky_tests ?? 0), 0)),
    ...sumRetries(reports),
    rerun: sumReruns(reports),
    warnings: [...revisionWarning(parts), ...reports.flatMap(shardWarnings)],
    ...(packages.length > 0 ? { packages } : {}),
    ...sameRevision(reports),
    ...(drift.length > 0 ? { drift: drift.some((r) => r.drift === true) } : {}),
    ...unitDurations(reports),
  };
}

/** A shard's warnings, each saying which shard's it is (`shard 2/4: …`) unless it does. */
function shardWarnings({ shard, warnings }: ShardPart['report']): string[] {
  const name = `shard ${shard.index}/${shard.count}`;
  return warnings.map((w) => (w.startsWith(`${name} `) ? w : `${name}: ${w}`));
}

/** What every merged report holds; a valid one overwrites the rest. */
function base(parts: readonly ShardPart[], options: MergeOptions, status: RunStatus, reason: string): RunReport {
  return {
    schema_version: SCHEMA_VERSION,
    source: 'merged',
    run_id: null,
    status,
    exit_code: exitCodeOf(status, options.allowNoTests === true),
    framework: null,
    reason,
    command: null,
    // The shards ran the same project, perhaps checked out at different paths: the
    // first's is shown, and every file in the report is relative to it.
    project_root: parts[0]?.report.project_root ?? options.cwd,
    exit_status: null,
    signal: null,
    timed_out: false,
    duration_ms: 0,
    started_at: null,
    finished_at: null,
    summary: { run: null, passed: null, failures: null, errors: null, skips: null },
    failed_tests: [],
    rerun: null,
    artifact: null,
    failures_file: null,
    next: null,
    warnings: [],
    error: null,
    projects: [],
    parts: parts.map(partOf),
  };
}

/** Counts of a merge that does not hold are unknown, never 0. */
function invalidMerge(parts: readonly ShardPart[], problems: readonly string[], options: MergeOptions): RunReport {
  const report = base(parts, options, 'error', 'the shard reports given do not make one whole run');
  return { ...report, error: { code: 'MERGE_INVALID', message: `the shard reports cannot be merged: ${problems.join('; ')}` } };
}

const partOf = ({ path, report }: ShardPart): MergePart => ({ path, index: report.shard.index, run_id: report.run_id, status: report.status });

/** The worst status of the parts (failed, then no_tests: run.ts' order), with one
 * exception: a shard that ran no test (more shards than units, or units without tests)
 * is not the whole run's verdict; the merge is no_tests only when no shard ran a test. */
function mergedStatus(statuses: readonly RunStatus[]): RunStatus {
  if (statuses.includes('failed')) return 'failed';
  return statuses.includes('passed') ? 'passed' : 'no_tests';
}

/** Every unit's duration, for the next `--timings`. A Map first: a unit named
 * `__proto__` stays a unit. */
function unitDurations(reports: readonly RunReport[]): Pick<RunReport, 'unit_durations'> {
  const durations = new Map<string, number>();
  for (const r of reports) for (const [unit, ms] of Object.entries(r.unit_durations ?? {})) durations.set(unit, ms);
  return durations.size === 0 ? {} : { unit_durations: Object.fromEntries(durations) };
}

/** The commit the shards ran on, when they agree on it. */
function sameRevision(reports: readonly RunReport[]): Pick<RunReport, 'git'> {
  const revisions = new Set(reports.map((r) => (r.git === undefined ? undefined : r.git.revision)));
  const [revision] = revisions;
  if (revisions.size !== 1 || revision === undefined) return {};
  return { git: { revision, dirty: reports.some((r) => r.git?.dirty === true) } };
}

function revisionWarning(parts: readonly ShardPart[]): string[] {
  const known = parts.filter((p) => p.report.git !== undefined);
  const revisions = new Set(known.map((p) => p.report.git?.revision ?? null));
  if (revisions.size < 2) return [];
  return [`the shards ran on different commits: ${known.map((p) => `shard ${p.report.shard.index} on ${p.report.git?.revision ?? '(no commit)'}`).join(', ')}`];
}

// ISO 8601 in UTC to the millisecond: the strings sort as the times do.
const known = (times: readonly (string | null)[]): string[] => times.filter((t): t is string => typeof t === 'string').sort();
const earliest = (times: readonly (string | null)[]): string | null => known(times)[0] ?? null;
const latest = (times: readonly (string | null)[]): string | null => known(times).at(-1) ?? null;
