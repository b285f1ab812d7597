import type { Adapter, Invocation } from '../adapters/types.js';
import { readProjectFacts, type ProjectFacts } from '../detect/facts.js';
import { detectRunner, type Detection } from '../detect/detect.js';
import type { ProjectSelection } from '../detect/roots.js';
import type { ProcessOutcome } from '../process/index.js';
import { artifactPaths, ensureArtifactsDir, type ArtifactPaths } from '../store/artifacts.js';
import { removeFile, writeJsonAtomic } from '../store/atomic.js';
import { readLastFailures, writeLastFailures } from '../store/last-failures.js';
import { buildReport, harnessErrorReport, nothingToRerun, type Context } from './build-report.js';
import { runCommands } from './commands.js';
import { HarnessError } from './errors.js';
import { isFailure, nextFailures, notRun, placeFailures, toRecord } from './failures.js';
import { followReports, type ReportFollower } from './follow-reports.js';
import { readLogTail } from './log-tail.js';
import type { RunReport } from './report.js';
import type { Interrupts, RunRequest } from './request.js';
import type { FailedTest, FailedTestRecord, RunStatus, TestResult } from './types.js';
import { onPath } from '../process/index.js';
import { decide, summarize } from './verdict.js';

/** A project's report, and every result it was built from (for exports such as JUnit). */
export interface ProjectRun {
  readonly report: RunReport;
  /** File paths relative to the report's project_root. */
  readonly tests: readonly TestResult[];
}

/** Runs one project's suite and returns its report. Harness failures that concern the
 * project (no runner, missing runner, unusable failures file) become `error` reports;
 * only usage errors are thrown. */
export async function runProject(request: RunRequest, selection: ProjectSelection, interrupts: Interrupts): Promise<ProjectRun> {
  const artifacts = artifactPaths(selection.root);
  let detection: Detection | null = null;
  const base = { request, root: selection.root, artifacts };
  try {
    const facts = readProjectFacts(selection.root);
    detection = request.custom
      ? { adapter: (await import('../adapters/custom.js')).customAdapter(request.custom), reason: '--command given' }
      : detectRunner(facts, request.runner);
    const previous = previousFailures(request, detection.adapter, artifacts);
    const rerun = request.failedOnly ? selectRerun(previous ?? [], selection.files) : null;
    if (rerun !== null && rerun.length === 0) return { report: nothingToRerun({ ...base, detection }), tests: [] };
    const invocation = detection.adapter.plan({
      root: selection.root,
      facts,
      files: selection.files,
      name: request.name,
      rerun,
      artifacts,
      env: request.env,
      reportersDir: request.reportersDir,
      noCache: request.noCache === true,
    });
    return await execute({ ...base, detection, invocation, files: selection.files, rerun, previous: previous ?? [] }, interrupts);
  } catch (error) {
    if (!(error instanceof HarnessError) || error.code === 'USAGE') throw error;
    return { report: harnessErrorReport({ ...base, detection }, error), tests: [] };
  }
}

interface Execution extends Context {
  readonly detection: Detection;
  readonly invocation: Invocation;
  /** This project's files from the request (empty: the whole project). */
  readonly files: readonly string[];
  readonly rerun: readonly FailedTestRecord[] | null;
  readonly previous: readonly FailedTestRecord[];
}

function previousFailures(request: RunRequest, adapter: Adapter, artifacts: ArtifactPaths): FailedTestRecord[] | null {
  const last = readLastFailures(artifacts.lastFailures);
  if (last === null) {
    if (!request.failedOnly) return null;
    throw new HarnessError('FAILURES_MISSING', `--failed-only needs ${artifacts.lastFailures}, which does not exist: run the suite once first`, { path: artifacts.lastFailures });
  }
  if (last.framework !== adapter.id) {
    if (!request.failedOnly) return null;
    throw new HarnessError('STORE_CORRUPT', `${artifacts.lastFailures} was written by ${last.framework}, but this run uses ${adapter.id}`, { path: artifacts.lastFailures });
  }
  return [...last.failed_tests];
}

/** --failed-only with files narrows the recorded failures to those files. */
function selectRerun(previous: readonly FailedTestRecord[], files: readonly string[]): FailedTestRecord[] {
  if (files.length === 0) return [...previous];
  return previous.filter((t) => t.file !== null && files.some((f) => t.file === f || t.file?.startsWith(`${f}/`)));
}

