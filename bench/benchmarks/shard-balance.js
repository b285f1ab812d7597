import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { command, runOnce, verify } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { tempDir } from '../lib/fixtures.js';
import { SHARD_BALANCE } from '../lib/targets.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const FILES = 40;
const SHARDS = 4;

/** How long test file `f` sleeps, in ms: 50 ms to 2 s in even steps (41 s in all), dealt
 * to the files in a fixed shuffle (k * 23 mod 40), so neither name order nor a hash of the
 * names lines up with the durations by construction. */
function sleepOf(f) {
  const k = (f * 23) % FILES;
  return 50 + Math.round((1950 * k) / (FILES - 1));
}

/** A jest project of 40 test files, one test each that sleeps `sleepOf(f)`, using the jest
 * installed for run-tests' own tests; jest's workers as it picks them on this machine. */
function sleepSuite() {
  const dir = tempDir('shard-balance');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-shard-balance', private: true, scripts: { test: 'jest' }, devDependencies: { jest: '*' } }, null, 2));
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  fs.mkdirSync(path.join(dir, 'test'));
  for (let f = 0; f < FILES; f += 1) {
    const ms = sleepOf(f);
    fs.writeFileSync(path.join(dir, 'test', `file${String(f).padStart(2, '0')}.test.js`), `test('sleeps ${ms} ms', async () => {\n  await new Promise((resolve) => setTimeout(resolve, ${ms}));\n});\n`);
  }
  return dir;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

/** One run of `cmd`, checked, with its wall time and its stdout parsed as JSON. */
async function runJson(cmd) {
  const result = verify(cmd, await runOnce(cmd));
  return { ms: result.ms, report: JSON.parse(result.stdout) };
}

/** The 4 shards by recorded timings: each shard's units' durations from its own report
 * (`unit_durations`) and its wall time. All four read the same timings file, as CI's
 * shards do, and must be parts of one partition that covers every file once. */
async function ourShards(dir, timings, log) {
  const shards = [];
  for (let k = 1; k <= SHARDS; k += 1) {
    const args = ['--shard', `${k}/${SHARDS}`, '--timings', timings, '--json'];
    const { ms, report } = await runJson(runTests(args, { cwd: dir, label: `run-tests --shard ${k}/${SHARDS}` }));
    const durations = Object.values(report.unit_durations ?? {});
    log(`  run-tests --shard ${k}/${SHARDS}: ${report.shard.units.length} files, ${(sum(durations) / 1000).toFixed(1)} s of units, ${(ms / 1000).toFixed(1)} s wall`);
    shards.push({ ms, unitsMs: sum(durations), units: report.shard.units, partition: report.shard.partition, passed: report.summary.passed });
  }
  const units = shards.flatMap((s) => s.units);
  if (new Set(units).size !== FILES || units.length !== FILES) throw new Error(`the shards ran ${units.length} units, ${new Set(units).size} distinct, of ${FILES}`);
  if (new Set(shards.map((s) => s.partition)).size !== 1) throw new Error(`the shards are of different partitions: ${shards.map((s) => s.partition).join(', ')}`);
  if (sum(shards.map((s) => s.passed)) !== FILES) throw new Error(`the shards passed ${sum(shards.map((s) => s.passed))} tests, not ${FILES}`);
  return shards;
}

/** jest's own `--shard k/4` (by a hash of the paths), timed the same way; each file's
 * duration as run-tests counts a unit's, its tests' durations summed (jest's JSON report). */
async function jestShards(dir, log) {
  const shards = [];
  for (let k = 1; k <= SHARDS; k += 1) {
    const out = path.join(tempDir('jest-shard'), 'report.json');
    const cmd = command({ label: `jest --shard ${k}/${SHARDS}`, argv: [path.join(dir, 'node_modules/.bin/jest'), '--shard', `${k}/${SHARDS}`, '--json', '--outputFile', out], cwd: dir });
    const result = verify(cmd, await runOnce(cmd));
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const unitsMs = sum(report.testResults.flatMap((r) => r.assertionResults.map((t) => t.duration ?? 0)));
    log(`  jest --shard ${k}/${SHARDS}: ${report.testResults.length} files, ${(unitsMs / 1000).toFixed(1)} s of tests, ${(result.ms / 1000).toFixed(1)} s wall`);
    shards.push({ ms: result.ms, unitsMs, passed: report.numPassedTests });
  }
  if (sum(shards.map((s) => s.passed)) !== FILES) throw new Error(`jest's shards passed ${sum(shards.map((s) => s.passed))} tests, not ${FILES}`);
  return shards;
}

/** The slowest shard against the ideal, the total over the shards / 4. */
function slowest(shards, key) {
  const values = shards.map((s) => s[key]);
  return { max: Math.max(...values), ideal: sum(values) / SHARDS };
}

function balanceFigure({ title, a, b, shards, key, target }) {
  const { max, ideal } = slowest(shards, key);
  return figure({
    benchmark: 'shard-balance',
    title,
    a: { label: 'slowest shard', shown: a, median: max, unit: 'ms' },
    b: { label: 'ideal (total / 4)', shown: b, median: ideal, unit: 'ms' },
    result: { value: max / ideal, unit: '×' },
    target,
    runs: 1,
  });
}

export const shardBalance = {
  name: 'shard-balance',
  title: '4 shards of a 40-file jest suite (0.05 s to 2 s a file): balanced by recorded timings, and by jest\'s hash',
  async run({ log }) {
    const dir = sleepSuite();
    log(`a full run records each file's duration (${(sum(Array.from({ length: FILES }, (_, f) => sleepOf(f))) / 1000).toFixed(1)} s of sleep)`);
    const full = await runJson(runTests(['--json'], { cwd: dir, label: 'run-tests' }));
    if (full.report.summary.passed !== FILES || Object.keys(full.report.unit_durations ?? {}).length !== FILES) {
      throw new Error(`the full run passed ${full.report.summary.passed} tests and recorded ${Object.keys(full.report.unit_durations ?? {}).length} unit durations, not ${FILES}`);
    }
    const timings = path.join(tempDir('timings'), 'full.json');
    fs.writeFileSync(timings, JSON.stringify(full.report));
    log(`  full run: ${(full.ms / 1000).toFixed(1)} s wall`);
    const ours = await ourShards(dir, timings, log);
    const theirs = await jestShards(dir, log);
    // One pass each: the parts are deterministic, and every pass sleeps 41 s.
    const shown = (k) => `bin/run-tests.js --shard ${k}/4 --timings <the full run's report> --json`;
    const jestShown = 'node_modules/.bin/jest --shard <k>/4 --json';
    return [
      balanceFigure({ title: 'shard balance: recorded timings, slowest shard\'s test time', a: `${shown('<k>')}: the most unit_durations of a shard`, b: 'the shards\' unit_durations in all / 4', shards: ours, key: 'unitsMs', target: { max: SHARD_BALANCE.maxRatio, unit: '×' } }),
      balanceFigure({ title: 'shard balance: recorded timings, slowest shard\'s wall time', a: `${shown('<k>')}: the longest shard`, b: 'the shards\' wall times in all / 4', shards: ours, key: 'ms', target: null }),
      balanceFigure({ title: 'shard balance: jest --shard (hash), slowest shard\'s test time', a: `${jestShown}: the most test time of a shard`, b: 'the shards\' test times in all / 4', shards: theirs, key: 'unitsMs', target: null }),
      balanceFigure({ title: 'shard balance: jest --shard (hash), slowest shard\'s wall time', a: `${jestShown}: the longest shard`, b: 'the shards\' wall times in all / 4', shards: theirs, key: 'ms', target: null }),
    ];
  },
};
