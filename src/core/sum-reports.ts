import type { RunReport } from '../model/report.js';
import type { FlakyTestRecord, Summary } from '../model/results.js';

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

/** The flaky tests of reports run with --retries, in order; null when none was. */
export function sumFlaky(reports: readonly RunReport[], file: (report: RunReport, file: string | null) => string | null = (_r, f) => f): FlakyTestRecord[] | null {
  if (!reports.some((r) => r.retries !== undefined)) return null;
  return reports.flatMap((r) => (r.flaky_tests ?? []).map((t) => ({ ...t, file: file(r, t.file) })));
}

/** --retries of several reports: the most retries any gave, whether any let a flaky test
 * fail, and every retry run. Absent when none retried. */
export function sumRetries(reports: readonly RunReport[]): Pick<RunReport, 'retries'> {
  const retried = reports.flatMap((r) => (r.retries === undefined ? [] : [r.retries]));
  if (retried.length === 0) return {};
  return { retries: { max: Math.max(...retried.map((r) => r.max)), flaky_fails: retried.some((r) => r.flaky_fails), runs: retried.flatMap((r) => r.runs) } };
}

/** The distinct values, joined with `+` (`minitest+rspec`); null when none is known. */
export function unique(values: readonly (string | null)[]): string | null {
  const set = [...new Set(values.filter((v): v is string => v !== null))];
  return set.length === 0 ? null : set.join('+');
}