async function execute(run: Execution, interrupts: Interrupts): Promise<ProjectRun> {
  const { request, invocation, artifacts } = run;
  const missingTool = (invocation.requires ?? []).find((tool) => !onPath(tool, invocation.env));
  if (missingTool !== undefined) {
    throw new HarnessError('RUNNER_MISSING', `${missingTool} not found on PATH (run from ${invocation.cwd}); ${run.detection.adapter.installHint}`, { command: missingTool });
  }
  ensureArtifactsDir(artifacts);
  // A stale report from an earlier run must never be read as this run's.
  for (const report of invocation.reports) removeFile(report.path);
  // The runner starts first: loading the parsers and following its reports overlap the run.
  const running = runCommands(invocation, {
    logPath: artifacts.log,
    timeoutMs: request.timeoutMs,
    killGraceMs: request.killGraceMs,
    tee: request.tee,
    // A log that is the runner's report is never capped: a report with a hole in it could never show a pass.
    maxLogBytes: invocation.reports.some((report) => report.path === artifacts.log) ? null : request.maxLogBytes,
  }, interrupts);
  request.onRunnerStarted?.();
  const live = request.liveCount ? liveCount(request.liveCount) : null;
  const following = followReports(invocation.reports, run.root, live?.show ?? null);
  following.catch(() => undefined); // awaited below, once the runner is done
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
    live?.clear();
  }
  return finish(run, outcome, await following);
}

/** `N tests finished…` on one terminal line, cleared when the run ends. */
function liveCount(out: NodeJS.WriteStream): { show: (n: number) => void; clear: () => void } {
  let shown = false;
  return {
    show: (n) => {
      shown = true;
      out.write(`\r\x1b[2K  ${n} tests finished…`);
    },
    clear: () => void (shown && out.write('\r\x1b[2K')),
  };
}

async function finish(run: Execution, outcome: ProcessOutcome, follower: ReportFollower): Promise<ProjectRun> {
  const { request, artifacts } = run;
  const read = follower.finish();
  const report = read.report;
  const verdict = decide({
    process: outcome,
    report,
    minTests: request.minTests,
    allowNoTests: request.allowNoTests,
    noTestsExitCodes: run.invocation.noTestsExitCodes ?? [],
    logPath: artifacts.log,
    logTail: () => readLogTail(artifacts.log),
  });
  const lookup = run.detection.adapter.locate?.bind(run.detection.adapter);
  let facts: ProjectFacts | null = null;
  // The sources are read after the run, and only for a failure without a line.
  const locate = lookup ? (failure: FailedTest) => lookup(failure, (facts ??= readProjectFacts(run.root))) : null;
  const tests = await placeFailures(report?.tests ?? [], locate);
  const warnings = [...read.warnings, ...verdict.warnings];
  if (outcome.leftoverProcesses) warnings.push('the runner left processes behind in its process group; run-tests killed them');
  const extra = run.detection.adapter.covers?.bind(run.detection.adapter);
  const missing = run.rerun ? notRun(run.rerun, tests, extra) : [];
  if (missing.length > 0 && verdict.status !== 'interrupted' && verdict.status !== 'timed_out') {
    warnings.push(`${missing.length} of the ${run.rerun?.length} selected tests did not run: ${missing.map((t) => t.test_name).join(', ')}`);
  }
  let status: RunStatus = verdict.status;
  // A rerun that lost some of its selection proves nothing about those tests.
  if (status === 'passed' && missing.length > 0) status = 'error';
  // A --command's tests cannot be rerun by run-tests: they never replace the failures
  // file the project's own runner wrote.
  const keepsFailures = request.custom === null;
  if (tests.length > 0 && keepsFailures) {
    const wholeTruth = report?.complete === true && run.rerun === null && run.files.length === 0 && request.name === null;
    writeLastFailures(artifacts.lastFailures, {
      framework: run.detection.adapter.id,
      project_root: run.root,
      failed_tests: nextFailures(run.previous, tests, wholeTruth, extra),
    });
  }
  const result = buildReport(run, {
    status,
    outcome,
    summary: summarize(report ? tests : null),
    failed: tests.filter(isFailure).map(toRecord),
    warnings,
    error: report === null ? read.error : null,
    rerun: run.rerun ? { selected: run.rerun.length, not_run: missing.map((t) => t.test_name) } : null,
    failuresFile: keepsFailures ? artifacts.lastFailures : null,
    packages: report?.packages,
    notes: report?.notes,
  });
  writeJsonAtomic(artifacts.lastReport, result);
  return { report: result, tests };
}
