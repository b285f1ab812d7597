import { boundMessage } from '../parsers/fields.js';
import type { FailedTest, FailedTestRecord, TestResult } from './types.js';

export const isFailure = (test: TestResult): test is FailedTest => test.status === 'failed' || test.status === 'error';

export const toRecord = (test: FailedTest): FailedTestRecord => ({
  test_name: test.name,
  file: test.file,
  line: test.line,
  status: test.status,
  message: boundMessage(test.message),
  id: test.id,
});

/** Where a failure without a line is defined (Adapter.locate, with the project bound). */
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

/** Whether this run's results say anything about a recorded failure: the same test
 * ran, or, for a file-level entry (a load error, id = file), a test of that file ran,
 * or the adapter's rule says so. */
export const covers = (results: readonly TestResult[], record: FailedTestRecord, extra?: Covers): boolean =>
  results.some((r) => r.id === record.id || (record.id === record.file && r.file === record.file) || (extra?.(record, r) ?? false));

/** The selected tests of a rerun that did not run: never a silent pass. */
export const notRun = (selected: readonly FailedTestRecord[], results: readonly TestResult[], extra?: Covers): FailedTestRecord[] =>
  selected.filter((record) => !covers(results, record, extra));

/** The failures to remember after a run. A complete run of the whole suite is the whole
 * truth; any narrower or cut-short run keeps earlier failures it did not reach. */
export function nextFailures(
  previous: readonly FailedTestRecord[],
  results: readonly TestResult[],
  wholeTruth: boolean,
  extra?: Covers,
): FailedTestRecord[] {
  const current = results.filter(isFailure).map(toRecord);
  if (wholeTruth) return current;
  return [...current, ...previous.filter((record) => !covers(results, record, extra))];
}
