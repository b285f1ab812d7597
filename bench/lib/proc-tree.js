import fs from 'node:fs';

const PAGE_BYTES = 4096;

/** Every process's parent and resident size, from /proc/<pid>/stat. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it exited while we looked
    }
    // Fields after "(comm)": state ppid ... with rss the 24th field overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(entry), { ppid: Number(fields[1]), rss: Number(fields[21]) * PAGE_BYTES });
  }
  return table;
}

/** Summed RSS of the descendants of `root` (not `root` itself), at this moment. */
export function descendantsRss(root) {
  const table = processTable();
  const children = new Map();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop();
    total += table.get(pid)?.rss ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples the summed RSS of `root`'s descendants every `intervalMs`; `stop()` returns the
 * highest sum seen, in bytes. A sample can miss a peak shorter than the interval. */
export function sampleTreeRss(root, intervalMs = 20) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, descendantsRss(root));
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
