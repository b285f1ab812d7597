import type { History, HistoryRun, HistoryTest } from '../../src/model/history.js';
import { SCHEMA_VERSION, type RunReport } from '../../src/model/report.js';
import type { Outcome, RunStatus } from '../../src/model/results.js';

/** A History as a project's store would hold it, made in memory for the page's tests: a
 * few tests over `runs` runs an hour apart, one of them flaky (failed twice, flaky once),
 * one slow and slowing, one named like markup, and the newest runs a 3-part partition. */
export const XSS_NAME = '<script>alert(1)</script>';

interface Spec { name: string; file: string; ms: (run: number) => number; outcome?: (run: number) => Outcome | null }

/** A deterministic jitter in [0, 1): the same page each time. */
const jitter = (run: number, salt: number): number => ((Math.sin(run * 12.9898 + salt * 78.233) * 43758.5453) % 1 + 1) % 1;

export const SPECS: readonly Spec[] = [
  { name: 'cart totals › adds line items', file: 'src/cart.test.ts', ms: (r) => 8 + 6 * jitter(r, 1) },
  { name: 'cart totals › applies a discount', file: 'src/cart.test.ts', ms: (r) => 11 + 5 * jitter(r, 2) },
  { name: 'checkout › renders the receipt', file: 'src/checkout.test.ts', ms: (r) => 420 + r * 14 + 80 * jitter(r, 3) },
  { name: 'checkout › retries the payment gateway', file: 'src/checkout.test.ts', ms: (r) => 260 + 140 * jitter(r, 4),
    outcome: (r) => (r === 6 || r === 17 ? 'failed' : r === 23 ? 'flaky' : 'passed') },
  { name: 'inventory › syncs stock from the warehouse', file: 'src/inventory.test.ts', ms: (r) => 910 + 200 * jitter(r, 5) },
  { name: 'inventory › skips archived items', file: 'src/inventory.test.ts', ms: () => 0, outcome: () => 'skipped' },
  { name: XSS_NAME, file: 'src/<img src=x onerror=alert(2)>.test.ts', ms: (r) => 30 + 10 * jitter(r, 6),
    outcome: (r) => (r === 29 ? 'failed' : 'passed') },
  { name: 'search › ranks exact matches first', file: 'src/search.test.ts', ms: (r) => 140 + 60 * jitter(r, 7), outcome: (r) => (r < 4 ? null : 'passed') },
];

const STARTED = Date.parse('2026-11-20T09:00:00Z');

export function sampleHistory(runCount = 30): History {
  const tests: HistoryTest[] = SPECS.map((spec) => {
    const outcomes = Array.from({ length: runCount }, (_, r) => (spec.outcome ?? (() => 'passed' as const))(r));
    return { name: spec.name, file: spec.file, outcomes, durations: outcomes.map((o, r) => (o === null || o === 'skipped' ? null : Math.round(spec.ms(r)))) };
  });
  const runs = Array.from({ length: runCount }, (_, r) => historyRun(r, tests, runCount));
  return { runs, tests, warnings: [] };
}

function historyRun(r: number, tests: readonly HistoryTest[], runCount: number): HistoryRun {
  const count = (...of: Outcome[]): number => tests.filter((t) => of.includes(t.outcomes[r] as Outcome)).length;
  const failures = count('failed', 'error');
  const status: RunStatus = failures > 0 ? 'failed' : 'passed';
  const part = r - (runCount - 3);
  const started = new Date(STARTED + r * 3_600_000).toISOString();
  return {
    run_id: `${started.slice(0, 10).replace(/-/g, '')}-${started.slice(11, 19).replace(/:/g, '')}.000-${(0x1000 + r).toString(16).padStart(8, '0')}`,
    started_at: started,
    status,
    framework: 'vitest',
    // The parts of the partition ran a third of the tests each, one part the slow ones.
    duration_ms: part >= 0 ? [1850, 2640, 1490][part] ?? 0 : tests.reduce((sum, t) => sum + (t.durations[r] ?? 0), 0) + 700,
    revision: null,
    dirty: null,
    shard: part >= 0 ? { index: part + 1, count: 3, partition: '5f3a9c1e' } : null,
    source: 'store',
    summary: { run: count('passed', 'failed', 'error', 'flaky'), passed: count('passed'), failures, errors: 0, skips: count('skipped'), flaky: count('flaky') },
  };
}

/** The report of the history's newest run: the markup-named test failed at line 4, with a
 * message that holds markup and a terminal colour. */
export function sampleLastReport(history: History): RunReport {
  const newest = history.runs.at(-1);
  return {
    schema_version: SCHEMA_VERSION, source: 'run', run_id: newest?.run_id ?? null, status: newest?.status ?? 'failed', exit_code: 1, framework: 'vitest',
    reason: 'vitest in package.json', command: 'npx vitest run', project_root: '/home/dev/shop', exit_status: 1, signal: null, timed_out: false,
    duration_ms: newest?.duration_ms ?? 0, started_at: newest?.started_at ?? null, finished_at: null, summary: newest?.summary ?? { run: 0, passed: 0, failures: 0, errors: 0, skips: 0 },
    failed_tests: [{
      test_name: XSS_NAME, file: SPECS[6]?.file ?? null, line: 4, status: 'failed', id: XSS_NAME,
      message: 'AssertionError: expected "<b>bold</b>" to be "<i>it</i>"\n\u001b[31m- Expected\u001b[39m\n+ Received\n\n  at src/<img src=x onerror=alert(2)>.test.ts:4:11',
    }],
    rerun: null, artifact: null, failures_file: null, next: 'run-tests --failed-only', warnings: [], error: null, projects: [],
  };
}
