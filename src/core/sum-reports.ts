import type { RunReport } from '../model/report.js';
import type { Summary } from '../model/results.js';

/** What several reports say together: those of a run's projects (run.ts) and of a
 * suite's shards (merge.ts). */

/** Unknown stays unknown: one report without a count makes the total unknown. */
export function sumSummaries(summaries: readonly Summary[]): Summary {
  const total = (key: keyof Summary, absent: number | null = null): number | null =>
    summaries.reduce<number | null>((sum, s) => {
      const n = s[key] === undefined ? absent : s[key];
      return sum === null || n === null ? null : sum + n;
    }, 0);
  const sum = { run: total('run'), passed: total('passed'), failures: total('failures'), errors: total('errors'), skips: total('skips') };
  // A report without --retries has no flaky test: 0, where another of them counts some.
  return summaries.some((s) => s.flaky !== undefined) ? { ...sum, flaky: total('flaky', 0) } : sum;
}

/** The reruns together: what was selected, and what of it did not run. */
export function sumReruns(reports: readonly RunReport[]): RunReport['rerun'] {
  const reruns = reports.flatMap((r) => (r.rerun === null || r.rerun === undefined ? [] : [r.rerun]));
  if (reruns.length === 0) return null;
  return { selected: reruns.reduce((sum, r) => sum + r.selected, 0), not_run: reruns.flatMap((r) => r.not_run) };
}

/** The distinct values, joined with `+` (`minitest+rspec`); null when none is known. */
export function unique(values: readonly (string | null)[]): string | null {
  const set = [...new Set(values.filter((v): v is string => v !== null))];
  return set.length === 0 ? null : set.join('+');
}
