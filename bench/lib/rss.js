import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnce, verify } from './command.js';
import { sampleTreeRss } from './proc-tree.js';

const hook = fileURLToPath(new URL('./self-rss-hook.js', import.meta.url));
const MIB = 1024 * 1024;

/**
 * Runs a node command (argv[0] is node, not a program such as bin/run-tests.js) under `/usr/bin/time -v` and reports, in MiB:
 * - `self`: the node process's own peak RSS (getrusage in the process, via a preload);
 * - `largest`: /usr/bin/time's maximum RSS, the largest single process in the tree;
 * - `treeSum`: the highest sampled sum of RSS over the whole tree at one moment;
 * and `cpuMs`, the user and system CPU time of the tree (/usr/bin/time's), which a busy
 * machine stretches less than the wall time.
 */
export async function peakRss(cmd) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-bench-rss-'));
  try {
    const timeFile = path.join(scratch, 'time.txt');
    const selfFile = path.join(scratch, 'self.txt');
    const [node, ...rest] = cmd.argv;
    if (node !== process.execPath) throw new Error(`peakRss needs a command started with node, not ${node}`);
    const argv = ['/usr/bin/time', '-v', '-o', timeFile, node, '--import', hook, ...rest];
    const env = { ...cmd.env, RUN_TESTS_BENCH_SELF_RSS: selfFile };
    // The sampler watches the descendants of /usr/bin/time: node and its runner.
    const result = verify(cmd, await runOnce({ ...cmd, argv, env }, (pid) => sampleTreeRss(pid)));
    const times = fs.readFileSync(timeFile, 'utf8');
    return {
      self: Number(fs.readFileSync(selfFile, 'utf8')) / 1024,
      largest: maxResidentKib(times) / 1024,
      treeSum: result.watched / MIB,
      cpuMs: cpuSeconds(times) * 1000,
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function maxResidentKib(report) {
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  if (!match) throw new Error(`/usr/bin/time -v printed no maximum resident set size:\n${report}`);
  return Number(match[1]);
}

function cpuSeconds(report) {
  const field = (name) => Number(new RegExp(`${name} time \\(seconds\\): ([\\d.]+)`).exec(report)?.[1] ?? Number.NaN);
  return field('User') + field('System');
}
