import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runOnce, verify } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { floodProject, tempDir } from '../lib/fixtures.js';
import { peakRss } from '../lib/rss.js';
import { median } from '../lib/stats.js';

const FLOOD_MIB = 1024;
const MAX_SELF_MIB = 200;
const DEFAULT_CAP = 64 * 1024 * 1024;
const TREE = 50;
const GRACE_S = 1;
const TREE_SCRIPT = fileURLToPath(new URL('../../test/fixtures/scripts/tree.sh', import.meta.url));
const POLL_MS = 5;
const DEADLINE_MS = 30_000;

const side = (cmd, value, unit) => ({ label: cmd.label, shown: cmd.shown, median: value, unit });

/** (a) A test printing 1 GiB: the node process's peak RSS, and the log held at the default cap. */
async function floodFigures({ runs, log }) {
  const cwd = floodProject(FLOOD_MIB);
  const cmd = runTests(['--cwd', cwd], {
    cwd,
    label: `run-tests, ${FLOOD_MIB} MiB on stdout`,
    // Through node: peakRss preloads its RSS hook with node --import.
    throughNode: true,
    shown: `node bin/run-tests.js --cwd <project printing ${FLOOD_MIB} MiB>`,
    expectOutput: /\b1 passed, 0 failed, 0 errors, 0 skipped\b/,
  });
  const logFile = path.join(cwd, '.run-tests/last-test.log');
  const samples = [];
  for (let round = 0; round < runs; round += 1) {
    const rss = await peakRss(cmd);
    const logBytes = fs.statSync(logFile).size;
    samples.push({ self: rss.self, logBytes });
    log(`  ${round + 1}/${runs}: node ${rss.self.toFixed(0)} MiB, log ${logBytes} bytes`);
  }
  const marker = /^run-tests: \d+ bytes of output dropped here \(--max-log 64M\)$/m;
  if (!marker.test(fs.readFileSync(logFile, 'latin1'))) throw new Error(`${logFile} has no --max-log marker line`);
  const selfPeak = median(samples.map((s) => s.self));
  const overCap = Math.max(...samples.map((s) => s.logBytes)) - DEFAULT_CAP;
  return [
    figure({
      benchmark: 'process',
      title: `node peak RSS, ${FLOOD_MIB} MiB flood`,
      a: side(cmd, selfPeak, 'MiB'),
      result: { value: selfPeak, unit: 'MiB' },
      target: { max: MAX_SELF_MIB, unit: 'MiB' },
      runs: samples.length,
    }),
    figure({
      benchmark: 'process',
      title: 'log bytes beyond the 64 MiB default cap (the marker line), largest run',
      a: side(cmd, overCap, 'B'),
      result: { value: overCap, unit: 'B' },
      target: { max: 200, unit: 'B' },
      runs: samples.length,
    }),
  ];
}

/** (b) A tree of 50 processes, half ignoring SIGTERM, timed out: ms from the timeout
 * note in the log until every process is gone (a zombie counts as gone). */
async function treeKillMs() {
  const cwd = tempDir('tree');
  const pidFile = path.join(cwd, 'pids');
  const cmd = runTests(
    ['--cwd', cwd, '--command', `sh ${TREE_SCRIPT} 0 ${TREE} ${pidFile}`, '--report', 'tap:-', '--timeout', '1', '--kill-grace', String(GRACE_S)],
    { cwd, label: `run-tests --timeout 1 --kill-grace ${GRACE_S}`, shown: `bin/run-tests.js --command 'sh tree.sh …' --timeout 1 --kill-grace ${GRACE_S}`, expectCode: 124 },
  );
  const run = runOnce(cmd);
  const timedOutAt = await poll(() => readText(runLog(cwd)).includes('run-tests: timed out after 1s'), 'the timeout note');
  const pids = readText(pidFile).trim().split('\n').map(Number);
  if (pids.length !== TREE) throw new Error(`the tree wrote ${pids.length} pids by the timeout, expected ${TREE}`);
  const goneAt = await poll(() => pids.every(isGone), 'every process of the tree gone');
  verify(cmd, await run);
  return { cmd, ms: goneAt - timedOutAt };
}

async function treeFigure({ runs, log }) {
  const samples = [];
  for (let round = 0; round < runs; round += 1) {
    const sample = await treeKillMs();
    samples.push(sample);
    log(`  ${round + 1}/${runs}: all ${TREE} gone ${sample.ms.toFixed(0)} ms after the timeout`);
  }
  const worst = Math.max(...samples.map((s) => s.ms));
  return figure({
    benchmark: 'process',
    title: `timeout of a ${TREE}-process tree (half ignore SIGTERM): timeout → all gone, worst run`,
    a: side(samples[0].cmd, median(samples.map((s) => s.ms)), 'ms'),
    result: { value: worst, unit: 'ms' },
    target: { max: (GRACE_S + 1) * 1000, unit: 'ms' },
    runs: samples.length,
    note: 'a: median; result: the slowest run',
  });
}

const readText = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The log of the run in progress: last-test.log appears only once the run is over. */
function runLog(cwd) {
  const runs = path.join(cwd, '.run-tests/runs');
  const ids = fs.existsSync(runs) ? fs.readdirSync(runs) : [];
  return ids.length === 1 ? path.join(runs, ids[0], 'test.log') : '';
}

function isGone(pid) {
  const stat = readText(`/proc/${pid}/stat`);
  return stat === '' || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** Resolves with the performance.now() at which `check` first held. */
async function poll(check, what) {
  const deadline = performance.now() + DEADLINE_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return performance.now();
}

export const processLimits = {
  name: 'process',
  title: `peak RSS and log size while a test prints ${FLOOD_MIB} MiB; killing a ${TREE}-process tree at a timeout`,
  async run({ runs, log }) {
    log(`process: ${FLOOD_MIB} MiB flood`);
    const flood = await floodFigures({ runs, log });
    log(`process: ${TREE}-process tree timed out`);
    return [...flood, await treeFigure({ runs, log })];
  },
};
