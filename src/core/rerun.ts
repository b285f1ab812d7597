import type { Runner, Invocation, PlanRequest } from '../runners/types.js';
import { listIsSettled, type LastFailures } from '../store/last-failures.js';
import { HarnessError } from '../model/errors.js';
import type { RerunRules } from './failures.js';
import type { FailedTestRecord } from '../model/results.js';

export interface RerunSelection {
  /** The recorded failures asked for: all, or those in the files given. */
  readonly selected: readonly FailedTestRecord[];
  /** Those a command line can carry: what the runner is asked to run. */
  readonly runnable: readonly FailedTestRecord[];
  readonly warnings: readonly string[];
}

/** What --failed-only reruns; null when nothing is left to rerun. Throws when an empty
 * selection proves nothing: the last run ended without results, or every failure asked
 * for holds a NUL byte. */
export function selectRerun(last: LastFailures, files: readonly string[], failuresFile: string): RerunSelection | null {
  const selected = files.length === 0 ? [...last.failed_tests]
    : last.failed_tests.filter((t) => t.file !== null && files.some((f) => t.file === f || t.file?.startsWith(`${f}/`)));
  const skipped = uncarriable(selected);
  const runnable = selected.filter((t) => !skipped.includes(t));
  const named = skipped.map((t) => JSON.stringify(t.id)).join(', ');
  if (runnable.length > 0) {
    return { selected, runnable, warnings: skipped.length === 0 ? [] : [`not rerun: ${named}, whose recorded id holds a NUL byte, which no command line can carry`] };
  }
  if (skipped.length > 0) {
    throw new HarnessError('STORE_CORRUPT', `${failuresFile}: no command line can carry the recorded failures (${named}): each holds a NUL byte; run the suite without --failed-only`, { path: failuresFile });
  }
  if (!listIsSettled(last)) {
    throw new HarnessError('FAILURES_MISSING', `the last run ended as ${last.last_run?.status ?? 'unknown'}, without results that tell what failed: run the tests without --failed-only`, { path: failuresFile });
  }
  return null;
}

export const rerunRules = (adapter: Runner): RerunRules => ({
  ...(adapter.covers ? { covers: adapter.covers.bind(adapter) } : {}),
  ...(adapter.identity ? { identity: adapter.identity } : {}),
});

/** Records a command line cannot carry: a NUL byte ends a C string, and node refuses to
 * spawn with one in any argument or variable, so one such id would stop every rerun. */
export function uncarriable(records: readonly FailedTestRecord[]): FailedTestRecord[] {
  return records.filter((t) => [t.id, t.test_name, t.file ?? ''].some((text) => text.includes('\0')));
}

/** Linux refuses (E2BIG) a single argument or variable over 128 KiB (MAX_ARG_STRLEN), and
 * all of them together over ARG_MAX (a quarter of the stack limit, 2 MiB by default).
 * Margins: launchers and runners pass the selection on to processes of their own, with
 * some words added (`-test.run=`, rake's shell command line) and more variables. */
const MAX_WORD_BYTES = 120 * 1024;
const MAX_TOTAL_BYTES = 1024 * 1024;

/** Why the invocation's commands would not fit the kernel's limits, or null. */
export function tooLarge(invocation: Pick<Invocation, 'argv' | 'thenArgv' | 'env'>): string | null {
  const env = Object.entries(invocation.env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
  for (const argv of [invocation.argv, ...(invocation.thenArgv ?? [])]) {
    const words = [...argv, ...env];
    const longest = Math.max(...words.map((w) => Buffer.byteLength(w)));
    if (longest > MAX_WORD_BYTES) return `one of its arguments would be ${longest} bytes long`;
    // Each word also costs its NUL and a pointer.
    const total = words.reduce((sum, w) => sum + Buffer.byteLength(w) + 9, 0);
    if (total > MAX_TOTAL_BYTES) return `its arguments and environment would take ${total} bytes`;
  }
  return null;
}

/** The rerun's command: the exact selection when the kernel can take it; else the files
 * of the selected failures, run whole; else the files given, or the whole project. What ran is checked
 * against the selection by identity either way (notRun), so running more proves nothing
 * false. */
export function planRerun(adapter: Runner, request: PlanRequest): { invocation: Invocation; warnings: string[] } {
  const exact = adapter.plan(request);
  const rerun = request.rerun ?? [];
  const why = rerun.length === 0 ? null : tooLarge(exact);
  if (why === null) return { invocation: exact, warnings: [] };
  const files = rerun.some((t) => t.file === null) ? [] : [...new Set(rerun.map((t) => t.file as string))];
  const byFiles = files.length === 0 ? null : adapter.plan({ ...request, rerun: null, name: null, files });
  if (byFiles !== null && tooLarge(byFiles) === null) {
    return { invocation: byFiles, warnings: [`the exact rerun of ${rerun.length} tests is too large for one command line (${why}): their ${files.length} file(s) ran whole instead`] };
  }
  const whole = adapter.plan({ ...request, rerun: null, name: null });
  const what = request.files.length === 0 ? 'the whole project' : 'the files given';
  return { invocation: whole, warnings: [`the exact rerun of ${rerun.length} tests is too large for one command line (${why}), and so are their files: ${what} ran instead`] };
}
