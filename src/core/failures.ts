import { boundMessage, withFullText } from '../parsers/fields.js';
import type { FailedTest, FailedTestRecord, TestResult } from '../model/results.js';
import type { RunReport } from '../model/report.js';

export const isFailure = (test: TestResult): test is FailedTest => test.status === 'failed' || test.status === 'error';

/** A failure as the report and last-failures.json keep it; a cut message names `where`
 * its full text is (the run's log), when given. The stack is null where the runner gave none. */
export const recordOf = (where: string | null) => (test: FailedTest): FailedTestRecord => ({
  test_name: test.name,
  file: test.file,
  line: test.line,
  status: test.status,
  message: where === null ? boundMessage(test.message) : withFullText(boundMessage(test.message), where),
  id: test.id,
  stack: test.stack ?? null,
  ...(test.attempts === undefined ? {} : { attempts: test.attempts }),
});

export const toRecord = recordOf(null);

/** The report's failures: the first `max` (all when null), and `truncated` with how
 * many were left out, when any were. `dropped` counts failures left out before (a
 * project's, in a merged report). */
export function capFailures<T extends FailedTestRecord>(failed: readonly T[], max: number | null, dropped = 0): { failed_tests: readonly T[]; truncated?: NonNullable<RunReport['truncated']> } {
  const shown = max === null ? failed : failed.slice(0, max);
  const left = dropped + failed.length - shown.length;
  return left > 0 ? { failed_tests: shown, truncated: { failed_tests: left } } : { failed_tests: shown };
}

/** Where a failure without a line is defined (Runner.locate, with the project bound). */
export type Locate = (failure: FailedTest) => Promise<{ readonly file: string; readonly line: number } | null>;

/** The results, with each failure that has no line placed where `locate` finds it. A
 * place is a nicety: a lookup that fails leaves the failure as the report gave it. */
export async function placeFailures(tests: readonly TestResult[], locate: Locate | null): Promise<readonly TestResult[]> {
  const unplaced = (test: TestResult): test is FailedTest => isFailure(test) && test.line === null;
  if (locate === null || !tests.some(unplaced)) return tests;
  return Promise.all(tests.map(async (test) => {
    const at = unplaced(test) ? await locate(test).catch(() => null) : null;
    return at ? { ...test, file: at.file, line: at.line } : test;
  }));
}

/** An adapter's own rule for results that speak for a record with another id. */
export type Covers = (record: FailedTestRecord, result: TestResult) => boolean;

/** How a runner's results are matched to recorded failures (from its Runner). */
export interface RerunRules {
  readonly covers?: Covers;
  /** The runner's ids name its tests, and a failure's `file` is where it failed (Runner.identity). */
  readonly identity?: 'name-and-file' | 'name-and-id';
}

/** Whether a result is the recorded test itself, by identity, never by selector alone:
 * an rspec id (`x_spec.rb[1:2]`) is positional and names another example once one is
 * inserted above. The name must agree, and the file where both are known; where a side
 * has no file (a runner that places only failures) the id must agree instead. */
export function isSameTest(record: FailedTestRecord, result: TestResult, identity: RerunRules['identity'] = 'name-and-file'): boolean {
  if (record.test_name !== result.name) return false;
  if (identity === 'name-and-id' || record.file === null || result.file === null) return record.id === result.id;
  return record.file === result.file;
}

/** Whether this run's results say anything about a recorded failure: the same test
 * ran, or, for a file-level entry (a load error, id = file), a test of that file ran,
 * or the adapter's rule says so. Built once per run: reruns select thousands of tests. */
function coverage(results: readonly TestResult[], rules: RerunRules): (record: FailedTestRecord) => boolean {
  const byName = new Map<string, TestResult[]>();
  const files = new Set<string | null>();
  for (const result of results) {
    const same = byName.get(result.name);
    if (same) same.push(result);
    else byName.set(result.name, [result]);
    files.add(result.file);
  }
  return (record) => (byName.get(record.test_name) ?? []).some((r) => isSameTest(record, r, rules.identity))
    || (record.file !== null && record.id === record.file && files.has(record.file))
    || (rules.covers !== undefined && results.some((r) => rules.covers?.(record, r)));
}

/** The selected tests of a rerun that did not run: never a silent pass. */
export function notRun(selected: readonly FailedTestRecord[], results: readonly TestResult[], rules: RerunRules = {}): FailedTestRecord[] {
  const covered = coverage(results, rules);
  return selected.filter((record) => !covered(record));
}

/** The failures to remember after a run. A complete run of the whole suite is the whole
 * truth; any narrower or cut-short run keeps earlier failures it did not reach. */
export function nextFailures(
  previous: readonly FailedTestRecord[],
  results: readonly TestResult[],
  wholeTruth: boolean,
  rules: RerunRules = {},
  record: (test: FailedTest) => FailedTestRecord = toRecord,
): FailedTestRecord[] {
  const current = results.filter(isFailure).map(record);
  if (wholeTruth) return current;
  const covered = coverage(results, rules);
  return [...current, ...previous.filter((record) => !covered(record))];
}
