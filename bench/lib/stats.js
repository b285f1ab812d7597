/** Median of a list of numbers (mean of the middle two for an even count). */
export function median(values) {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
