import type { History, HistoryRun, HistoryTest, TestStats } from '../../model/history.js';
import type { Outcome } from '../../model/results.js';
import { median, p95, trend } from './durations.js';

/** What each test's history says (docs/history.md), in the order `run-tests history`
 * shows: the tests that flip most first, then the flakiest, then the slowest by median,
 * then by file and name. Pure: the same history, the same answer. */
export function testStats(history: History): TestStats[] {
  return history.tests.map((test) => statsOf(test, history.runs)).sort(byConcern);
}

/** Passed or failed as a flip counts it; null: neither (skipped, flaky, not run). A
 * flaky run is its own verdict (`flaky`), and a run between two others never hides a
 * flip: flips are counted between the runs that passed or failed. */
const sideOf = (outcome: Outcome | null): 'pass' | 'fail' | null =>
  outcome === 'passed' ? 'pass' : outcome === 'failed' || outcome === 'error' ? 'fail' : null;

/** Whether two runs ran the same tree, so that a test's change between them is its own
 * doing: both on one commit with a clean tree, or both without git (the tree unknown,
 * as a fixture or a CI checkout without .git). A dirty tree, or one run with git and
 * one without, may differ in anything: no flip is counted across it. */
export function sameTree(a: HistoryRun, b: HistoryRun): boolean {
  if (a.revision !== null && a.revision === b.revision) return a.dirty === false && b.dirty === false;
  return a.revision === null && b.revision === null && a.dirty === null && b.dirty === null;
}

function statsOf(test: HistoryTest, runs: readonly HistoryRun[]): TestStats {
  let ran = 0;
  let failures = 0;
  let flaky = 0;
  let flips = 0;
  let last: Outcome | null = null;
  let previous: { side: 'pass' | 'fail'; run: HistoryRun } | null = null;
  const durations: number[] = [];
  test.outcomes.forEach((outcome, index) => {
    if (outcome === null) return;
    last = outcome;
    if (outcome === 'skipped') return;
    ran += 1;
    if (outcome === 'failed' || outcome === 'error') failures += 1;
    if (outcome === 'flaky') flaky += 1;
    const duration = test.durations[index];
    if (duration !== null && duration !== undefined) durations.push(duration);
    const side = sideOf(outcome);
    const run = runs[index];
    if (side === null || run === undefined) return;
    if (previous !== null && previous.side !== side && sameTree(previous.run, run)) flips += 1;
    previous = { side, run };
  });
  return { name: test.name, file: test.file, runs: ran, failures, flaky, flips, median_ms: median(durations), p95_ms: p95(durations), trend: trend(durations), last };
}

/** Flips, then flaky verdicts, most first; then the slowest median (unknown last); then file and name. */
export function byConcern(a: TestStats, b: TestStats): number {
  return b.flips - a.flips || b.flaky - a.flaky || (b.median_ms ?? -1) - (a.median_ms ?? -1)
    || compare(a.file ?? '', b.file ?? '') || compare(a.name, b.name);
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
