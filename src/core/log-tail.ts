import fs from 'node:fs';
import { lastLines, TAIL_LINES } from '../parsers/fields.js';

/** At most `bytes` of a log, from its end or its start, and the log's whole size; throws
 * when the log cannot be read. */
export function readLogPart(file: string, bytes: number, from: 'start' | 'end' = 'end'): { readonly text: string; readonly size: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, from === 'start' ? 0 : size - length);
    return { text: buffer.toString('utf8', 0, read), size };
  } finally {
    fs.closeSync(fd);
  }
}

/** As readLogPart, the text alone; null when there is no log. */
function readLog(file: string, bytes: number, from: 'start' | 'end'): string | null {
  try {
    return readLogPart(file, bytes, from).text;
  } catch {
    return null;
  }
}

/** The last lines of the log (at most `bytes` of it), for quoting in a warning. */
export function readLogTail(file: string, lines = TAIL_LINES, bytes = 4096): string {
  const text = readLog(file, bytes, 'end');
  return text === null ? '(no log)' : lastLines(text, lines).text;
}

/** The start of the log (at most `bytes` of it), where a runner that fails before its
 * tests says why; empty when there is no log. */
export const readLogHead = (file: string, bytes: number): string => readLog(file, bytes, 'start') ?? '';
