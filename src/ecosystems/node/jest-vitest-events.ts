/** What the jest and vitest parsers share. Both read the one event format
 * (src/parsers/events.ts) written by a reporter of ours (reporters/jest/reporter.cjs,
 * reporters/vitest/reporter.mjs) that runs files as units, often several at once: each
 * file's tests between its file_start and file_end. A file that started and never ended
 * is the evidence of a runner that died (process.exit in a test, a crash, a timeout). A
 * rerun may run the runner twice into one report, each run from its run_start to its
 * run_end. Here: ids (`<file>::<name>`), the failing line from a stack, and the warnings
 * in the runners' words. */
import { stripVTControlCharacters } from 'node:util';
import type { FailedTest, ParseContext, TestResult } from '../../model/results.js';
import { boundMessage, relativeFile } from '../../parsers/fields.js';
import type { ErrorEvent, EventRules, Running, RunRead, TestEnd } from '../../parsers/events.js';
import { failureStack, stackFrames } from './stack.js';

export type Json = Record<string, unknown>;

/** Colours, cursor moves and OSC-8 links (their text kept): node's own stripper, which
 * knows every sequence a terminal reporter writes, not only `ESC [ … m`. */
export const stripAnsi = (text: string): string => stripVTControlCharacters(text);

export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export const objects = (value: unknown): Json[] =>
  (Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)) : []);

/** `<file>::<name>`: stable, unique per test name within a file, and enough to rerun it. */
export const testId = (file: string | null, name: string): string => `${file ?? ''}::${name}`;

/** The id of an error tied to a whole file (a load error): the file itself, so a rerun
 * runs that file and any of its tests covers it. */
export const loadErrorName = (file: string): string => `load error: ${file}`;

/** Where a failure happened in a file (root-relative): the first frame of the stack in it. */
export function lineIn(stack: string | null, file: string | null, ctx: ParseContext): number | null {
  if (stack === null || file === null) return null;
  return stackFrames(stripAnsi(stack)).find((frame) => relativeFile(frame.file, ctx.root) === file)?.line ?? null;
}

/** A test as the runner shows it: where it failed, else where it is defined. Passing and
 * skipped results are built whole, without spreads: there is one per test, and most of
 * them are read while this code is still interpreted. */
export function fileTest(e: TestEnd, ctx: ParseContext): TestResult {
  const id = testId(e.file, e.name);
  const { name, file, durationMs } = e;
  if (e.status === 'passed' || e.status === 'skipped') {
    return durationMs === null ? { id, name, file, line: e.line, status: e.status } : { id, name, file, line: e.line, durationMs, status: e.status };
  }
  const line = lineIn(e.stack, file, ctx) ?? e.line;
  return { id, name, file, line, ...(durationMs === null ? {} : { durationMs }), status: e.status, message: boundMessage(e.message ?? 'failed without a message'), ...failureStack(e.stack, ctx.root) };
}

/** An error outside any test, tied to its file: a load error (`load error: <file>`) or a
 * hook's, under `name`. Its id is the file's: a rerun runs the file whole. */
export function fileError(e: ErrorEvent, ctx: ParseContext, name: string): FailedTest {
  const id = e.id ?? e.file ?? name;
  return { id, name, file: e.file, line: lineIn(e.stack, e.file, ctx) ?? e.line, status: 'error', message: boundMessage(e.message), ...failureStack(e.stack, ctx.root), outside: true };
}

/** The warning for a file that never ended, or a test that never did in a run that stopped. */
const stopped = (runner: string) => ({ file, name }: Running): string => {
  const during = name === null ? '' : ` (during "${name}")`;
  return `${runner} stopped while running ${file ?? 'a test file'}${during} and reported no result for it: a test may have called process.exit, or the process crashed or was killed`;
};

/** What the run as a whole says: no test file found, interrupted, every test left out by -t. */
const runWarnings = (runner: string) => ({ files, totals, interrupted, tests }: RunRead): string[] => {
  const warnings: string[] = [];
  if (files.includes(0)) warnings.push(`${runner} found no test file to run: no file matched the selection (or its own test file patterns)`);
  if (interrupted) warnings.push(`${runner} reports that the run was interrupted`);
  const deselected = totals.get('deselected') ?? 0;
  if (tests.length === 0 && deselected > 0) warnings.push(`no test matched the name filter: ${runner} left out all ${deselected} tests of the files it ran`);
  return warnings;
};

/** The rules jest and vitest share; `error` names the errors outside tests. */
export const fileRules = (runner: string, error: EventRules['error']): EventRules => ({
  test: fileTest,
  error,
  stopped: stopped(runner),
  warnings: runWarnings(runner),
});
