import fs from 'node:fs';
import type { Runner, Invocation, PlanRequest } from '../runners/types.js';
import { customRunner } from '../runners/index.js';
import { readProjectFacts, type ProjectFacts } from '../project/facts.js';
import { detectRunner, type Detection } from '../detect/detect.js';
import type { ProjectSelection } from '../detect/roots.js';
import { leakWarning, type ProcessOutcome } from '../process/index.js';
import { artifactPaths, checkArtifactsDir, clearArtifacts, ensureArtifactsDir, foreignLinks, type ArtifactPaths } from '../store/artifacts.js';
import { readLastFailures, readLastFailuresOrSetAside, writeLastFailures, type LastFailures } from '../store/last-failures.js';
import { recoverAbandoned } from './abandoned.js';
import { buildReport, harnessErrorReport, nothingToRerun, type Context } from './build-report.js';
import { afterRun, beginRecord, completeRecord, DEFAULT_KEEP_RUNS, lockedOutWarning } from './run-record.js';
import { runCommands } from './commands.js';
import { HarnessError } from '../model/errors.js';
import { exitCodeOf } from '../model/exit-codes.js';
import { isFailure, nextFailures, notRun, placeFailures, recordOf } from './failures.js';
import { checkName, NOTHING_MATCHED } from './name-check.js';
import { projectsBelow, unrunWarnings } from './unrun.js';
import { followReports, type ReportFollower } from './follow-reports.js';
import { readLogTail } from './log-tail.js';
import type { RunReport, ShardInfo } from '../model/report.js';
import type { Interrupts, RunRequest } from '../model/request.js';
import { planRerun, rerunRules, selectRerun } from './rerun.js';
import { selectIds, type IdRecords } from './ids.js';
import { runnerFailure } from './runner-failure.js';
import { displayCommand } from './quote.js';
import type { FailedTest, FailedTestRecord, ParsedReport, RunStatus, TestResult } from '../model/results.js';
import { mapLines, onPath } from '../process/index.js';
import { decide, NO_TESTS_RAN, summarize } from './verdict.js';
import { bindTree, type TreeBinding } from './drift.js';
import { locateTests } from './locations.js';
import { selectShard, shardSupport, unitOfTests } from './shard/select.js';
import { recordEmptyShard, recordUnstarted } from './shard/empty.js';
import { NO_CHANGE_AFFECTS, nothingToRun, planChange } from './change/plan.js';
import { plannedCheck } from './change/planned-check.js';
import { nothingChangedReport } from './build-report.js';
import type { ChangePlan } from '../model/report.js';
import { shardParts } from './shard/report-fields.js';
import { withHistory } from './record-history.js';

/** A project's report, and every result it was built from (for exports such as JUnit). */
export interface ProjectRun {
  readonly report: RunReport;
  /** File paths relative to the report's project_root. */
  readonly tests: readonly TestResult[];
}

/** Runs one project's suite and returns its report. Harness failures that concern the
 * project (no runner, missing runner, unusable failures file) become `error` reports;
 * only usage errors are thrown. A run that started its runner is recorded in
 * `.run-tests/runs/<runId>/`. Its processes carry `marker` (RUN_TESTS_RUN_ID): the run
 * id, or one of the project's own when projects of the run run at once. */
