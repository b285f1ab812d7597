import path from 'node:path';
import type { ReportSource } from '../runners/types.js';
import { isParserId } from '../runners/parsers.js';
import { killMarkedProcesses } from '../process/index.js';
import { writeJsonAtomic } from '../store/atomic.js';
import { abandonedRuns, RUN_REPORT, type AbandonedRun } from '../store/runs.js';
import { capFailures, isFailure, recordOf } from './failures.js';
import { DEFAULT_MAX_FAILURES } from '../model/request.js';
import { followReports, type ReadReports } from './follow-reports.js';
import { SCHEMA_VERSION, type RunReport } from '../model/report.js';
import { STATUS_EXIT_CODES } from '../model/exit-codes.js';
import { summarize } from './verdict.js';

/** A report of an abandoned run: the RunReport contract, with the run's id and start. */
export type AbandonedReport = RunReport & { readonly run_id: string; readonly started_at: string | null; readonly finished_at: string | null };

/** Finds this project's runs whose run-tests died before they ended (SIGKILL, the OOM
 * killer), kills what still carries their marker, and writes each its report.json with
 * status `abandoned` and the results its reports held when it was found. Returns a warning per run for the
 * run that found them. Costs one readdir when there is nothing to recover. */
export async function recoverAbandoned(artifactsDir: string, killGraceMs: number): Promise<string[]> {
  const warnings: string[] = [];
  for (const run of abandonedRuns(artifactsDir)) {
    try {
      warnings.push(await recover(run, killGraceMs));
    } catch (error) {
      // An old run's leftovers must never stop this one.
      warnings.push(`run ${run.info.run_id} was abandoned, but recording it failed: ${(error as Error).message}`);
    }
  }
  return warnings;
}

async function recover(run: AbandonedRun, killGraceMs: number): Promise<string> {
  // What its reports held when it was found, read before its processes are killed: a
  // runner that dies of that kill may still report its test file killed (node:test does),
  // a failure of this recovery's making, not of the tests, and written only sometimes.
  const read = await readPartialResults(run);
  const killed = await killMarkedProcesses(typeof run.info.marker === 'string' ? run.info.marker : run.info.run_id, killGraceMs);
  const file = path.join(run.dir, RUN_REPORT);
  writeJsonAtomic(file, abandonedReport(run, read, killed.length));
  const still = killed.length === 0 ? '' : `; killed ${killed.length} ${killed.length === 1 ? 'process' : 'processes'} still running it`;
  return `run ${run.info.run_id}${run.info.started_at ? ` (started ${run.info.started_at})` : ''} was abandoned: run-tests died before it ended${still}; its report: ${file}`;
}

/** The run's recorded report sources, parsed as they were left. */
async function readPartialResults(run: AbandonedRun): Promise<ReadReports> {
  const sources: ReportSource[] = run.info.reports.flatMap((r) => {
    if (!isParserId(r.parser)) return [];
    const hints = isStringRecord(r.hints) ? { hints: r.hints } : {};
    return [{ path: r.path, parser: r.parser, ...hints }];
  });
  if (sources.length === 0) return { report: null, warnings: [], error: null };
  return (await followReports(sources, run.info.project_root, null)).finish();
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');

function abandonedReport(run: AbandonedRun, read: ReadReports, killed: number): AbandonedReport {
  const { info: record } = run;
  const tests = read.report?.tests ?? null;
  const results = tests === null ? 'no results were recorded' : `the ${tests.length} ${tests.length === 1 ? 'result' : 'results'} its reports held ${tests.length === 1 ? 'is' : 'are'} kept`;
  return {
    schema_version: SCHEMA_VERSION,
    source: 'run',
    status: 'abandoned',
    exit_code: STATUS_EXIT_CODES.abandoned,
    framework: record.framework,
    reason: null,
    command: record.command,
    project_root: record.project_root,
    exit_status: null,
    signal: null,
    timed_out: false,
    duration_ms: 0,
    summary: summarize(tests),
    ...capFailures((tests ?? []).filter(isFailure).map(recordOf(record.log)), DEFAULT_MAX_FAILURES),
    rerun: null,
    artifact: record.log,
    failures_file: null,
    next: null,
    warnings: [
      `run-tests (pid ${record.pid}) died before the run ended; ${results}`,
      ...(killed > 0 ? [`a later run-tests killed ${killed} ${killed === 1 ? 'process' : 'processes'} still carrying the run's marker`] : []),
      ...read.warnings,
      ...(read.report === null && read.error !== null ? [read.error.message] : []),
    ],
    error: null,
    projects: [],
    run_id: record.run_id,
    started_at: record.started_at,
    // When it ended is not known: run-tests died without a word.
    finished_at: null,
  };
}
