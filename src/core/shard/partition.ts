import crypto from 'node:crypto';

/** A unit with the weight it is packed by: its expected milliseconds, or its bytes when
 * no run recorded any duration (one scale for all units of a partition). */
export interface WeightedUnit {
  readonly name: string;
  readonly weight: number;
}

export interface Partition {
  /** `count` parts, each its unit names sorted; a part may be empty. */
  readonly parts: readonly (readonly string[])[];
  /** The first 16 hex digits of the sha256 of every part's names: the same wherever the
   * same units and weights are given, whatever directory the checkout lives in. */
  readonly digest: string;
}

/** Names compared by code unit, never by locale: every machine sorts the same. */
export const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Longest processing time first: the heaviest unit goes into the lightest part (ties:
 * the lowest index), so the slowest part stays close to total / count. Units are taken
 * heaviest first, ties by name, so the parts depend only on the units and weights,
 * never on the order they were listed in. */
export function partition(units: readonly WeightedUnit[], count: number): Partition {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`a partition needs a whole number of parts, got ${count}`);
  const loads = new Array<number>(count).fill(0);
  const parts: string[][] = Array.from({ length: count }, () => []);
  const ordered = [...units].sort((a, b) => b.weight - a.weight || byName(a.name, b.name));
  for (const unit of ordered) {
    const lightest = lightestPart(loads, parts.map((part) => part.length));
    loads[lightest] = (loads[lightest] ?? 0) + unit.weight;
    parts[lightest]?.push(unit.name);
  }
  const sorted = parts.map((part) => part.sort(byName));
  return { parts: sorted, digest: partitionDigest(sorted) };
}

/** The index of the least loaded part; on a tie the one with the fewest units, then the
 * lowest index: units that weigh nothing (go's packages whose tests took under go's 10 ms
 * step, packages without tests) are dealt round, not all into the first part. */
function lightestPart(loads: readonly number[], sizes: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < loads.length; i++) {
    const load = loads[i] ?? 0;
    const bestLoad = loads[best] ?? 0;
    if (load < bestLoad || (load === bestLoad && (sizes[i] ?? 0) < (sizes[best] ?? 0))) best = i;
  }
  return best;
}

/** A canonical encoding (JSON of the count and the sorted parts) hashed: two shards
 * agree on the digest exactly when they were dealt from the same parts. */
export function partitionDigest(parts: readonly (readonly string[])[]): string {
  const canonical = JSON.stringify({ count: parts.length, parts: parts.map((part) => [...part].sort(byName)) });
  return crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
