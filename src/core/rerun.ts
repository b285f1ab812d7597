import type { Adapter, Invocation, PlanRequest } from '../adapters/types.js';
import type { RerunRules } from './failures.js';
import type { FailedTestRecord } from './types.js';

/** --failed-only with files narrows the recorded failures to those files. */
export function selectRerun(previous: readonly FailedTestRecord[], files: readonly string[]): FailedTestRecord[] {
  if (files.length === 0) return [...previous];
  return previous.filter((t) => t.file !== null && files.some((f) => t.file === f || t.file?.startsWith(`${f}/`)));
}

export const rerunRules = (adapter: Adapter): RerunRules => ({
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
export function planRerun(adapter: Adapter, request: PlanRequest): { invocation: Invocation; warnings: string[] } {
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