export async function runProject(request: RunRequest, selection: ProjectSelection, interrupts: Interrupts, runId: string, ids: IdRecords | null = null, marker = runId): Promise<ProjectRun> {
  const artifacts = artifactPaths(selection.root, runId);
  let detection: Detection | null = null;
  const base = { request, root: selection.root, artifacts, marker, startedAt: new Date().toISOString() };
  try {
    // Before anything is read from it: a link or a file there is refused.
    checkArtifactsDir(artifacts.dir);
    const abandoned = await recoverAbandoned(artifacts.dir, request.killGraceMs);
    const facts = readProjectFacts(selection.root);
    detection = request.custom
      ? { adapter: customRunner(request.custom), reason: '--command given' }
      : detectRunner(facts, request.runner);
    checkRunnerArgs(detection.adapter, request.runnerArgs ?? []);
    if (request.shard) shardSupport(detection.adapter);
    const located = locateTests(detection.adapter, request, selection, facts);
    const { last, warning } = lastFailures(request, detection.adapter, artifacts);
    // --id, or tests found at a line, run as a rerun does: exactly those, checked by what ran.
    const chosen = ids !== null ? selectIds(ids, detection.adapter)
      : located?.tests ? { selected: located.tests, runnable: located.tests, warnings: [] }
      : request.failedOnly && last !== null ? selectRerun(last, selection.files, artifacts.lastFailures) : null;
    if (request.failedOnly && chosen === null) return { report: nothingToRerun({ ...base, detection }), tests: [] };
    // --changed: the units the change needs (the file operands only limit the change).
    const failed = request.change && request.failuresFirst ? failedUnits(last, unitOfTests(detection.adapter, facts)) : [];
    const plan = request.change ? await planChange({ runner: detection.adapter, root: selection.root, facts, change: request.change, env: request.env,
      reportersDir: request.reportersDir, runnerArgs: request.runnerArgs ?? [], within: selection.files, failed }) : null;
    const detected = detection;
    if (plan && nothingToRun(plan)) return { report: await recordUnstarted({ ...base, detection }, () => nothingChangedReport({ ...base, detection: detected }, plan, NO_CHANGE_AFFECTS)), tests: [] };
    // Failures first (--watch): runners that keep the order of their files run them first.
    const selected = plan && plan.whole_suite === null ? new Set([...failed.filter((unit) => plan.units.some((u) => u.unit === unit)), ...plan.units.map((unit) => unit.unit)]) : null;
    const files = plan ? [] : selection.files;
    // --shard: this run's part of the units (of the failures' units, with --failed-only).
    const shard = request.shard ? await selectShard({ request, runner: detection.adapter, root: selection.root, facts, files, artifactsDir: artifacts.dir, chosen, interrupts, planned: selected }) : null;
    if (shard?.empty) return { report: await recordEmptyShard({ ...base, detection }, shard), tests: [] };
    const rerun = shard ? shard.chosen : chosen;
    const planRequest: PlanRequest = {
      root: selection.root,
      facts,
      ...unitsToRun(detection.adapter, shard, located?.files ?? files, selected),
      name: request.name,
      rerun: rerun?.runnable ?? null,
      artifacts,
      env: request.env,
      reportersDir: request.reportersDir,
      noCache: request.noCache === true,
      runnerArgs: request.runnerArgs ?? [],
      at: located?.at ?? [],
    };
    const planned = rerun === null ? { invocation: detection.adapter.plan(planRequest), warnings: [] } : planRerun(detection.adapter, planRequest);
    const ran = detection.adapter.id;
    return await execute({
      ...base,
      detection,
      invocation: planned.invocation,
      files: selection.files,
      selected: rerun?.selected ?? null,
      shard: shard?.info ?? null,
      plan,
      planned: shard && selected ? new Set(shard.info.units) : selected,
      facts,
      notes: [...abandoned, ...(warning === null ? [] : [warning]), ...(chosen?.warnings ?? []), ...(shard?.warnings ?? []), ...planned.warnings],
      unrun: () => unrunWarnings({ root: selection.root, subprojects: projectsBelow(selection) }, request.cwd, ran),
    }, interrupts);
  } catch (error) {
    if (!(error instanceof HarnessError) || error.code === 'USAGE') throw error;
    const unrun = unrunWarnings({ root: selection.root, subprojects: projectsBelow(selection) }, request.cwd, detection?.adapter.id ?? null);
    const failed = (): RunReport => {
      const report = harnessErrorReport({ ...base, detection }, error);
      // Ctrl-C before the runner started (during --shard's listing, which it stopped).
      const interrupted = interrupts.signal === null ? {} : { status: 'interrupted' as const, exit_code: exitCodeOf('interrupted', request.allowNoTests) };
      return { ...report, ...interrupted, warnings: [...report.warnings, ...unrun] };
    };
    // Only this run creates its directory: one that exists began, and keeps its report.
    const begun = fs.existsSync(artifacts.runDir);
    return { report: begun ? await completeRecord(artifacts, keepRuns(request), (shared) => (shared ? withHistory(artifacts, failed(), [], request) : failed())) : failed(), tests: [] };
  }
}

