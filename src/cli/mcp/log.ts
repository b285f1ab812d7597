import fs from 'node:fs';
import readline from 'node:readline';
import { usageError } from '../../model/errors.js';
import { readLogPart } from '../../core/log-tail.js';
import { textTail } from './bounded.js';

/** What `get_log` reads of a run's log: its last lines, or the lines that contain a text. */
export type LogQuery = { readonly tail: number } | { readonly search: string; readonly maxMatches: number };

export interface LogTail {
  readonly lines: number;
  readonly text: string;
  /** Fewer lines than asked for: the text is the end of the log that fits the response. */
  readonly cut: boolean;
}

export interface LogMatches {
  readonly search: string;
  /** Every matching line in the log, including those beyond `matches`. */
  readonly total: number;
  /** The first matches, each line at most MATCH_CHARS characters. */
  readonly matches: readonly { readonly line: number; readonly text: string }[];
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SEARCH_LIMIT_BYTES = 200;
/** A long line (a minified bundle, a JSON event) is shown by its start. */
const MATCH_CHARS = 500;

/** A search is a plain text, never a regular expression: it runs here, on a log of up to
 * --max-log bytes, where a pathological pattern would stall the server. Bounded as --name is. */
export function checkSearch(search: string): void {
  if (search === '') throw usageError('search must not be empty');
  if (CONTROL.test(search)) throw usageError('search must not contain control characters');
  if (Buffer.byteLength(search) > SEARCH_LIMIT_BYTES) throw usageError(`search is longer than ${SEARCH_LIMIT_BYTES} bytes`);
}

/** The last `lines` lines of the log, reading at most `limit` bytes from its end. */
export function tailLog(file: string, lines: number, limit: number): LogTail {
  const end = readLogPart(file, limit + 1);
  const wanted = end.text.replace(/\n$/, '').split('\n').slice(-lines).join('\n');
  const { text, cut } = textTail(wanted, limit);
  const shown = text === '' ? 0 : text.split('\n').length;
  return { lines: shown, text, cut: cut || (shown < lines && end.size > limit + 1) };
}

/** The log's lines that contain `search`, numbered from 1; read a line at a time. */
export async function searchLog(file: string, search: string, maxMatches: number): Promise<LogMatches> {
  checkSearch(search);
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  const matches: { line: number; text: string }[] = [];
  let [number, total] = [0, 0];
  for await (const line of lines) {
    number += 1;
    if (!line.includes(search)) continue;
    total += 1;
    if (matches.length < maxMatches) matches.push({ line: number, text: line.slice(0, MATCH_CHARS) });
  }
  return { search, total, matches };
}
