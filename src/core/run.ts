import path from 'node:path';
import { everyProject, selectProjects } from '../detect/roots.js';
import { mergeDrift } from './drift.js';
import { SCHEMA_VERSION, type RunReport } from '../model/report.js';
import type { Interrupts, RunRequest } from '../model/request.js';
import type { ProjectRun } from './run-project.js';
import { runProjects } from './run-projects.js';
import { newRunId } from '../store/runs.js';
import { operandFiles } from './locations.js';
import type { RunStatus } from '../model/results.js';
import { exitCodeOf } from '../model/exit-codes.js';
import { capFailures } from './failures.js';
import { maxFailures, withFlaky } from './build-report.js';
import { projectsWithIds, type IdRecords } from './ids.js';
import { asCommand, nextArgv } from './suggest.js';
import { sumFlaky, sumReruns, sumRetries, sumSummaries, unique } from './sum-reports.js';
import { usageError } from '../model/errors.js';
import { mergeUnitDurations } from './shard/report-fields.js';
import { checkInsideTree, readChange } from './change/git-change.js';
import { nothingToRun } from './change/plan.js';

/** Runs every project the request touches (up to --jobs at once) and merges their reports
 * (and their results, with files made relative to the invocation directory), in the
 * projects' order. The run has one id: each project records it in its own
 * `.run-tests/runs/<id>/`. */
export async function runTests(given: RunRequest, interrupts: Interrupts): Promise<ProjectRun> {
  const runId = given.runId ?? newRunId();
  // --changed: the change is read once, before any project plans from it.
  const request = given.changed ? { ...given, change: await readChange(given.cwd, given.changed.ref) } : given;
  if (request.change) checkInsideTree(request.change, request.files);
  // A custom command runs where it was given; detection does not choose its project.
  const selections = request.custom ? [{ root: request.cwd, files: request.files.map((f) => path.relative(request.cwd, f).split(path.sep).join('/')) }]
    : request.allProjects === true ? everyProject(request.cwd)
    : selectProjects(request.cwd, operandFiles(request));
  // --id: each project reruns the ids it recorded; one that recorded none does not run.
  const projects: { selection: typeof selections[number]; ids: IdRecords | null }[] = (request.ids ?? []).length > 0
    ? projectsWithIds(selections, request.ids ?? [])
    : selections.map((selection) => ({ selection, ids: null }));
  if (request.shard && projects.length > 1) {
    throw usageError(`--shard splits one project's suite, but the selection spans ${projects.length} projects (${projects.map((p) => path.relative(request.cwd, p.selection.root) || '.').join(', ')}): run each project's shards separately, with --cwd or its files`);
  }
  const runs = await runProjects(request, projects, interrupts, runId);
  const [only] = runs;
  // Workspaces run for their root are merged even when there is one: the root was asked for.
  const reason = selections.find((s) => s.reason !== undefined)?.reason;
  if (runs.length === 1 && only && reason === undefined) return only;
  const relocate = (run: ProjectRun, file: string | null) => relativeTo(request.cwd, run.report.project_root, file);
  return {
    report: mergeReports(request, runs.map((r) => r.report), reason),
    tests: runs.flatMap((run) => run.tests.map((t) => ({ ...t, file: relocate(run, t.file) }))),
  };
}

/** A project-relative file as seen from the invocation directory. */
const relativeTo = (cwd: string, root: string, file: string | null): string | null =>
  file === null ? null : path.relative(cwd, path.join(root, file)).split(path.sep).join('/');

/** Worst first: the merged status is the worst of its projects. */
const SEVERITY: readonly RunStatus[] = ['interrupted', 'timed_out', 'abandoned', 'error', 'failed', 'no_tests', 'passed', 'nothing_to_rerun'];

export function mergeReports(request: RunRequest, reports: readonly RunReport[], reason = 'files in several projects: each ran in its own project root'): RunReport {
  // --changed: a project the change does not touch ran nothing, by design; it decides nothing.
  const deciding = reports.filter((r) => !(r.plan && nothingToRun(r.plan)));
  const status = SEVERITY.find((s) => (deciding.length > 0 ? deciding : reports).some((r) => r.status === s)) ?? 'interrupted';
  const prefix = (report: RunReport, file: string | null) => relativeTo(request.cwd, report.project_root, file);
  const failedRoots = reports.filter((r) => r.failed_tests.length > 0 && r.failures_file !== null).map((r) => r.project_root);
  return {
    schema_version: SCHEMA_VERSION,
    source: 'run',
    run_id: reports[0]?.run_id ?? null,
    status,
    exit_code: deciding.length === 0 ? 0 : exitCodeOf(status, request.allowNoTests),
    framework: unique(reports.map((r) => r.framework)),
    reason,
    command: reports.map((r) => r.command ?? '(not run)').join(' ; '),
    project_root: request.cwd,
    exit_status: null,
    signal: null,
    timed_out: reports.some((r) => r.timed_out),
    ...runningAtTimeout(request.cwd, reports),
    duration_ms: reports.reduce((sum, r) => sum + r.duration_ms, 0),
    started_at: reports[0]?.started_at ?? null,
    finished_at: reports.at(-1)?.finished_at ?? null,
    summary: sumSummaries(reports.map((r) => r.summary)),
    // Each project's list is capped already; together they are capped once more.
    ...withFlaky(capFailures(reports.flatMap((r) => r.failed_tests.map((t) => ({ ...t, file: prefix(r, t.file) }))), maxFailures(request),
      reports.reduce((sum, r) => sum + (r.truncated?.failed_tests ?? 0), 0)), sumFlaky(reports, prefix), maxFailures(request),
    reports.reduce((sum, r) => sum + (r.truncated?.flaky_tests ?? 0), 0)),
    ...sumRetries(reports),
    rerun: sumReruns(reports),
    artifact: null,
    failures_file: null,
    next: asCommand(nextArgv(request, failedRoots.length > 0 ? failedRoots : reports.map((r) => r.project_root), { status, recordedFailures: failedRoots.length > 0 })),
    warnings: reports.flatMap((r) => r.warnings.map((w) => `${path.relative(request.cwd, r.project_root) || '.'}: ${w}`)),
    error: null,
    projects: reports,
    ...mergeDrift(request.cwd, reports),
    ...mergeUnitDurations(request.cwd, reports),
  };
}

/** The tests each project that timed out was running, files relative to `cwd`; null
 * when a project's report could not tell. Absent when none timed out. */
function runningAtTimeout(cwd: string, reports: readonly RunReport[]): Pick<RunReport, 'running_at_timeout'> {
  const timedOut = reports.filter((r) => r.timed_out);
  if (timedOut.length === 0) return {};
  if (timedOut.some((r) => !r.running_at_timeout)) return { running_at_timeout: null };
  return { running_at_timeout: timedOut.flatMap((r) => (r.running_at_timeout ?? []).map((t) => ({ ...t, file: relativeTo(cwd, r.project_root, t.file) }))) };
}

