import fs from 'node:fs';

/** The last lines of the log (at most `bytes` of it), for quoting in a warning. */
export function readLogTail(file: string, lines = 15, bytes = 4096): string {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return '(no log)';
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } finally {
    fs.closeSync(fd);
  }
}
