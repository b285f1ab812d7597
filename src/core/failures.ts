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

/** Whether this run's results say anything about a recorded failure: the same test
 * ran, or, for a file-level entry (a load error, id = file), a test of that file ran. */
export const covers = (results: readonly TestResult[], record: FailedTestRecord): boolean =>
  results.some((r) => r.id === record.id || (record.id === record.file && r.file === record.file));

/** The selected tests of a rerun that did not run: never a silent pass. */
export const notRun = (selected: readonly FailedTestRecord[], results: readonly TestResult[]): FailedTestRecord[] =>
  selected.filter((record) => !covers(results, record));

/** The failures to remember after a run. A complete run of the whole suite is the whole
 * truth; any narrower or cut-short run keeps earlier failures it did not reach. */
export function nextFailures(
  previous: readonly FailedTestRecord[],
  results: readonly TestResult[],
  wholeTruth: boolean,
): FailedTestRecord[] {
  const current = results.filter(isFailure).map(toRecord);
  if (wholeTruth) return current;
  return [...current, ...previous.filter((record) => !covers(results, record))];
}
