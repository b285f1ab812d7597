import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '../lib/commands.js';
import { runOnce, verify } from '../lib/command.js';
import { figure } from '../lib/figure.js';
import { alternate } from '../lib/measure.js';
import { peakRss } from '../lib/rss.js';
import { median } from '../lib/stats.js';
import { historyProject } from '../lib/history-store.js';

// Issue 31: `run-tests report` on 200 runs × 10,000 tests in at most 2 s, a page of at most 2 MB.
const RUNS = 200;
const FILES = 500;
const PER_FILE = 20;
const MAX_MS = 2000;
const MAX_BYTES = 2 * 1024 * 1024;

/** The newest run's report, failures and all, as .run-tests/last-report.json holds it. */
function writeLastReport(dir, run) {
  const failed = Array.from({ length: 100 }, (_, i) => ({
    test_name: `test ${i} of feature ${i} does its job`, file: `src/module${i % 25}/feature${i}.test.ts`, line: 10 + i, status: 'failed', id: `t${i}`,
    message: `Expected: ${i}\nReceived: ${i + 1}\n${'  at frame (src/x.ts:1:1)\n'.repeat(100)}`,
  }));
  const report = {
    schema_version: 1, source: 'run', run_id: run.run_id, status: 'failed', exit_code: 1, framework: 'jest', reason: 'bench', command: 'npx jest', project_root: dir,
    exit_status: 1, signal: null, timed_out: false, duration_ms: run.duration_ms, started_at: run.started_at, finished_at: null, summary: run.summary,
    failed_tests: failed, rerun: null, artifact: null, failures_file: null, next: null, warnings: [], error: null, projects: [],
  };
  fs.writeFileSync(path.join(dir, '.run-tests/last-report.json'), JSON.stringify(report));
}

export const reportPageBench = {
  name: 'report-page',
  title: `run-tests report over ${RUNS} stored runs of ${(FILES * PER_FILE).toLocaleString('en-US')} tests each`,
  async run({ runs, log }) {
    // The store as runs write it (recordHistory), and the newest run's report beside it.
    const dir = await historyProject({ runs: RUNS, tests: FILES * PER_FILE, perFile: PER_FILE });
    const summary = { run: FILES * PER_FILE, passed: FILES * PER_FILE - 100, failures: 100, errors: 0, skips: 0 };
    writeLastReport(dir, { run_id: '20261201-031900.000-000000c7', started_at: '2026-12-01T03:19:00.000Z', duration_ms: 60_000, summary });
    const page = path.join(dir, '.run-tests/report/index.html');
    const cmd = (throughNode) => runTests(['report'], { cwd: dir, throughNode, label: `run-tests report, ${RUNS} runs × ${(FILES * PER_FILE).toLocaleString('en-US')} tests`, expectOutput: new RegExp(`${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`) });
    const timed = cmd(false);
    const [times] = await alternate([timed], { runs, measure: async (c) => verify(c, await runOnce(c)).ms, describe: (ms) => `${ms.toFixed(0)} ms`, log });
    const bytes = fs.statSync(page).size;
    const html = fs.readFileSync(page, 'utf8');
    // The page lists what it says it lists: every run, and the capped sections.
    const found = [html.match(/<g><title>/g)?.length ?? 0, html.match(/class="chart spark"/g)?.length ?? 0, html.match(/<div class="failure">/g)?.length ?? 0];
    if (JSON.stringify(found) !== JSON.stringify([RUNS, 12, 50])) throw new Error(`the page holds ${JSON.stringify(found)} (runs, duration charts, failures), expected ${JSON.stringify([RUNS, 12, 50])}`);
    log(`  page: ${(bytes / 1024).toFixed(0)} KiB`);
    const measured = cmd(true);
    const rss = [];
    for (let round = 0; round < Math.max(3, Math.ceil(runs / 2)); round += 1) rss.push(await peakRss(measured));
    log(`  peak RSS: ${rss.map((s) => `${s.self.toFixed(0)} MiB`).join(', ')}`);
    const note = `${RUNS} history entries of ${(FILES * PER_FILE).toLocaleString('en-US')} tests in ${FILES} files, written by recordHistory; last-report.json with 100 failures; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs at the end`;
    const a = (label, value, unit) => ({ label, shown: timed.shown, median: value, unit });
    return [
      figure({ benchmark: 'report-page', title: 'report: wall time', a: a(timed.label, median(times), 'ms'), result: { value: median(times), unit: 'ms' }, target: { max: MAX_MS, unit: 'ms' }, runs: times.length, note }),
      figure({ benchmark: 'report-page', title: 'report: page size', a: a('index.html', bytes / 1024, 'KiB'), result: { value: bytes / 1024, unit: 'KiB' }, target: { max: MAX_BYTES / 1024, unit: 'KiB' }, runs: 1, note: null }),
      figure({ benchmark: 'report-page', title: 'report: node peak RSS (for information)', a: a(measured.label, median(rss.map((s) => s.self)), 'MiB'), result: { value: median(rss.map((s) => s.self)), unit: 'MiB' }, runs: rss.length, note: null }),
    ];
  },
};
