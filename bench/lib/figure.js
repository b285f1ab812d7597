/**
 * One reported figure: what was compared, its medians, the result and its target.
 * `a`/`b` are `{ label, shown, median, unit }` (b may be null); `target` is
 * `{ max, unit }` or null for a figure reported for information only; `runs` is how
 * many measured rounds the medians come from.
 */
export function figure({ benchmark, title, a, b = null, result, target = null, runs, note = null }) {
  const pass = target === null ? null : result.value <= target.max;
  return { benchmark, title, a, b, result, target, pass, runs, note };
}

/** A figure from a time comparison (`summarise`): medians in ms and the median ratio A/B
 * against `maxRatio`, or, with `maxAddedMs`, the median difference A - B against it; with
 * neither it is the ratio, for information only. */
export function timeFigure({ benchmark, title, a, b, comparison, maxRatio = null, maxAddedMs = null }) {
  const added = maxAddedMs !== null;
  return figure({
    benchmark,
    title,
    a: { label: a.label, shown: a.shown, median: comparison.a.median, unit: 'ms' },
    b: { label: b.label, shown: b.shown, median: comparison.b.median, unit: 'ms' },
    result: added ? { value: comparison.added, unit: 'ms added' } : { value: comparison.ratio, unit: '×' },
    target: added ? { max: maxAddedMs, unit: 'ms added' } : maxRatio === null ? null : { max: maxRatio, unit: '×' },
    runs: comparison.runs,
  });
}

export const formatValue = (value, unit) => (unit === '×' ? `${value.toFixed(2)}×` : `${value.toFixed(unit.startsWith('ms') ? 0 : 1)} ${unit}`);
