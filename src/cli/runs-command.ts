import fs from 'node:fs';
import path from 'node:path';
import { recoverAbandoned } from '../core/abandoned.js';
import { usageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';
import type { Summary } from '../model/results.js';
import { findProjectRoot } from '../detect/roots.js';
import { ARTIFACTS_DIR } from '../store/artifacts.js';
import { listRuns, readRun, runIds, RUN_REPORT, inProgress, type StoredRun } from '../store/runs.js';

/** The `.run-tests/` a run started in `cwd` writes to: that of the enclosing project. */
const artifactsDir = (cwd: string): string => path.join(findProjectRoot(cwd) ?? cwd, ARTIFACTS_DIR);

/** How long a process of an abandoned run gets between SIGTERM and SIGKILL, as a run's
 * default --kill-grace. */
const RECOVERY_GRACE_MS = 5000;

/** Runs whose run-tests died are recorded `abandoned` (and what they left running is
 * killed) before any stored run is shown or listed, as before a run. */
async function recovered(cwd: string): Promise<string> {
  const dir = artifactsDir(cwd);
  await recoverAbandoned(dir, RECOVERY_GRACE_MS);
  return dir;
}

/** `run-tests show [<id>|last]`: the stored report's text, as `--json` first printed it;
 * with `json` false it is parsed for the human renderer. */
export async function storedReport(cwd: string, which: string): Promise<{ text: string; report: RunReport }> {
  const dir = await recovered(cwd);
  const file = which === 'last' ? path.join(dir, 'last-report.json') : reportFile(dir, which);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw usageError(`no completed run in ${dir}: run the tests first`);
  }
  return { text, report: JSON.parse(text) as RunReport };
}

function reportFile(dir: string, id: string): string {
  const ids = runIds(dir);
  if (!ids.includes(id)) {
    throw usageError(`no run ${JSON.stringify(id)} in ${dir}; ${ids.length === 0 ? 'there are no runs' : `runs, newest first: ${ids.join(', ')}`}`);
  }
  const run = readRun(dir, id);
  if (run.report === null) {
    const owner = run.info === null ? '' : ` (run-tests pid ${run.info.pid})`;
    throw usageError(`run ${id} has no report: ${inProgress(run) ? `it is still running${owner}` : `its run-tests process${owner} ended without one`}`);
  }
  return path.join(run.dir, RUN_REPORT);
}

/** One line of `run-tests runs --json`. */
export interface RunListing {
  readonly run_id: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  /** The report's status; `running` or `abandoned` for a run without a report. */
  readonly status: string;
  readonly summary: Summary | null;
  readonly framework: string | null;
  readonly command: string | null;
  readonly git: unknown;
}

export async function runListings(cwd: string, limit: number | null): Promise<RunListing[]> {
  const runs = listRuns(await recovered(cwd));
  return (limit === null ? runs : runs.slice(0, limit)).map(listing);
}

function listing(run: StoredRun): RunListing {
  const { report, info } = run;
  if (report !== null) {
    const { started_at, finished_at, status, summary, framework, command } = report;
    return { run_id: run.id, started_at, finished_at, status, summary, framework, command, git: (report as { git?: unknown }).git ?? null };
  }
  return {
    run_id: run.id,
    started_at: info?.started_at ?? null,
    finished_at: null,
    status: inProgress(run) ? 'running' : 'abandoned',
    summary: null,
    framework: info?.framework ?? null,
    command: info?.command ?? null,
    git: null,
  };
}

/** `run-tests runs` on a terminal: one run a line, newest first. */
export function renderListings(runs: readonly RunListing[]): string {
  if (runs.length === 0) return 'no runs recorded here\n';
  const count = (n: number | null | undefined) => (n === null || n === undefined ? '?' : String(n));
  return runs.map((r) => {
    const summary = r.summary === null ? '' : `${count(r.summary.passed)} passed, ${count(r.summary.failures)} failed, ${count(r.summary.errors)} errors`;
    return [r.run_id, r.status.padEnd(16), summary.padEnd(34), r.framework ?? '', r.command ?? ''].join('  ').trimEnd();
  }).join('\n').concat('\n');
}
