import fs from 'node:fs';

const POLL_MS = 250;

/** Shows a live count of finished tests on a terminal by following the runner's
 * line-per-test report as it grows. Reads only the new bytes each time. */
export function startLiveCount(
  file: string,
  isTestLine: (line: string) => boolean,
  out: NodeJS.WriteStream,
): () => void {
  let offset = 0;
  let pending = '';
  let count = 0;
  let shown = -1;
  const poll = () => {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const read = fs.readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        offset += read;
        const lines = (pending + buffer.toString('utf8', 0, read)).split('\n');
        pending = lines.pop() ?? '';
        count += lines.filter(isTestLine).length;
      }
    } finally {
      fs.closeSync(fd);
    }
    if (count !== shown) {
      shown = count;
      out.write(`\r\x1b[2K  ${count} tests finished…`);
    }
  };
  const timer = setInterval(poll, POLL_MS);
  return () => {
    clearInterval(timer);
    if (shown >= 0) out.write('\r\x1b[2K');
  };
}
