import type { ParsedReport, RunStatus, Summary, TestResult } from '../model/results.js';

export interface ProcessFacts {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly interrupted: boolean;
}

export interface VerdictInput {
  readonly process: ProcessFacts;
  /** null when no structured report could be read at all. */
  readonly report: ParsedReport | null;
  readonly minTests: number;
  readonly allowNoTests: boolean;
  /** Exit codes that mean "no tests" for this runner (Invocation.noTestsExitCodes). */
  readonly noTestsExitCodes?: readonly number[];
  /** For messages: where the full output is. */
  readonly logPath: string;
  /** The last lines of the log, quoted when the runner's exit contradicts its report. */
  readonly logTail: () => string;
}

export interface Verdict {
  readonly status: RunStatus;
  readonly warnings: readonly string[];
}

export function summarize(tests: readonly TestResult[] | null): Summary {
  if (tests === null) return { run: null, passed: null, failures: null, errors: null, skips: null };
  const count = (status: TestResult['status']) => tests.filter((t) => t.status === status).length;
  return { run: tests.length, passed: count('passed'), failures: count('failed'), errors: count('error'), skips: count('skipped') };
}

/** The warning of a run in which no test ran at all. */
export const NO_TESTS_RAN = 'no tests ran';

/** The truth rules: `passed` only when a complete structured report shows at least one
 * test and no failures, agrees with its own totals, and the runner agrees by exiting 0. */
export function decide(input: VerdictInput): Verdict {
  const { process, report } = input;
  const warnings: string[] = [];
  if (report && !report.complete && report.tests.length > 0) {
    const n = report.tests.length;
    warnings.push(`the run ended before its report did: ${n} ${n === 1 ? 'result was' : 'results were'} recorded before it stopped`);
  }
  if (process.interrupted) return { status: 'interrupted', warnings };
  if (process.timedOut) return { status: 'timed_out', warnings };
  if (report === null) {
    return { status: 'error', warnings: [`the runner wrote no usable report (exit ${String(process.exitCode)}); see ${input.logPath}`] };
  }
  const contradictions = report.contradictions ?? [];
  for (const c of contradictions) warnings.push(`the report contradicts itself: ${c.message}`);
  const failing = report.tests.filter((t) => t.status === 'failed' || t.status === 'error').length;
  if (failing > 0) {
    if (process.exitCode === 0) warnings.push('the runner exited 0 although its report holds failures');
    return { status: 'failed', warnings };
  }
  if (!report.complete) {
    return { status: 'error', warnings: [...warnings, `the runner's report ended early (exit ${String(process.exitCode)}); see ${input.logPath}`] };
  }
  // Totals that disagree with the tests mean some results are missing or wrong: no pass.
  if (contradictions.length > 0) return { status: contradictions.some((c) => c.saysFailed) ? 'failed' : 'error', warnings };
  const executed = report.tests.filter((t) => t.status !== 'skipped').length;
  const saysNoTests = executed === 0 && process.exitCode !== null && (input.noTestsExitCodes ?? []).includes(process.exitCode);
  if (process.exitCode !== 0 && !saysNoTests) {
    warnings.push(`the report shows no failures but the runner exited ${String(process.exitCode)}; last lines of ${input.logPath}:\n${input.logTail()}`);
    return { status: 'error', warnings };
  }
  // Skipped tests count in `run` but prove nothing: a pass needs one that executed.
  if (executed === 0) {
    const why = report.tests.length === 0 ? NO_TESTS_RAN : `all ${report.tests.length} tests were skipped`;
    return { status: 'no_tests', warnings: [...warnings, why] };
  }
  if (executed < input.minTests) {
    return { status: 'no_tests', warnings: [...warnings, `${executed} tests executed, fewer than --min-tests ${input.minTests}`] };
  }
  return { status: 'passed', warnings };
}
