import { SCHEMA_VERSION, type ReportedTest, type RunReport, type ShardInfo } from '../model/report.js';
import type { Attempt, Outcome, RunStatus } from '../model/results.js';

/** One report file given to `run-tests merge`: its text, or why it could not be read. */
export type MergeInput = { readonly path: string; readonly text: string } | { readonly path: string; readonly unreadable: string };

/** A shard report that can take part in a merge: the report without its `tests`, which
 * are kept as JUnit needs them, the report's own copies let go. */
export interface ShardPart {
  readonly path: string;
  readonly report: RunReport & { readonly shard: ShardInfo };
  readonly tests: readonly MergedTest[];
}

/** A test of a shard as the merge keeps it: a result without its id, which neither JUnit
 * nor the merge's checks read (a large merge holds 400,000 of them). */
export interface MergedTest {
  readonly name: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly status: Outcome;
  readonly durationMs?: number | undefined;
  readonly suite?: string | undefined;
  readonly message?: string | undefined;
  readonly attempts?: readonly Attempt[] | undefined;
}

/** A file that cannot take part, and why, in words that name it. */
export interface Refused {
  readonly path: string;
  readonly problem: string;
}

/** A shard that ran to its end: anything else (an error, a timeout, Ctrl-C) holds only
 * part of its tests, and a merge of it would pass tests that never ran. */
const COMPLETED: readonly RunStatus[] = ['passed', 'failed', 'no_tests'];

/** Reads one input as a shard report of a completed run, or says why it is not one. Only
 * what the merge relies on is checked; the rest is carried as the shard wrote it. */
export function readShardReport(input: MergeInput): ShardPart | Refused {
  const refused = (problem: string): Refused => ({ path: input.path, problem: `${input.path}: ${problem}` });
  if ('unreadable' in input) return refused(`could not be read: ${input.unreadable}`);
  // What a shard leaves when it was stopped before printing its report (`> shard.json`).
  if (input.text.trim() === '') return refused('is empty: the shard printed no report (was it stopped before its end?)');
  let value: unknown;
  try {
    value = JSON.parse(input.text);
  } catch (error) {
    return refused(`is not JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || value['schema_version'] !== SCHEMA_VERSION || typeof value['status'] !== 'string') {
    return refused(`is not a run-tests JSON report (schema_version ${SCHEMA_VERSION})`);
  }
  if (value['source'] !== 'run') return refused(`is not the report of a run (source ${JSON.stringify(value['source'])}); merge takes the reports of \`run-tests --shard i/n --json\``);
  const shard = value['shard'];
  const shardShape = shard === undefined ? 'no "shard"' : shardProblem(shard);
  // Told first: a run that stopped may lack what a complete shard report has.
  if (!COMPLETED.includes(value['status'] as RunStatus)) {
    return refused(`${incomplete(value, shardShape === null ? shard as ShardInfo : null)}, and only a passed, failed or no_tests run holds all its tests`);
  }
  if (shard === undefined) return refused('is not a shard report (no "shard": it was not run with --shard i/n)');
  const shape = shardShape ?? reportProblem(value);
  if (shape !== null) return refused(`is not a well-formed shard report: ${shape}`);
  const { tests, ...report } = value as unknown as ShardPart['report'] & { tests: readonly ReportedTest[] };
  return { path: input.path, report, tests: mergedTests(tests) };
}

/** The tests as JUnit needs them, every one of the same shape (absent fields undefined).
 * The tests of a file share one copy of its path: JSON.parse gives each its own. */
function mergedTests(tests: readonly ReportedTest[]): MergedTest[] {
  const files = new Map<string, string>();
  const shared = (file: string): string => {
    const known = files.get(file);
    if (known !== undefined) return known;
    files.set(file, file);
    return file;
  };
  return tests.map((t) => ({
    name: t.name,
    file: t.file === null ? null : shared(t.file),
    line: t.line,
    status: t.status,
    durationMs: t.duration_ms ?? undefined,
    suite: t.suite,
    message: t.status === 'failed' || t.status === 'error' ? t.message ?? '' : t.message,
    attempts: t.attempts,
  }));
}

/** `shard 2 of 4 did not complete: its status is error (RUNNER_MISSING)`. */
function incomplete(report: Record<string, unknown>, shard: ShardInfo | null): string {
  const error = report['error'];
  const code = isObject(error) && typeof error['code'] === 'string' ? ` (${error['code']})` : '';
  return `${shard === null ? 'the run' : `shard ${shard.index} of ${shard.count}`} did not complete: its status is ${String(report['status'])}${code}`;
}

function shardProblem(shard: unknown): string | null {
  if (!isObject(shard)) return '"shard" is not an object';
  const { index, count, units, partition } = shard;
  if (!Number.isInteger(count) || (count as number) < 1) return `"shard.count" is ${JSON.stringify(count)}, not a whole number ≥ 1`;
  if (!Number.isInteger(index) || (index as number) < 1 || (index as number) > (count as number)) return `"shard.index" is ${JSON.stringify(index)}, not 1 to ${count}`;
  if (!Array.isArray(units) || !units.every((u) => typeof u === 'string')) return '"shard.units" is not a list of paths';
  if (typeof partition !== 'string' || partition === '') return '"shard.partition" is not a digest';
  return null;
}

const COUNTS = ['run', 'passed', 'failures', 'errors', 'skips'] as const;

/** The fields the merged report is made of, each of the type the schema gives it. */
function reportProblem(report: Record<string, unknown>): string | null {
  const summary = report['summary'];
  if (!isObject(summary) || !COUNTS.every((k) => summary[k] === null || Number.isInteger(summary[k]))) return '"summary" does not hold the five counts';
  for (const list of ['failed_tests', 'warnings'] as const) if (!Array.isArray(report[list])) return `"${list}" is not a list`;
  if (!Array.isArray(report['tests'])) return 'it lists no "tests" (every test the shard ran)';
  const bad = (report['tests'] as unknown[]).findIndex((t) => !isObject(t) || typeof t['name'] !== 'string' || !(t['file'] === null || typeof t['file'] === 'string'));
  if (bad !== -1) return `"tests[${bad}]" has no name or file`;
  if (typeof report['project_root'] !== 'string') return '"project_root" is not a path';
  if (typeof report['duration_ms'] !== 'number') return '"duration_ms" is not a number';
  const durations = report['unit_durations'];
  if (durations !== undefined && (!isObject(durations) || !Object.values(durations).every((ms) => typeof ms === 'number'))) return '"unit_durations" is not a map of milliseconds';
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
