/** The shapes every part of run-tests agrees on. Field names that reach the JSON
 * report are snake_case (the contract); internal ones are camelCase. */

/** A test's status as its runner reports it. */
export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';
/** A test's status in run-tests' report: its runner's, or `flaky`: failed, then passed
 * when --retries ran it again. */
export type Outcome = TestStatus | 'flaky';

/** One run of a test that --retries ran again: the first run and each retry, in order. */
export interface Attempt {
  readonly status: TestStatus;
  /** null when the runner gave no duration. */
  readonly duration_ms: number | null;
  /** A failed attempt's message, bounded as failures' are; null for a pass. */
  readonly message: string | null;
}

interface TestBase {
  /** Runner-native selector used for exact reruns, e.g. `FooTest#test_a` or `./spec/a_spec.rb[1:2]`. */
  readonly id: string;
  /** Fully qualified name as the runner shows it. */
  readonly name: string;
  /** Relative to the project root, `/`-separated; null when the runner did not say. */
  readonly file: string | null;
  /** 1-based. For failures: where it failed in the test file; otherwise the definition line. */
  readonly line: number | null;
  readonly durationMs?: number;
  /** The unit the runner builds and runs its tests in, where a file does not say it:
   * go's package (import path), cargo's target (`mixed::api`). A test keeps it whether
   * it passed or failed; JUnit names the test's <testsuite> and classname after it. */
  readonly suite?: string;
  /** With --retries, for a test that failed at first: every attempt, in order (the
   * result is the last one's). Absent for a test that was not retried. */
  readonly attempts?: readonly Attempt[];
}

export interface PassedTest extends TestBase { readonly status: 'passed' }
export interface SkippedTest extends TestBase { readonly status: 'skipped'; readonly message?: string }
/** A failed test always carries its message; `error` means an unexpected exception
 * (or an error outside any test, such as a load error), `failed` an assertion. */
export interface FailedTest extends TestBase {
  readonly status: 'failed' | 'error';
  readonly message: string;
  /** The failure's stack, frames in the project only (src/parsers/frames.ts); absent
   * when the runner gave none. */
  readonly stack?: readonly StackFrame[];
  /** An error outside any test (a load error, a build failure, a failing hook): never
   * retried as a test (--retries). */
  readonly outside?: true;
}

/** A test that failed and then passed when --retries ran it again: not a pass. Its
 * message is its first failure's; every attempt is in `attempts`. */
export interface FlakyTest extends TestBase {
  readonly status: 'flaky';
  readonly message: string;
  readonly attempts: readonly Attempt[];
}

/** One frame of a failure's stack, in the project: not in its dependencies
 * (node_modules, the module cache) nor in the runtime. */
export interface StackFrame {
  /** Relative to the project root, `/`-separated. */
  readonly file: string;
  readonly line: number;
  readonly function: string | null;
}
export type TestResult = PassedTest | SkippedTest | FailedTest | FlakyTest;

/** What a parser makes of one structured report. Parsers are pure. */
export interface ParsedReport {
  readonly tests: readonly TestResult[];
  /** True only when the report shows the run reached its end (not truncated or cut off). */
  readonly complete: boolean;
  readonly warnings: readonly string[];
  /** Where the report's own totals or outcome disagree with its tests; such a report is never `passed`. */
  readonly contradictions?: readonly Contradiction[];
  /** The command a launcher of ours started instead of the planned one, as the report
   * says (pytest from PATH when the project's python3 has no pytest module): the report
   * shows it as `command`, and `why` in its reason. */
  readonly ran?: { readonly argv: readonly string[]; readonly why: string };
  /** The runner's launcher or plugin says run-tests cannot use it (no runner where the
   * launcher looked, a version outside the range supported): the run is this harness
   * error, whatever else the report holds. */
  readonly unusable?: { readonly code: 'RUNNER_MISSING' | 'RUNNER_UNSUPPORTED'; readonly message: string };
  /** The packages the run tested, for runners that test by package (go): whether each
   * result was replayed from the runner's own cache. */
  readonly packages?: readonly PackageResult[];
  /** How the run went, beyond its results (`2 of 3 packages replayed from go's test
   * cache`): added to the report's reason. */
  readonly notes?: readonly string[];
  /** In a run cut short: the tests that had started and not ended (empty: none). Absent
   * when the report does not say when a test starts. */
  readonly running?: readonly RunningTest[];
}

/** A test that was running when its run stopped; a file with no test running in it
 * has a null name. */
export interface RunningTest {
  readonly name: string | null;
  /** Relative to the project root; null when the runner did not say. */
  readonly file: string | null;
}

export interface PackageResult {
  readonly name: string;
  readonly cached: boolean;
  /** How long the package's test binary ran (go's final event's Elapsed: init, TestMain
   * and every test), in ms; absent when the runner did not say. Its unit's duration,
   * unless replayed from the cache. */
  readonly elapsed_ms?: number;
}

/** A number or outcome a report states about itself that its tests do not bear out
 * (jest's `numFailedTests: 1` beside only passing tests). */
export interface Contradiction {
  /** The numbers that disagree, as the report names them: `numFailedTests is 1, but 0 listed tests failed`. */
  readonly message: string;
  /** The report's own numbers say the run failed: the verdict is `failed` rather than `error`. */
  readonly saysFailed: boolean;
}

export interface ParseContext {
  /** Absolute project root, used to make file paths relative. */
  readonly root: string;
  /** What the adapter knows that the report does not say (ReportSource.hints). */
  readonly hints?: Readonly<Record<string, string>>;
}

export type Parser = (text: string, ctx: ParseContext) => ParsedReport;

export interface Summary {
  readonly run: number | null;
  readonly passed: number | null;
  readonly failures: number | null;
  readonly errors: number | null;
  readonly skips: number | null;
  /** With --retries: the tests that failed and then passed on a retry; counted in `run`,
   * not in `passed`. Absent without --retries. */
  readonly flaky?: number | null;
}

export type RunStatus =
  | 'passed' | 'failed' | 'error' | 'timed_out' | 'no_tests' | 'interrupted' | 'nothing_to_rerun'
  /** A stored run whose run-tests process ended without writing its report. */
  | 'abandoned';

/** One failed test as it appears in the report and in last-failures.json. */
export interface FailedTestRecord {
  readonly test_name: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly status: 'failed' | 'error';
  readonly message: string;
  /** Runner-native selector for reruns. */
  readonly id: string;
  /** Frames in the project, at most STACK_FRAMES_LIMIT; null when the runner gave no
   * stack (records written before it existed have none). */
  readonly stack?: readonly StackFrame[] | null;
  /** With --retries: every attempt of a failure that was retried (it failed each). */
  readonly attempts?: readonly Attempt[];
}

/** A flaky test as the report lists it (`flaky_tests`). */
export interface FlakyTestRecord {
  readonly test_name: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly id: string;
  readonly attempts: readonly Attempt[];
}
