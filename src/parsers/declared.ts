/** A report's own totals and outcome, checked against the tests it lists. A report that
 * says `numFailedTests: 1` beside only passing tests has lost a failure somewhere; the
 * verdict never passes it (core/verdict.ts). Each parser says which of its numbers count
 * which tests, and leaves out entries it made up itself (load errors, unattributed ones). */
import type { Contradiction, TestResult } from '../model/results.js';

export type Counted = 'all' | 'passed' | 'failing' | 'skipped';

/** One total a report declares about its tests. */
export interface DeclaredTotal {
  /** As the report spells it, for the warning: `numFailedTests`, `summary.failure_count`. */
  readonly name: string;
  /** Anything but a whole number ≥ 0 is not a declaration and is ignored. */
  readonly value: unknown;
  readonly counts: Counted;
}

const WHAT: Readonly<Record<Counted, (n: number) => string>> = {
  all: (n) => `${n} ${n === 1 ? 'test is' : 'tests are'} listed`,
  passed: (n) => `${n} listed ${n === 1 ? 'test' : 'tests'} passed`,
  failing: (n) => `${n} listed ${n === 1 ? 'test' : 'tests'} failed`,
  skipped: (n) => `${n} listed ${n === 1 ? 'test was' : 'tests were'} skipped`,
};

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function countOf(tests: readonly TestResult[], counts: Counted): number {
  if (counts === 'all') return tests.length;
  let n = 0;
  for (const t of tests) {
    if (counts === 'failing' ? t.status === 'failed' || t.status === 'error' : t.status === counts) n += 1;
  }
  return n;
}

/** The declared totals the tests do not bear out. A declared failure the tests do not
 * show says the run failed. */
export function checkTotals(declared: readonly DeclaredTotal[], tests: readonly TestResult[]): Contradiction[] {
  const found: Contradiction[] = [];
  for (const { name, value, counts } of declared) {
    if (!isCount(value)) continue;
    const n = countOf(tests, counts);
    if (value !== n) found.push({ message: `${name} is ${value}, but ${WHAT[counts](n)}`, saysFailed: counts === 'failing' && value > n });
  }
  return found;
}

/** A declared outcome (`success: false`) against whether any listed test failed. */
export function checkOutcome(name: string, success: unknown, tests: readonly TestResult[]): Contradiction[] {
  if (typeof success !== 'boolean') return [];
  const failing = countOf(tests, 'failing');
  if (success === (failing === 0)) return [];
  return [{ message: `${name} is ${String(success)}, but ${WHAT.failing(failing)}`, saysFailed: !success }];
}

/** The report with its contradictions, the field left out when there are none. */
export const withContradictions = <R extends object>(report: R, found: readonly Contradiction[]): R & { contradictions?: readonly Contradiction[] } =>
  found.length === 0 ? report : { ...report, contradictions: found };