/** The units of the recorded failures, each once, in their recorded order. */
function failedUnits(last: LastFailures | null, unitOf: (test: { id: string; name: string; file: string | null }) => string | null): string[] {
  const units = (last?.failed_tests ?? []).map((record) => unitOf({ id: record.id, name: record.test_name, file: record.file }));
  return [...new Set(units.filter((unit): unit is string => unit !== null))];
}

/** PlanRequest's files and units: a shard's part, the planned units (given to a runner
 * whose units are no files, go's packages, as `units`, as a shard's are), or the files. */
function unitsToRun(adapter: Runner, shard: { files: readonly string[]; units?: readonly string[] } | null, files: readonly string[], planned: ReadonlySet<string> | null): Pick<PlanRequest, 'files' | 'units'> {
  if (shard) return shard.units ? { files: [], units: shard.units } : { files: shard.files };
  if (planned === null) return { files };
  return adapter.shard?.selects === 'units' ? { files: [], units: [...planned] } : { files: [...planned] };
}

/** `run-tests -- <args>`: refused (exit 2) where the runner takes none, or one of them
 * would take the results away from run-tests or make it report tests that did not run. */
function checkRunnerArgs(adapter: Runner, args: readonly string[]): void {
  if (args.length === 0) return;
  const why = adapter.refusedArgument ? adapter.refusedArgument(args) : `${adapter.id} takes no arguments after --: run-tests cannot pass them on to it`;
  if (why !== null) throw new HarnessError('USAGE', why);
}

interface Execution extends Context {
  readonly marker: string;
  readonly detection: Detection;
  readonly invocation: Invocation;
  /** This project's files from the request (empty: the whole project). */
  readonly files: readonly string[];
  /** With --failed-only: the recorded failures asked for, checked against what ran. */
  readonly selected: readonly FailedTestRecord[] | null;
  /** With --shard: the part this run is. */
  readonly shard: ShardInfo | null;
  /** With --changed: what the change needs, and the units run for it (null: the whole suite). */
  readonly plan: ChangePlan | null;
  readonly planned: ReadonlySet<string> | null;
  /** The project's facts, read before planning: which unit a test belongs to may depend on them. */
  readonly facts: ProjectFacts;
  /** Warnings from planning the run. */
  readonly notes: readonly string[];
  /** The projects below that this run leaves out, named: walking the directories for them
   * waits until the runner has started, so it never delays the start. */
  readonly unrun: () => readonly string[];
}

/** The recorded failures of this runner. Only --failed-only depends on them: any other
 * run sets a corrupt file aside (`warning`) rather than be blocked by it. */
function lastFailures(request: RunRequest, adapter: Runner, artifacts: ArtifactPaths): { last: LastFailures | null; warning: string | null } {
  if (!request.failedOnly) {
    const { last, warning } = readLastFailuresOrSetAside(artifacts.lastFailures);
    return { last: last?.framework === adapter.id ? last : null, warning };
  }
  const last = readLastFailures(artifacts.lastFailures);
  if (last === null) {
    throw new HarnessError('FAILURES_MISSING', `--failed-only needs ${artifacts.lastFailures}, which does not exist: run the suite once first`, { path: artifacts.lastFailures });
  }
  if (last.framework !== adapter.id) {
    throw new HarnessError('STORE_CORRUPT', `${artifacts.lastFailures} was written by ${last.framework}, but this run uses ${adapter.id}`, { path: artifacts.lastFailures });
  }
  return { last, warning: null };
}

