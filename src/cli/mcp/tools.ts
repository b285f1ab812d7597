import path from 'node:path';
import { z } from 'zod';
import { findProjectRoot } from '../../detect/roots.js';
import { usageError } from '../../model/errors.js';
import type { RunReport } from '../../model/report.js';
import { RUNNER_IDS } from '../../runners/ids.js';
import { ARTIFACTS_DIR } from '../../store/artifacts.js';
import { RUN_LOG, runDir, runIds } from '../../store/runs.js';
import { describeDetection } from '../detect-command.js';
import { MAX_RETRIES, resolveCwd, resolveFiles } from '../options.js';
import { planProjects } from '../plan-command.js';
import { runListings, storedReport } from '../runs-command.js';
import { fit, type Bounded } from './bounded.js';
import { searchLog, tailLog } from './log.js';

/** Strict: a field the tool does not know is an error, never silently ignored. */
const cwd = z.string().max(4096).optional().describe('the project directory (default: where the server was started)');
const runId = z.string().regex(/^(?:last|\d{8}-\d{6}\.\d{3}-[0-9a-f]{8})$/, 'a run id from list_runs, or last')
  .default('last').describe('a run id from list_runs or run_tests, or last (the latest completed run)');

export const SCHEMAS = {
  run_tests: z.strictObject({
    cwd,
    files: z.array(z.string().min(1).max(4096)).max(1000).optional().describe('test files or directories inside the project'),
    name: z.string().min(1).max(200).optional().describe('tests whose name contains the text, or matches /regex/'),
    ids: z.array(z.string().min(1).max(4096)).max(1000).optional().describe('exactly the tests with these ids (failed_tests[].id)'),
    failed_only: z.boolean().optional().describe("rerun exactly the previous run's failures"),
    timeout: z.number().positive().max(2147483.647).optional().describe('seconds before the run is killed (default 300)'),
    changed: z.union([z.literal(true), z.string().min(1).max(256)]).optional()
      .describe('run only what the change needs: true for the working tree against HEAD, or a git ref to measure from its merge base (see plan_tests)'),
    retries: z.number().int().min(0).max(MAX_RETRIES).optional().describe('run each failing test again up to this many times; one that then passes is flaky (flaky_tests), not passed'),
    flaky_fails: z.boolean().optional().describe('with retries: a flaky test fails the run'),
  }),
  plan_tests: z.strictObject({
    cwd,
    changed: z.string().min(1).max(256).optional().describe('a git ref: the change since its merge base with HEAD, uncommitted changes included (default: the working tree and index against HEAD)'),
    files: z.array(z.string().min(1).max(4096)).max(1000).optional().describe('limit the change to these files or directories'),
  }),
  get_result: z.strictObject({ cwd, run_id: runId }),
  list_runs: z.strictObject({ cwd, limit: z.number().int().min(1).max(100).default(20).describe('at most this many runs, newest first') }),
  get_log: z.strictObject({
    cwd,
    run_id: runId,
    tail: z.number().int().min(1).max(10_000).optional().describe('the last lines of the log (default 100)'),
    search: z.string().min(1).max(200).optional().describe('the lines that contain this text (plain text, not a regex)'),
    max_matches: z.number().int().min(1).max(1000).default(50).describe('with search: at most this many matching lines'),
  }),
  detect: z.strictObject({ cwd, runner: z.enum(RUNNER_IDS).optional().describe('override detection') }),
};

export const DESCRIPTIONS: Record<keyof typeof SCHEMAS, string> = {
  run_tests: "Run the project's tests (or some of them) and return run-tests' JSON report: status, summary, failed_tests with file and line, run_id. Sends progress notifications (finished tests) when given a progressToken; cancelling the request stops the run and every process it started.",
  get_result: 'The stored JSON report of a run, by run_id or last.',
  list_runs: 'The stored runs of the project, newest first: run_id, status, summary, command.',
  get_log: "A run's log (the runner's output): its last lines (tail), or the lines containing a text (search).",
  detect: 'Which runner would run, the exact command, the project root and why. Runs nothing.',
  plan_tests: "Which tests the change needs, per project, and why (each unit's reasons; the whole suite with the reason when the change cannot be placed for certain); runs nothing. run_tests with changed runs it.",
};

