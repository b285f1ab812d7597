import fs from 'node:fs';
import path from 'node:path';
import type { HistoryRun } from '../model/history.js';
import type { ReportedTest, RunReport } from '../model/report.js';
import type { Outcome } from '../model/results.js';
import { bounded, storedRun, type HistoryLine } from './history-format.js';

/** A run read from a run-tests JSON report (--from), with the tests it is known to have run. */
export interface ReportRun {
  readonly run: HistoryRun;
  readonly lines: readonly HistoryLine[];
}

const OUTCOMES: readonly string[] = ['passed', 'failed', 'error', 'skipped', 'flaky'];

/** The runs of the reports given with --from, in the order given. A report with `tests`
 * (a shard's) is a run of those; a merged report is a run per part whose report file is
 * still there, else one run of its lists; any other report knows only its failed and
 * flaky tests, so its other tests are unknown there (absent), never passed. */
export function reportRuns(files: readonly string[], cwd: string): { runs: ReportRun[]; warnings: string[] } {
  const runs: ReportRun[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const report = readReport(path.resolve(cwd, file), file, warnings);
    if (report === null) continue;
    if (!Array.isArray(report.tests) && report.source === 'merged' && Array.isArray(report.parts) && report.parts.length > 0) {
      const parts = partRuns(report, file, cwd, warnings);
      if (parts !== null) {
        runs.push(...parts);
        continue;
      }
    }
    runs.push(reportRun(report, file));
  }
  return { runs, warnings };
}

/** The runs of a merged report's parts, each read from its file (as merge was given it:
 * from `cwd`, else beside the merged report); null when any part cannot be read. */
function partRuns(report: RunReport, file: string, cwd: string, warnings: string[]): ReportRun[] | null {
  const runs: ReportRun[] = [];
  for (const part of report.parts ?? []) {
    const candidates = [path.resolve(cwd, part.path), path.resolve(path.dirname(path.resolve(cwd, file)), part.path)];
    const found = candidates.find((candidate) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() === true);
    const shard = found === undefined ? null : readReport(found, part.path, warnings);
    if (found === undefined || shard === null || !Array.isArray(shard.tests)) {
      warnings.push(`${file}: its part ${part.path} ${found === undefined ? 'is not there' : 'holds no tests'}; the merged report is read as one run of its failed and flaky tests`);
      return null;
    }
    runs.push(reportRun(shard, found));
  }
  return runs;
}

/** The report in `file`, or null with a warning naming `shown`. */
function readReport(file: string, shown: string, warnings: string[]): RunReport | null {
  let value: unknown;
  try {
    // Only stat first: opening a named pipe to read it would wait for a writer.
    if (!fs.statSync(file).isFile()) throw new Error('not a regular file');
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    warnings.push(`${shown}: cannot be read as a run-tests JSON report (${(error as Error).message}); skipped`);
    return null;
  }
  const report = value as Partial<RunReport> | null;
  if (typeof report !== 'object' || report === null || report.schema_version !== 1 || typeof report.status !== 'string'
    || typeof report.summary !== 'object' || report.summary === null || !Array.isArray(report.failed_tests)) {
    warnings.push(`${shown}: not a run-tests JSON report (schema_version 1); skipped`);
    return null;
  }
  return report as RunReport;
}

function reportRun(report: RunReport, file: string): ReportRun {
  const run: HistoryRun = { ...storedRun(report.run_id ?? file, report), source: file };
  return { run, lines: Array.isArray(report.tests) ? testLines(report.tests) : listedLines(report) };
}

const line = (outcome: Outcome, durationMs: number | null, file: string | null, name: string): HistoryLine =>
  ({ outcome, durationMs, file: file === null ? null : bounded(file), name: bounded(name) });

function testLines(tests: readonly ReportedTest[]): HistoryLine[] {
  return tests.filter((t) => typeof t.name === 'string' && OUTCOMES.includes(t.status))
    .map((t) => line(t.status, typeof t.duration_ms === 'number' ? t.duration_ms : null, typeof t.file === 'string' ? t.file : null, t.name));
}

/** A report without `tests`: only its failures and flaky tests are known. */
function listedLines(report: RunReport): HistoryLine[] {
  const failed = report.failed_tests.map((t) => line(t.status, null, t.file, t.test_name));
  const flaky = (report.flaky_tests ?? []).map((t) => line('flaky', null, t.file, t.test_name));
  return [...failed, ...flaky];
}