async function execute(run: Execution, interrupts: Interrupts): Promise<ProjectRun> {
  const { request, invocation, artifacts } = run;
  const missingTool = (invocation.requires ?? []).find((tool) => !onPath(tool, invocation.env));
  if (missingTool !== undefined) {
    throw new HarnessError('RUNNER_MISSING', `${missingTool} not found on PATH (run from ${invocation.cwd}); ${run.detection.adapter.installHint}`, { command: missingTool });
  }
  ensureArtifactsDir(artifacts);
  beginRecord(artifacts, invocation, run.detection.adapter.id, run.startedAt, run.root, run.marker);
  // A report outside the run directory (a --command's) may be left from an earlier run;
  // and a link where the log or a report goes is removed, so that nothing writes through it.
  const said = [...clearArtifacts([...new Set([artifacts.log, ...invocation.reports.map((report) => report.path)])]), ...foreignLinks([artifacts.lastReport]), ...foreignLinks([artifacts.lastLog], { hardLinked: true })];
  // --stream shows a machine format as the runner would print it for a person.
  const tee = request.tee && invocation.humanOutput ? mapLines(request.tee, invocation.humanOutput()) : request.tee;
  // The runner starts first: loading the parsers and following its reports overlap the run.
  const running = runCommands(invocation, {
    runId: run.marker,
    logPath: artifacts.log,
    timeoutMs: request.timeoutMs,
    killGraceMs: request.killGraceMs,
    tee,
    // A log that is the runner's report is never capped: a report with a hole in it could never show a pass.
    maxLogBytes: invocation.reports.some((report) => report.path === artifacts.log) ? null : request.maxLogBytes,
  }, interrupts);
  request.onRunnerStarted?.();
  const tree = bindTree(run.root, [...invocation.reports.map((r) => r.path), ...(invocation.captureOutput ? [invocation.captureOutput] : [])]);
  const following = followReports(invocation.reports, run.root, request.liveCount);
  following.catch(() => undefined); // awaited below, once the runner is done
  const unrun = run.unrun();
  let outcome: ProcessOutcome;
  try {
    outcome = await running;
  } catch (error) {
    (await following.catch(() => null))?.finish();
    if (error instanceof HarnessError && error.code === 'RUNNER_MISSING') {
      throw new HarnessError(error.code, `${error.message}; ${run.detection.adapter.installHint}`, error.detail);
    }
    throw error;
  } finally {
    if (tee !== request.tee) tee?.end();
  }
  return finish({ ...run, notes: [...run.notes, ...said, ...unrun] }, outcome, await following, tree);
}

async function finish(run: Execution, outcome: ProcessOutcome, follower: ReportFollower, tree: TreeBinding): Promise<ProjectRun> {
  const { request, artifacts } = run;
  // The second look at the tree: where it asks git, git runs while the results are read.
  const bound = tree.finish();
  const adapter = run.detection.adapter;
  const read = follower.finish();
  const report = read.report;
  const unusable = report?.unusable;
  if (unusable) {
    const hint = unusable.code === 'RUNNER_MISSING' ? `; ${run.detection.adapter.installHint}` : '';
    throw new HarnessError(unusable.code, `${unusable.message}${hint}`, { command: run.invocation.argv.join(' ') });
  }
  const verdict = decide({
    process: outcome,
    report,
    minTests: request.minTests,
    allowNoTests: request.allowNoTests,
    noTestsExitCodes: run.invocation.noTestsExitCodes ?? [],
    logPath: artifacts.log,
    logTail: () => readLogTail(artifacts.log),
  });
  const tests = await placeFailures(report?.tests ?? [], locator(adapter, run.root));
  const failedEarly = runnerFailure(adapter, outcome, tests.length, run.invocation.noTestsExitCodes ?? [], artifacts.log);
  // The runner's own words replace the verdict's "no usable report".
  const warnings = [...run.notes, ...read.warnings, ...(failedEarly ? [] : verdict.warnings)];
  if (outcome.leaked.length > 0) warnings.push(leakWarning(outcome.leaked));
  const rules = rerunRules(adapter);
  const missing = run.selected ? notRun(run.selected, tests, rules) : [];
  if (missing.length > 0 && verdict.status !== 'interrupted' && verdict.status !== 'timed_out') {
    warnings.push(`${missing.length} of the ${run.selected?.length} selected tests did not run: ${missing.map((t) => t.test_name).join(', ')}`);
  }
  let status: RunStatus = failedEarly ? 'error' : verdict.status;
  // A rerun that lost some of its selection proves nothing about those tests.
  if (status === 'passed' && missing.length > 0) status = 'error';
  // --changed: what ran must be what was planned, as a rerun's tests must be.
  const unplanned = run.planned ? plannedCheck(run.planned, tests, unitOfTests(adapter, run.facts), request.name !== null) : { outside: [], idle: [] };
  warnings.push(...unplanned.outside, ...unplanned.idle);
  if (status === 'passed' && unplanned.outside.length > 0) status = 'error';
  const named = checkName(request.name, adapter, tests, status, read.warnings);
  warnings.push(...named.warnings);
  // That the name matched nothing says why no test ran; the bare "no tests ran" goes.
  const bare = warnings.indexOf(NO_TESTS_RAN);
  if (bare !== -1 && [...named.warnings, ...read.warnings].some((w) => w.startsWith(NOTHING_MATCHED))) warnings.splice(bare, 1);
  if (status === 'passed' && named.dropped) status = 'error';
  const { fields: treeFields, warnings: treeWarnings } = await bound;
  warnings.push(...treeWarnings);
  const result = await completeRecord(artifacts, keepRuns(request), (shared) => {
    const wroteResults = shared && (afterRun(warnings, artifacts.lastFailures, () => recordFailures(run, tests, status, report?.complete === true)) ?? false);
    const built = buildReport(asRan(run, report?.ran), {
      status,
      outcome,
      summary: summarize(report && !failedEarly ? tests : null),
      failed: tests.filter(isFailure).map(recordOf(artifacts.log)),
      warnings: shared ? warnings : [...warnings, lockedOutWarning(artifacts)],
      error: failedEarly ?? (report === null ? read.error : null),
      rerun: run.selected ? { selected: run.selected.length, not_run: missing.map((t) => t.test_name) } : null,
      failuresFile: wroteResults ? artifacts.lastFailures : null,
      packages: report?.packages,
      notes: report?.notes,
      running: report?.running,
      ...shardParts(unitOfTests(adapter, run.facts), run.shard, tests, artifacts.log, report?.packages),
      plan: run.plan ?? undefined,
    });
    const whole = { ...built, ...treeFields };
    return shared ? withHistory(artifacts, whole, tests, request) : whole;
  });
  return { report: result, tests };
}

