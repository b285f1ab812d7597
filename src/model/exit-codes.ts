/** Every exit status run-tests uses, each one documented once: the CLI, `--help`,
 * harness errors and the JSON report's `exit_code` read them from here, and a test keeps
 * the README's table equal to EXIT_CODE_MEANINGS. */
import type { RunStatus } from './results.js';

export const EXIT = {
  /** The suite passed, there was nothing to rerun, or no tests ran with --allow-no-tests;
   * for `detect`, `show`, `runs` and `parse` of a passing report: done. */
  OK: 0,
  /** At least one test failed. */
  TESTS_FAILED: 1,
  /** The command line was wrong: nothing ran. */
  USAGE: 2,
  /** run-tests or the runner failed before it could tell: no runner, runner missing or
   * failed before any test, no usable report, an abandoned run. */
  HARNESS_ERROR: 3,
  /** No tests ran, or fewer than --min-tests. */
  NO_TESTS: 4,
  /** --timeout ran out (as timeout(1) exits). */
  TIMED_OUT: 124,
  /** Ctrl-C or SIGTERM stopped the run (128 + SIGINT). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, as `--help` and the README say it, in ascending order. */
export const EXIT_CODE_MEANINGS: readonly (readonly [ExitCode, string])[] = [
  [EXIT.OK, 'passed, or nothing to rerun (or no tests, with --allow-no-tests)'],
  [EXIT.TESTS_FAILED, 'tests failed'],
  [EXIT.USAGE, 'usage error: nothing ran'],
  [EXIT.HARNESS_ERROR, 'harness or runner error: no runner, runner missing, unsupported or failed before any test; no usable report, failures file or .run-tests'],
  [EXIT.NO_TESTS, 'no tests ran (or fewer than --min-tests)'],
  [EXIT.TIMED_OUT, 'timed out'],
  [EXIT.INTERRUPTED, 'interrupted (Ctrl-C, SIGTERM or SIGHUP)'],
];

/** The exit code of each run status (`no_tests` may still exit 0: see exitCodeOf). */
export const STATUS_EXIT_CODES: Readonly<Record<RunStatus, ExitCode>> = {
  passed: EXIT.OK,
  nothing_to_rerun: EXIT.OK,
  failed: EXIT.TESTS_FAILED,
  error: EXIT.HARNESS_ERROR,
  abandoned: EXIT.HARNESS_ERROR,
  no_tests: EXIT.NO_TESTS,
  timed_out: EXIT.TIMED_OUT,
  interrupted: EXIT.INTERRUPTED,
};

/** Exit code of a report; `no_tests` exits 0 when --allow-no-tests accepted it. */
export const exitCodeOf = (status: RunStatus, allowNoTests: boolean): ExitCode =>
  status === 'no_tests' && allowNoTests ? EXIT.OK : STATUS_EXIT_CODES[status];
