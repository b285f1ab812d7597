import path from 'node:path';
import type { Runner, ShardSupport, ShardUnit } from '../../runners/types.js';
import type { ProjectFacts } from '../../project/facts.js';
import type { Interrupts, RunRequest } from '../../model/request.js';
import { stopListings } from '../../process/listing.js';
import type { ShardInfo } from '../../model/report.js';
import type { FailedTestRecord } from '../../model/results.js';
import { usageError } from '../../model/errors.js';
import type { RerunSelection } from '../rerun.js';
import { partition } from './partition.js';
import { durationLookup, weigh, type Durations } from './timings.js';
import type { UnitOf } from './timings-file.js';
import { recordedDurations } from './recorded.js';

/** This run's part of the partition, and how to plan it. */
export interface ShardSelection {
  readonly info: ShardInfo;
  /** PlanRequest.files and .units for the part (a `units` runner gets files []). */
  readonly files: readonly string[];
  readonly units?: readonly string[];
  /** With --failed-only: the recorded failures of this part's units only. */
  readonly chosen: RerunSelection | null;
  /** The part has nothing to run: the runner must not start (an empty selection would
   * be the whole suite). */
  readonly empty: boolean;
  readonly warnings: readonly string[];
}

export interface ShardInput {
  readonly request: RunRequest;
  readonly runner: Runner;
  readonly root: string;
  readonly facts: ProjectFacts;
  /** The project's selection (empty: the whole suite). */
  readonly files: readonly string[];
  readonly artifactsDir: string;
  /** --failed-only's selection over the whole suite, before sharding. */
  readonly chosen: RerunSelection | null;
  /** Ctrl-C stops the listing at once: a suite's collection can take minutes. */
  readonly interrupts: Interrupts;
  /** With --changed: only the units the change needs take part (null: the whole suite). */
  readonly planned?: ReadonlySet<string> | null;
}

/** The runner's support for --shard; a usage error (exit 2) naming it when it has none. */
export function shardSupport(runner: Runner): ShardSupport {
  if (runner.shard === undefined) throw usageError(`--shard: ${runner.id} cannot be sharded (run-tests does not know how to select its units exactly); run it without --shard`);
  return runner.shard;
}

/** The unit a test belongs to: the runner's ShardSupport.unitOf, or the test's file. */
export function unitOfTests(runner: Runner, facts: ProjectFacts): UnitOf {
  const support = runner.shard;
  return support?.unitOf ? (test) => support.unitOf?.(test, facts) ?? null : (test) => test.file;
}

/** Lists the units, weighs them, partitions them and takes this run's part. */
export async function selectShard(input: ShardInput): Promise<ShardSelection> {
  const spec = input.request.shard;
  if (!spec) throw new Error('selectShard needs request.shard');
  const support = shardSupport(input.runner);
  const unitOf = unitOfTests(input.runner, input.facts);
  const stop = input.interrupts.on(stopListings);
  const listed = await support.units({ root: input.root, facts: input.facts, files: input.files, env: input.request.env,
    reportersDir: input.request.reportersDir, runnerArgs: input.request.runnerArgs ?? [] }).finally(stop);
  const wanted = input.planned ? listed.filter((unit) => input.planned?.has(unit.name)) : listed;
  const { units, orphans } = input.chosen ? failedUnits(wanted, input.chosen.runnable, unitOf) : { units: wanted, orphans: [] };
  const balance = await balanceSource(input, unitOf);
  const weighed = weigh(units, durationLookup(balance.durations, projectPrefix(input)));
  const dealt = partition(weighed.units, spec.count);
  const part = dealt.parts[spec.index - 1] ?? [];
  const source = weighed.timed === 0 ? 'file sizes' : balance.source;
  const info: ShardInfo = { index: spec.index, count: spec.count, units: part, partition: dealt.digest, total_units: units.length, balanced_by: source };
  const warnings = [...balance.warnings(weighed.timed, units.length)];
  // Failures no unit accounts for are rerun by the first shard: every machine agrees on that.
  const mine = orphans.length > 0 && spec.index === 1 ? orphans : [];
  if (orphans.length > 0) warnings.push(`${orphans.length} recorded failure(s) belong to no unit ${input.runner.id} lists: shard 1/${spec.count} reruns them`);
  const empty = part.length === 0 && mine.length === 0;
  if (empty) warnings.push(`shard ${spec.index}/${spec.count} has no units: ${units.length} ${units.length === 1 ? 'unit' : 'units'} among ${spec.count} shards`);
  const selects = support.selects === 'units';
  return {
    info,
    files: selects ? [] : part,
    ...(selects ? { units: part } : {}),
    chosen: input.chosen ? ofPart(input.chosen, new Set(part), mine, unitOf) : null,
    empty,
    warnings,
  };
}

/** With --failed-only only the units of recorded failures take part. */
function failedUnits(listed: readonly ShardUnit[], failures: readonly FailedTestRecord[], unitOf: UnitOf): { units: ShardUnit[]; orphans: FailedTestRecord[] } {
  const names = new Set(listed.map((unit) => unit.name));
  const failing = new Set<string>();
  const orphans: FailedTestRecord[] = [];
  for (const record of failures) {
    const unit = unitOfRecord(record, unitOf);
    if (unit !== null && names.has(unit)) failing.add(unit);
    else orphans.push(record);
  }
  return { units: listed.filter((unit) => failing.has(unit.name)), orphans };
}

const unitOfRecord = (record: FailedTestRecord, unitOf: UnitOf): string | null => unitOf({ id: record.id, name: record.test_name, file: record.file });

/** The rerun narrowed to the part's units (and the orphans this shard takes). */
function ofPart(chosen: RerunSelection, part: ReadonlySet<string>, mine: readonly FailedTestRecord[], unitOf: UnitOf): RerunSelection {
  const keep = (record: FailedTestRecord): boolean => mine.includes(record) || part.has(unitOfRecord(record, unitOf) ?? '\0');
  return { selected: chosen.selected.filter(keep), runnable: chosen.runnable.filter(keep), warnings: chosen.warnings };
}

/** Where this project sits below the invocation directory: the prefix of its units in a
 * report of several projects written from there. */
function projectPrefix(input: ShardInput): string {
  const relative = path.relative(input.request.cwd, input.root).split(path.sep).join('/');
  return relative.startsWith('..') ? '' : relative;
}

interface Balance {
  readonly durations: Durations;
  readonly source: string;
  readonly warnings: (timed: number, units: number) => string[];
}

/** --timings when given (every machine of a CI matrix reads the same file), else the
 * project's own run records. The file's reader, with the JUnit parser, is loaded only then. */
async function balanceSource(input: ShardInput, unitOf: UnitOf): Promise<Balance> {
  const file = input.request.timings;
  if (file) {
    const { readTimingsFile } = await import('./timings-file.js');
    const shown = path.relative(input.request.cwd, file);
    const name = shown.startsWith('..') || path.isAbsolute(shown) ? file : shown;
    return {
      durations: readTimingsFile(file, input.root, unitOf),
      source: `--timings ${name}`,
      warnings: (timed, units) => (timed === 0 && units > 0 ? [`--timings ${name} holds no duration of any of the ${units} units: balanced by file sizes`] : []),
    };
  }
  return { durations: recordedDurations(input.artifactsDir, input.runner.id), source: 'recorded runs', warnings: () => [] };
}
