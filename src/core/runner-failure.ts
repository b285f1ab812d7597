import type { Runner } from '../runners/types.js';
import type { ProcessOutcome } from '../process/index.js';
import { readLogHead, readLogTail } from './log-tail.js';
import type { RunReport } from '../model/report.js';

/** The runner's own first error lines are looked for in this much of the log's start:
 * a runner that fails before its tests says why before anything else. */
const HEAD_BYTES = 64 * 1024;
const QUOTED_LINES = 8;

/** A runner that exited non-zero with no test result at all failed before running any
 * test (a bundle or crate it cannot resolve, a task it does not know): RUNNER_FAILED,
 * quoting its own first error lines (Runner.failureLines), else the end of its output.
 * null when tests ran, or the run ended otherwise (a timeout, an interrupt, an exit code
 * by which the runner says it found no tests). */
export function runnerFailure(
  adapter: Pick<Runner, 'failureLines'>,
  outcome: Pick<ProcessOutcome, 'exitCode' | 'signal' | 'timedOut' | 'interrupted'>,
  results: number,
  noTestsExitCodes: readonly number[],
  logPath: string,
): NonNullable<RunReport['error']> | null {
  if (results > 0 || outcome.interrupted || outcome.timedOut || outcome.exitCode === 0) return null;
  if (outcome.exitCode !== null && noTestsExitCodes.includes(outcome.exitCode)) return null;
  const own = adapter.failureLines?.(readLogHead(logPath, HEAD_BYTES)) ?? [];
  const quoted = own.length > 0 ? own.slice(0, QUOTED_LINES) : readLogTail(logPath, QUOTED_LINES).split('\n');
  const how = outcome.signal !== null ? `was killed by ${outcome.signal}` : `exited ${String(outcome.exitCode)}`;
  const source = own.length > 0 ? 'its first error lines' : 'the end of its output';
  return {
    code: 'RUNNER_FAILED',
    message: `the runner ${how} before running any test; ${source} (${logPath}):\n${quoted.map((line) => `  ${line}`).join('\n')}`,
  };
}
