import fs from 'node:fs';

/** At most `bytes` of the log, from its start or its end; null when there is no log. */
function readLog(file: string, bytes: number, from: 'start' | 'end'): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, from === 'start' ? 0 : size - length);
    return buffer.toString('utf8', 0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** The last lines of the log (at most `bytes` of it), for quoting in a warning. */
export function readLogTail(file: string, lines = 15, bytes = 4096): string {
  const text = readLog(file, bytes, 'end');
  return text === null ? '(no log)' : text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The start of the log (at most `bytes` of it), where a runner that fails before its
 * tests says why; empty when there is no log. */
export const readLogHead = (file: string, bytes: number): string => readLog(file, bytes, 'start') ?? '';
