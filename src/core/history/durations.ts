/** Durations across runs: medians, p95 and whether a test grew slower. Pure. */

/** The median of the values (the mean of the middle two of an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The 95th percentile by nearest rank: the smallest value at least 95% of them are at or below. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
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
export function trend(durations: readonly number[]): 'slower' | 'faster' | 'steady' | null {
  if (durations.length < TREND_MIN_RUNS) return null;
  const split = durations.length - Math.ceil(durations.length / 3);
  const earlier = median(durations.slice(0, split))!;
  const recent = median(durations.slice(split))!;
  if (recent > earlier * TREND_RATIO && recent - earlier >= TREND_MIN_MS) return 'slower';
  if (earlier > recent * TREND_RATIO && earlier - recent >= TREND_MIN_MS) return 'faster';
  return 'steady';
}
