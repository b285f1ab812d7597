import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { runTestsBin, tempDir } from '../lib/fixtures.js';
import { wallTimes } from '../lib/measure.js';
import { peakRss } from '../lib/rss.js';
import { writeShardReports } from '../lib/shard-reports.js';
import { median } from '../lib/stats.js';

// Issue 23: 8 shard reports of 50,000 tests each merge in at most 2 s and 500 MB.
const SHARDS = 8;
const FILES = 4000;
const PER_FILE = 100;
const FAIL_EVERY = 97;
const MAX_MS = 2000;
const MAX_MIB = 500;

/** `run-tests merge` of the shards with --json and --junit, as a CI merge job runs it. */
function mergeCommand(dir, files, throughNode) {
  return runTests(['merge', ...files.map((f) => path.basename(f)), '--json', '--junit', path.join(dir, 'junit.xml')], {
    cwd: dir,
    label: `run-tests merge, ${SHARDS} × ${(FILES * PER_FILE / SHARDS).toLocaleString('en-US')} tests`,
    shown: `${throughNode ? 'node ' : ''}bin/run-tests.js merge shard-{1..${SHARDS}}.json --json --junit junit.xml`,
    throughNode,
    expectCode: 1,
    // The end of the merged report: the durations of every file, kept for --timings.
    expectOutput: new RegExp(`"src/module\\d+/feature${FILES - 1}\\.test\\.ts": \\d+\\n  \\}\\n\\}\\n$`),
  });
}

/** One run checked whole, outside the measured ones: every test and every file counted,
 * and every test in the JUnit file. */
function verify(dir, files) {
  const junit = path.join(dir, 'junit.xml');
  const run = spawnSync(process.execPath, [runTestsBin, 'merge', ...files, '--json', '--junit', junit], { cwd: dir, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (run.status !== 1) throw new Error(`merge exited ${run.status ?? run.signal}, expected 1: ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  const tests = FILES * PER_FILE;
  const cases = fs.readFileSync(junit, 'utf8').match(/<testcase /g)?.length ?? 0;
  const found = [report.source, report.summary.run, report.parts.length, Object.keys(report.unit_durations).length, cases];
  const expected = ['merged', tests, SHARDS, FILES, tests];
  if (JSON.stringify(found) !== JSON.stringify(expected)) throw new Error(`merge gave ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
  return report;
}

export const mergeBench = {
  name: 'merge',
  title: `run-tests merge of ${SHARDS} shard reports of ${(FILES * PER_FILE / SHARDS).toLocaleString('en-US')} tests each (--json, --junit)`,
  async run({ runs, log }) {
    const dir = tempDir('merge');
    const files = writeShardReports(dir, { count: SHARDS, files: FILES, perFile: PER_FILE, failEvery: FAIL_EVERY });
    const mb = files.reduce((sum, f) => sum + fs.statSync(f).size, 0) / 1e6;
    const report = verify(dir, files);
    log(`  ${files.length} reports, ${mb.toFixed(0)} MB; merged: ${report.summary.run} tests, ${report.summary.failures} failed`);
    const timed = mergeCommand(dir, files, false);
    const [times] = await wallTimes([timed], { runs, log });
    const measured = mergeCommand(dir, files, true);
    const rss = [];
    for (let round = 0; round < Math.max(3, Math.ceil(runs / 2)); round += 1) rss.push(await peakRss(measured));
    log(`  peak RSS: ${rss.map((s) => `${s.self.toFixed(0)} MiB`).join(', ')}`);
    const ms = median(times);
    const mib = median(rss.map((s) => s.self));
    const cpu = median(rss.map((s) => s.cpuMs));
    const note = `${SHARDS} reports of ${mb.toFixed(0)} MB in all (as --json prints them), ${FILES.toLocaleString('en-US')} files, 1 test in ${FAIL_EVERY} failed`;
    // Other work on the machine stretches the wall time: its load is part of the figure.
    const load = `; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs at the end`;
    return [
      figure({ benchmark: 'merge', title: 'merge: wall time', a: { label: timed.label, shown: timed.shown, median: ms, unit: 'ms' }, result: { value: ms, unit: 'ms' }, target: { max: MAX_MS, unit: 'ms' }, runs: times.length, note: note + load }),
      figure({ benchmark: 'merge', title: 'merge: CPU time, user + system (for information)', a: { label: measured.label, shown: measured.shown, median: cpu, unit: 'ms' }, result: { value: cpu, unit: 'ms' }, runs: rss.length, note }),
      figure({ benchmark: 'merge', title: 'merge: node peak RSS', a: { label: measured.label, shown: measured.shown, median: mib, unit: 'MiB' }, result: { value: mib, unit: 'MiB' }, target: { max: MAX_MIB, unit: 'MiB' }, runs: rss.length, note }),
    ];
  },
};
