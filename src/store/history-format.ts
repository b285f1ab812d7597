import type { RunReport } from '../model/report.js';
import type { Outcome } from '../model/results.js';
import type { HistoryRun } from '../model/history.js';

/** The history index's two kinds of file (docs/history.md):
 *
 * - a run's entry, `<run_id>.<names>.tsv`: a JSON header with the run, then a line per
 *   test: its outcome's letter, its duration in whole ms (empty: unknown) and its number
 *   in the names file, `p<TAB>12<TAB>4031`;
 * - a names file, `names.<names>.tsv`: a JSON header, then a line per test: its file
 *   (empty: none) and its name, with `\`, tab, CR and LF escaped; line k names test k.
 *
 * `<names>` is the run id of the run that began the names file. A line of an entry is a
 * dozen bytes, whatever the test's name: 200 runs of 10,000 tests read in a fraction of
 * a second, and a suite's names are stored once, not once a run. */
export const HISTORY_VERSION = 1;

/** The letter of each outcome, and back. */
const LETTERS = { passed: 'p', failed: 'f', error: 'e', skipped: 's', flaky: 'k' } as const satisfies Record<Outcome, string>;
const OUTCOMES: Readonly<Record<string, Outcome>> = Object.fromEntries(Object.entries(LETTERS).map(([outcome, letter]) => [letter, outcome as Outcome]));

/** Names and files longer than this are cut (with `…`): the index stays bounded whatever
 * a runner reports. Two names alike in their first 1,000 characters are one test. */
export const NAME_LIMIT = 1000;

/** One test as the history keeps it. */
export interface HistoryLine {
  readonly outcome: Outcome;
  readonly durationMs: number | null;
  readonly file: string | null;
  readonly name: string;
}

/** A test's file and name, as a names file lists them. */
export interface TestName {
  readonly file: string | null;
  readonly name: string;
}

/** A run as its header holds it: HistoryRun without `source` (where it was read from). */
export type StoredHistoryRun = Omit<HistoryRun, 'source'>;

export const bounded = (text: string): string => (text.length > NAME_LIMIT ? `${text.slice(0, NAME_LIMIT - 1)}…` : text);