/** The report, with failed tests and warnings dropped from the end when it is too large. */
export function boundedReport(report: RunReport, limit: number): Bounded {
  const full = report.artifact === null ? null : path.join(path.dirname(report.artifact), 'report.json');
  return fit(report as unknown as Record<string, unknown>, limit, ['flaky_tests', 'failed_tests', 'projects', 'warnings'], full);
}

export async function getResult(input: z.infer<typeof SCHEMAS.get_result>, limit: number): Promise<Bounded> {
  return boundedReport((await storedReport(resolveCwd(input.cwd), input.run_id)).report, limit);
}

export async function listRuns(input: z.infer<typeof SCHEMAS.list_runs>, limit: number): Promise<Bounded> {
  const runs = await runListings(resolveCwd(input.cwd), input.limit);
  return fit({ runs }, limit, ['runs'], null);
}

export function detect(input: z.infer<typeof SCHEMAS.detect>, limit: number, reportersDir: string): Bounded {
  const { report } = describeDetection(resolveCwd(input.cwd), input.runner ?? null, reportersDir, process.env);
  return fit(report as unknown as Record<string, unknown>, limit, ['projects'], null);
}

/** plan_tests: the plan of each project, its lists flattened (each entry names its
 * project) so that the longest are cut from their ends when the response is too large. */
export async function planTests(input: z.infer<typeof SCHEMAS.plan_tests>, limit: number, reportersDir: string): Promise<Bounded> {
  const cwd = resolveCwd(input.cwd);
  const files = resolveFiles(cwd, input.files ?? [], undefined);
  const document = await planProjects({ cwd, files, ref: input.changed ?? null, allProjects: false, runner: null, env: process.env, reportersDir });
  const projects = document.projects.map(({ plan, ...project }) => ({
    ...project,
    ...(plan === null ? {} : { base: plan.base, head: plan.head, ref: plan.ref, tree: plan.tree, whole_suite: plan.whole_suite, changed_files: plan.changed.length, units_planned: plan.units.length }),
  }));
  const units = document.projects.flatMap((p) => (p.plan?.units ?? []).map((unit) => ({ project_root: p.project_root, ...unit })));
  const changed = document.projects.flatMap((p) => (p.plan?.changed ?? []).map((file) => ({ project_root: p.project_root, ...file })));
  return fit({ schema_version: document.schema_version, projects, units, changed }, limit, ['changed', 'units', 'projects'], null);
}

/** Room in a response for what surrounds the log's text. */
const LOG_OVERHEAD = 1024;

export async function getLog(input: z.infer<typeof SCHEMAS.get_log>, limit: number): Promise<Bounded> {
  if (input.tail !== undefined && input.search !== undefined) throw usageError('give tail or search, not both');
  const cwd = resolveCwd(input.cwd);
  const dir = path.join(findProjectRoot(cwd) ?? cwd, ARTIFACTS_DIR);
  const id = input.run_id === 'last' ? (await storedReport(cwd, 'last')).report.run_id : input.run_id;
  if (id === null || !runIds(dir).includes(id)) throw usageError(`no run ${JSON.stringify(id ?? input.run_id)} in ${dir}; list_runs lists the runs`);
  const log = path.join(runDir(dir, id), RUN_LOG);
  const head = { run_id: id, log };
  if (input.search !== undefined) {
    return fit({ ...head, ...(await searchLog(log, input.search, input.max_matches)) }, limit, ['matches'], log);
  }
  // JSON escapes make the text longer than its bytes: the room for it halves until it fits.
  for (let room = Math.max(0, limit - LOG_OVERHEAD); ; room = Math.floor(room / 2)) {
    const lines = input.tail ?? 100;
    const tail = tailLog(log, lines, room);
    const response = tail.cut ? { ...head, tail, cut: { limit_bytes: limit, dropped: { lines: lines - tail.lines }, full: log } } : { ...head, tail };
    if (Buffer.byteLength(JSON.stringify(response)) <= limit || room === 0) return fit(response, limit, [], log);
  }
}
