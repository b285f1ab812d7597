import type { ShardUnit } from '../../runners/types.js';
import type { WeightedUnit } from './partition.js';

/** Durations by unit key, in ms; keys are relative to the root of where they were read
 * (a report's project_root, a JUnit file's producer, this project's run records). */
export type Durations = ReadonlyMap<string, number>;

/** Finds a unit's duration among keys that may be relative to another directory than
 * the project: `prefix/unit` (a report of several projects, rooted where this run was
 * invoked), then `unit` itself, then the one key that ends in `/unit` (a report rooted
 * higher up, or a JUnit file's absolute paths from another machine). Absolute roots are
 * never compared: CI machines check out at different paths. */
export function durationLookup(durations: Durations, prefix: string): (unit: string) => number | undefined {
  const bySuffix = new Map<string, string[]>();
  for (const key of durations.keys()) {
    for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) {
      const suffix = key.slice(at + 1);
      const keys = bySuffix.get(suffix);
      if (keys) keys.push(key);
      else bySuffix.set(suffix, [key]);
    }
  }
  return (unit) => {
    const direct = (prefix === '' ? undefined : durations.get(`${prefix}/${unit}`)) ?? durations.get(unit);
    if (direct !== undefined) return direct;
    const [only, ...more] = bySuffix.get(unit) ?? [];
    return only !== undefined && more.length === 0 ? durations.get(only) : undefined;
  };
}

export interface Weighing {
  readonly units: readonly WeightedUnit[];
  /** How many units had a recorded duration: 0 means the weights are bytes. */
  readonly timed: number;
}

/** Each unit's expected weight: its recorded duration; the median of the recorded ones
 * where it has none (a new file is taken as a typical one); its size in bytes when no
 * unit has a recorded duration at all (never ms and bytes mixed in one partition). */
export function weigh(units: readonly ShardUnit[], durationOf: (unit: string) => number | undefined): Weighing {
  const known = units.map((unit) => durationOf(unit.name));
  const recorded = known.filter((ms): ms is number => ms !== undefined);
  if (recorded.length === 0) return { units: units.map((unit) => ({ name: unit.name, weight: unit.bytes })), timed: 0 };
  const typical = median(recorded);
  return { units: units.map((unit, i) => ({ name: unit.name, weight: known[i] ?? typical })), timed: recorded.length };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Adds a duration to a unit's sum, keeping a number that reads well in JSON. */
export function addDuration(sums: Map<string, number>, unit: string, ms: number): void {
  sums.set(unit, Math.round(((sums.get(unit) ?? 0) + ms) * 1000) / 1000);
}