const escape = (text: string): string => (/[\\\t\r\n]/.test(text) ? text.replace(/[\\\t\r\n]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\r': '\\r', '\n': '\\n' })[c] ?? c) : text);
const UNESCAPE: Readonly<Record<string, string>> = { '\\': '\\', t: '\t', r: '\r', n: '\n' };
/** null for an escape this format never writes. */
function unescape(text: string): string | null {
  if (!text.includes('\\')) return text;
  let bad = false;
  const out = text.replace(/\\(.?)/g, (_, c: string) => UNESCAPE[c] ?? ((bad = true), ''));
  return bad ? null : out;
}

/** A run's entry, line by line: its tests as numbers in the names file. */
export function* encodeEntry(run: StoredHistoryRun, tests: readonly { readonly outcome: Outcome; readonly durationMs: number | null; readonly id: number }[]): Generator<string> {
  yield `${JSON.stringify({ run_tests_history: HISTORY_VERSION, run })}\n`;
  let chunk = '';
  for (const test of tests) {
    chunk += `${LETTERS[test.outcome]}\t${test.durationMs === null ? '' : Math.round(test.durationMs)}\t${test.id}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** A names file, line by line. */
export function* encodeNames(names: readonly TestName[]): Generator<string> {
  yield `${JSON.stringify({ run_tests_history_names: HISTORY_VERSION })}\n`;
  let chunk = '';
  for (const { file, name } of names) {
    chunk += `${file === null ? '' : escape(file)}\t${escape(name)}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** An entry's header line read back: its run, or why it is not one of ours. */
export function decodeHeader(line: string): { run: StoredHistoryRun } | { problem: string } {
  const header = parseHeader(line, 'run_tests_history');
  if ('problem' in header) return header;
  const { run } = header.value as { run: unknown };
  return isStoredRun(run) ? { run } : { problem: 'a history entry whose header is not whole' };
}

function parseHeader(line: string, key: string): { value: object } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: 'not a file of the run-tests history (its first line is not JSON)' };
  }
  if (typeof value !== 'object' || value === null || !(key in value)) return { problem: 'not a file of the run-tests history' };
  const version = (value as Record<string, unknown>)[key];
  if (version !== HISTORY_VERSION) return { problem: `a history file of version ${JSON.stringify(version)}; this run-tests reads version ${HISTORY_VERSION}` };
  return { value };
}

function isStoredRun(value: unknown): value is StoredHistoryRun {
  if (typeof value !== 'object' || value === null) return false;
  const run = value as Record<string, unknown>;
  return typeof run['run_id'] === 'string' && typeof run['status'] === 'string' && typeof run['duration_ms'] === 'number'
    && typeof run['summary'] === 'object' && run['summary'] !== null;
}

/** A names file read back: line k's test as names[k] (null: a line that could not be
 * read, which `bad` is told of with its 1-based number); or why it is not one. */
export function decodeNames(text: string, bad: (number: number, why: string) => void): (TestName | null)[] | { problem: string } {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = parseHeader(lines[0] ?? '', 'run_tests_history_names');
  if ('problem' in header) return header;
  return lines.slice(1).map((line, i) => {
    const tab = line.indexOf('\t');
    // Both fields are escaped: a second tab is no line of ours.
    const whole = tab !== -1 && !line.includes('\t', tab + 1);
    const file = whole ? unescape(line.slice(0, tab)) : null;
    const name = whole ? unescape(line.slice(tab + 1)) : null;
    if (file === null || name === null || name === '') {
      bad(i + 2, 'not a test\'s file and name');
      return null;
    }
    return { file: file === '' ? null : file, name };
  });
}

/** Told of each good line of an entry; returns a problem to skip the line for. */
export type LineVisitor = (outcome: Outcome, durationMs: number | null, id: number) => string | null;

/** Outcomes by their letter's char code. */
const BY_CODE: readonly (Outcome | undefined)[] = Array.from({ length: 128 }, (_, code) => OUTCOMES[String.fromCharCode(code)]);
const TAB = 9;

/** Reads the test lines of an entry after its header (which ends at `start`), calling
 * `visit` for each; `bad` gets each line that cannot be read, its 1-based number and why.
 * By char codes, making no string or object a line: 2 million lines read in ~0.1 s. */
export function scanEntry(text: string, start: number, visit: LineVisitor, bad: (number: number, why: string) => void): void {
  let number = 1;
  for (let at = start + 1; at > 0 && at < text.length;) {
    const found = text.indexOf('\n', at);
    const end = found === -1 ? text.length : found;
    number += 1;
    const why = readLine(text, at, end, visit);
    if (why !== null) bad(number, why);
    at = end + 1;
  }
}

function readLine(text: string, at: number, end: number, visit: LineVisitor): string | null {
  const outcome = BY_CODE[text.charCodeAt(at)];
  if (outcome === undefined || text.charCodeAt(at + 1) !== TAB) return 'not a test line';
  const durationEnd = fieldEnd(text, at + 2, end);
  if (durationEnd === -1) return 'not a test line (a field is not a number)';
  if (durationEnd === end) return 'not a test line (too few fields)';
  const durationMs = durationEnd === at + 2 ? null : fieldValue;
  if (fieldEnd(text, durationEnd + 1, end) !== end || end === durationEnd + 1) return 'not a test line (no test number)';
  return visit(outcome, durationMs, fieldValue);
}

/** The value of the field fieldEnd last read. A variable, not a returned object: an
 * object or a string made for each of 2 million lines was most of the time spent. */
let fieldValue = 0;

/** Where a field of decimal digits (maybe none) starting at `at` ends (a tab, or `end`),
 * its value in fieldValue; -1 when anything else comes first. */
function fieldEnd(text: string, at: number, end: number): number {
  fieldValue = 0;
  for (let i = at; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (code === TAB) return i;
    if (code < 48 || code > 57) return -1;
    fieldValue = fieldValue * 10 + code - 48;
  }
  return end;
}

/** A run's line in the history, from its report. */
export function storedRun(runId: string, report: RunReport): StoredHistoryRun {
  const { shard, git } = report;
  return {
    run_id: runId,
    started_at: report.started_at,
    status: report.status,
    framework: report.framework,
    duration_ms: report.duration_ms,
    revision: git?.revision ?? null,
    dirty: git?.dirty ?? null,
    shard: shard === undefined ? null : { index: shard.index, count: shard.count, partition: shard.partition },
    summary: report.summary,
  };
}
