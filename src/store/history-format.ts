import type { Outcome, Summary } from '../model/results.js';
import type { HistoryRun } from '../model/history.js';

/** One run's entry in `.run-tests/history/<run_id>.tsv` (docs/history.md):
 *
 *   {"run_tests_history":1,"run":{…HistoryRun but source},"files":["a.test.js",…]}
 *   p<TAB>12<TAB>0<TAB>adds numbers
 *
 * A JSON header, then one line per test: its outcome's letter, its duration in whole ms
 * (empty: unknown), the index of its file in the header's `files` (empty: no file), and
 * its name with `\`, tab, CR and LF escaped. Lines this small read fast: 200 runs of
 * 10,000 tests are 2 million lines. */
export const HISTORY_VERSION = 1;

/** The letter of each outcome, and back. */
const LETTERS = { passed: 'p', failed: 'f', error: 'e', skipped: 's', flaky: 'k' } as const satisfies Record<Outcome, string>;
const OUTCOMES: Readonly<Record<string, Outcome>> = Object.fromEntries(Object.entries(LETTERS).map(([outcome, letter]) => [letter, outcome as Outcome]));

/** Names and files longer than this are cut (with `…`): a run's entry stays bounded
 * whatever a runner reports. Two names alike in their first 1,000 characters are one test. */
export const NAME_LIMIT = 1000;

/** One test as a run's entry holds it. */
export interface HistoryLine {
  readonly outcome: Outcome;
  readonly durationMs: number | null;
  readonly file: string | null;
  readonly name: string;
}

/** A run as its header holds it: HistoryRun without `source` (where it was read from). */
export type StoredHistoryRun = Omit<HistoryRun, 'source'>;

export const bounded = (text: string): string => (text.length > NAME_LIMIT ? `${text.slice(0, NAME_LIMIT - 1)}…` : text);

const escape = (text: string): string => (/[\\\t\r\n]/.test(text) ? text.replace(/[\\\t\r\n]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\r': '\\r', '\n': '\\n' })[c] ?? c) : text);
const UNESCAPE: Readonly<Record<string, string>> = { '\\': '\\', t: '\t', r: '\r', n: '\n' };
const unescape = (text: string): string | null => {
  let bad = false;
  const out = text.replace(/\\(.?)/g, (_, c: string) => UNESCAPE[c] ?? ((bad = true), ''));
  return bad ? null : out;
};

/** The whole entry of a run, line by line (each ending in a newline). */
export function* encodeEntry(run: StoredHistoryRun, tests: readonly HistoryLine[]): Generator<string> {
  const files = new Map<string, number>();
  for (const test of tests) if (test.file !== null && !files.has(test.file)) files.set(test.file, files.size);
  yield `${JSON.stringify({ run_tests_history: HISTORY_VERSION, run, files: [...files.keys()] })}\n`;
  let chunk = '';
  for (const test of tests) {
    const duration = test.durationMs === null ? '' : String(Math.round(test.durationMs));
    chunk += `${LETTERS[test.outcome]}\t${duration}\t${test.file === null ? '' : files.get(test.file)}\t${escape(test.name)}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** A header line read back: the run and its files, or why it is not one of ours. */
export function decodeHeader(line: string): { run: StoredHistoryRun; files: readonly string[] } | { problem: string } {
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    return { problem: 'not a run-tests history entry (its first line is not JSON)' };
  }
  if (typeof header !== 'object' || header === null || !('run_tests_history' in header)) return { problem: 'not a run-tests history entry' };
  const { run_tests_history: version, run, files } = header as { run_tests_history: unknown; run: unknown; files: unknown };
  if (version !== HISTORY_VERSION) return { problem: `a history entry of version ${JSON.stringify(version)}; this run-tests reads version ${HISTORY_VERSION}` };
  if (!isStoredRun(run) || !Array.isArray(files) || !files.every((f) => typeof f === 'string')) return { problem: 'a history entry whose header is not whole' };
  return { run, files: files as string[] };
}

function isStoredRun(value: unknown): value is StoredHistoryRun {
  if (typeof value !== 'object' || value === null) return false;
  const run = value as Record<string, unknown>;
  return typeof run['run_id'] === 'string' && typeof run['status'] === 'string' && typeof run['duration_ms'] === 'number'
    && typeof run['summary'] === 'object' && run['summary'] !== null;
}

/** A test line read back, or why it cannot be read. `files` is the header's. */
export function decodeLine(line: string, files: readonly string[]): HistoryLine | string {
  const outcome = OUTCOMES[line.charAt(0)];
  if (outcome === undefined || line.charCodeAt(1) !== 9) return 'not a test line';
  const second = line.indexOf('\t', 2);
  const third = second === -1 ? -1 : line.indexOf('\t', second + 1);
  if (third === -1) return 'not a test line (too few fields)';
  const duration = line.slice(2, second);
  const index = line.slice(second + 1, third);
  if (!/^\d*$/.test(duration) || !/^\d*$/.test(index)) return 'not a test line (a field is not a number)';
  const file = index === '' ? null : files[Number(index)];
  if (file === undefined) return `file index ${index} is not in the header`;
  const raw = line.slice(third + 1);
  const name = raw.includes('\\') ? unescape(raw) : raw;
  if (name === null) return 'not a test line (a bad escape in the name)';
  if (name === '') return 'not a test line (no name)';
  return { outcome, durationMs: duration === '' ? null : Number(duration), file, name };
}

/** A run whose counts are unknown: a run without results. */
export const UNKNOWN_SUMMARY: Summary = { run: null, passed: null, failures: null, errors: null, skips: null };