const keepRuns = (request: RunRequest): number => request.keepRuns ?? DEFAULT_KEEP_RUNS;

/** Runner.locate with the project's facts, read after the run and only for a failure without a line. */
function locator(adapter: Runner, root: string): ((failure: FailedTest) => ReturnType<NonNullable<Runner['locate']>>) | null {
  const lookup = adapter.locate?.bind(adapter);
  let facts: ProjectFacts | null = null;
  return lookup ? (failure) => lookup(failure, (facts ??= readProjectFacts(root))) : null;
}

/** Updates last-failures.json (called under the project's lock); true when this run's
 * results went into it. They are merged into the file as it is now, not as it was when
 * the run began, so runs of different subsets at once each add theirs. A run without
 * results leaves the recorded failures as they were and records only how it ended, so a
 * later --failed-only does not take an empty list for a pass. A --command's tests cannot
 * be rerun by run-tests: they never touch the file the project's own runner wrote. */
function recordFailures(run: Execution, tests: readonly TestResult[], status: RunStatus, complete: boolean): boolean {
  if (run.request.custom !== null) return false;
  // Set aside here too: another run may have left it corrupt since this one began.
  const latest = readLastFailuresOrSetAside(run.artifacts.lastFailures).last;
  const previous = latest !== null && latest.framework === run.detection.adapter.id ? latest.failed_tests : null;
  if (tests.length === 0 && previous === null) return false;
  // A shard ran a part of the suite: the failures of the other parts' units stay.
  const wholeTruth = complete && run.selected === null && run.files.length === 0 && run.request.name === null && run.shard === null && run.planned === null;
  writeLastFailures(run.artifacts.lastFailures, {
    framework: run.detection.adapter.id,
    project_root: run.root,
    failed_tests: tests.length > 0 ? nextFailures(previous ?? [], tests, wholeTruth, rerunRules(run.detection.adapter), recordOf(run.artifacts.log)) : previous ?? [],
    last_run: { status },
  });
  return tests.length > 0;
}

/** The run as the report says it went: when a launcher of ours started another command
 * than the planned one (ParsedReport.ran), that command is shown, and why in the reason. */
function asRan(run: Execution, ran: ParsedReport['ran']): Execution {
  if (ran === undefined) return run;
  const { argv: _planned, shownArgv: _shown, ...rest } = run.invocation;
  return { ...run, invocation: { ...rest, argv: ran.argv, notes: [...(rest.notes ?? []), ran.why] } };
}
