import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { runTestsBin } from '../lib/fixtures.js';
import { runOnce, verify } from '../lib/command.js';
import { historyProject } from '../lib/history-store.js';
import { alternate } from '../lib/measure.js';
import { peakRss } from '../lib/rss.js';
import { median } from '../lib/stats.js';

// Issue 31: `run-tests history` over 200 runs × 10,000 tests in at most 1 s and 300 MB.
const RUNS = 200;
const TESTS = 10_000;
const FLIP_EVERY = 97;
const MAX_MS = 1000;
const MAX_MIB = 300;

/** `run-tests history` in the project, as a person runs it: the table of every test. */
function historyCommand(dir, throughNode, json) {
  return runTests(['history', ...(json ? ['--json'] : [])], {
    cwd: dir,
    label: `run-tests history${json ? ' --json' : ''}, ${RUNS} runs × ${TESTS.toLocaleString('en-US')} tests`,
    shown: `${throughNode ? 'node ' : ''}bin/run-tests.js history${json ? ' --json' : ''}`,
    throughNode,
    // The last line of the table: the fastest test never flips nor fails.
    expectOutput: json ? /\n {2}"warnings": \[\]\n\}\n$/ : / as documented\n$/,
  });
}

/** One run checked whole, outside the measured ones: every run and test counted, and the
 * tests that flip first. */
function checkWhole(dir) {
  const run = spawnSync(process.execPath, [runTestsBin, 'history', '--json'], { cwd: dir, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`history exited ${run.status ?? run.signal}: ${run.stderr}`);
  const document = JSON.parse(run.stdout);
  const flipping = Math.ceil(TESTS / FLIP_EVERY);
  const found = [document.runs.length, document.tests.length, document.warnings.length, document.tests.filter((t) => t.flips > 0).length, document.tests[flipping - 1].flips > 0, document.tests[flipping].flips];
  const expected = [RUNS, TESTS, 0, flipping, true, 0];
  if (JSON.stringify(found) !== JSON.stringify(expected)) throw new Error(`history gave ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
}

export const historyBench = {
  name: 'history',
  title: `run-tests history over ${RUNS} recorded runs of ${TESTS.toLocaleString('en-US')} tests`,
  async run({ runs, log }) {
    const dir = await historyProject({ runs: RUNS, tests: TESTS, flipEvery: FLIP_EVERY });
    const store = path.join(dir, '.run-tests/history');
    const mb = fs.readdirSync(store).reduce((sum, f) => sum + fs.statSync(path.join(store, f)).size, 0) / 1e6;
    checkWhole(dir);
    log(`  ${RUNS} entries, ${mb.toFixed(1)} MB in all`);
    const table = historyCommand(dir, false, false);
    const json = historyCommand(dir, false, true);
    const measure = async (cmd) => verify(cmd, await runOnce(cmd)).ms;
    const [tableTimes, jsonTimes] = await alternate([table, json], { runs, measure, describe: (ms) => `${ms.toFixed(0)} ms`, log });
    const measured = historyCommand(dir, true, false);
    const rss = [];
    for (let round = 0; round < Math.max(3, Math.ceil(runs / 2)); round += 1) rss.push(await peakRss(measured));
    log(`  peak RSS: ${rss.map((s) => `${s.self.toFixed(0)} MiB`).join(', ')}`);
    const mib = median(rss.map((s) => s.self));
    const cpu = median(rss.map((s) => s.cpuMs));
    const note = `${RUNS} index entries of ${mb.toFixed(1)} MB in all, written by recordHistory; 1 test in ${FLIP_EVERY} flips`;
    const load = `; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs at the end`;
    const time = (cmd, times, target) => figure({ benchmark: 'history', title: `history: wall time${target ? '' : ' (--json, for information)'}`,
      a: { label: cmd.label, shown: cmd.shown, median: median(times), unit: 'ms' }, result: { value: median(times), unit: 'ms' },
      target: target ? { max: MAX_MS, unit: 'ms' } : null, runs: times.length, note: note + load });
    return [
      time(table, tableTimes, true),
      time(json, jsonTimes, false),
      figure({ benchmark: 'history', title: 'history: CPU time, user + system (for information)', a: { label: measured.label, shown: measured.shown, median: cpu, unit: 'ms' }, result: { value: cpu, unit: 'ms' }, runs: rss.length, note }),
      figure({ benchmark: 'history', title: 'history: node peak RSS', a: { label: measured.label, shown: measured.shown, median: mib, unit: 'MiB' }, result: { value: mib, unit: 'MiB' }, target: { max: MAX_MIB, unit: 'MiB' }, runs: rss.length, note }),
    ];
  },
};
