/** Durations across runs: medians, p95 and whether a test grew slower. Pure. */

/** The median of the values (the mean of the middle two of an even count); null for none. */
export const median = (values: ArrayLike<number>): number | null => medianOfSorted(sorted(values));

/** Ascending, as numbers: a typed array sorts numerically without a comparator, several
 * times faster (10,000 tests' durations are sorted at each `history`). */
export const sorted = (values: ArrayLike<number>): Float64Array => new Float64Array(values as ArrayLike<number>).sort();

export function medianOfSorted(sorted: Float64Array): number | null {
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The 95th percentile by nearest rank: the smallest value at least 95% of them are at or below. */
export const p95 = (values: ArrayLike<number>): number | null => p95OfSorted(sorted(values));

export function p95OfSorted(sorted: Float64Array): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
}

/** Fewer durations than this tell no trend. */
export const TREND_MIN_RUNS = 6;
/** A change smaller than this, in ms, is steady whatever its ratio: 1 ms to 2 ms is noise. */
const TREND_MIN_MS = 5;
const TREND_RATIO = 1.2;

/** The newest third of the durations (oldest first) against the rest, by median:
 * `slower` when the recent median is over 1.2× the earlier one and at least 5 ms more,
 * `faster` the other way round, else `steady`; null with fewer than 6 durations. */
export function trend(durations: Float64Array): 'slower' | 'faster' | 'steady' | null {
  if (durations.length < TREND_MIN_RUNS) return null;
  const split = durations.length - Math.ceil(durations.length / 3);
  // Copies, sorted in place.
  const earlier = medianOfSorted(durations.slice(0, split).sort())!;
  const recent = medianOfSorted(durations.slice(split).sort())!;
  if (recent > earlier * TREND_RATIO && recent - earlier >= TREND_MIN_MS) return 'slower';
  if (earlier > recent * TREND_RATIO && earlier - recent >= TREND_MIN_MS) return 'faster';
  return 'steady';
}
