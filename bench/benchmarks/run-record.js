import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { figure } from '../lib/figure.js';
import { committedCopy, tempDir } from '../lib/fixtures.js';
import { median } from '../lib/stats.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** What a run's record may add to each run: its directory (run.json, the lock, report.json,
 * last-report.json, last-test.log, pruning), the look for abandoned runs, the marker scan
 * and both looks at the git tree. */
const MAX_MS = 15;
/** The same, as a share of the 2-second minitest suite (`minitest-overhead`'s 2,000
 * working tests), which takes about that long by hand. */
const SUITE_MS = 2000;
const MAX_SHARE = 0.02;

/**
 * A node script bundled from src/ that records `runs` runs of one project, one after
 * another, exactly as a run does around its runner (the runner itself is left out: its
 * log is written before the clock starts), and prints each run's milliseconds as JSON.
 * It calls every step of the record a run makes, in a run's order, with the project's
 * 20 stored runs pruned as they would be.
 */
async function recordScript() {
  const dir = tempDir('run-record');
  const entry = path.join(dir, 'entry.ts');
  const src = (file) => JSON.stringify(path.join(repoRoot, 'src', file));
  fs.writeFileSync(entry, `import fs from 'node:fs';
import { recoverAbandoned } from ${src('core/abandoned.ts')};
import { beginRecord, completeRecord, DEFAULT_KEEP_RUNS } from ${src('core/run-record.ts')};
import { firstLook, lookAgain } from ${src('core/drift.ts')};
import { markedPids } from ${src('process/marker.ts')};
import { artifactPaths, ensureArtifactsDir } from ${src('store/artifacts.ts')};
import { newRunId } from ${src('store/runs.ts')};
const [root, runs, reportFile] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
const log = 'x'.repeat(64 * 1024);
const ms = () => Number(process.hrtime.bigint()) / 1e6;
const samples = [];
const steps = {};
const step = (name, t) => { (steps[name] ??= []).push(ms() - t); return ms(); };
for (let round = 0; round < runs; round += 1) {
  const artifacts = artifactPaths(root, newRunId());
  const invocation = { argv: ['bundle', 'exec', 'rake', 'test'], env: {}, cwd: root, reports: [{ path: artifacts.file('minitest.jsonl'), parser: 'minitest-jsonl' }] };
  const start = ms();
  let t = start;
  await recoverAbandoned(artifacts.dir, 1000);
  t = step('abandoned', t);
  ensureArtifactsDir(artifacts);
  beginRecord(artifacts, invocation, 'minitest', new Date().toISOString(), root);
  t = step('begin', t);
  const before = await firstLook(root, new Set());
  t = step('firstLook', t);
  const paused = t;
  fs.writeFileSync(artifacts.log, log); // the runner's part, not the record's
  const resumed = ms();
  t = resumed;
  markedPids(artifacts.runId);
  t = step('marker', t);
  await lookAgain(before, root, new Set(), Number.POSITIVE_INFINITY);
  t = step('lookAgain', t);
  await completeRecord(artifacts, DEFAULT_KEEP_RUNS, () => ({ ...report, run_id: artifacts.runId }));
  t = step('complete', t);
  // The first look runs while the runner starts (bindTree is not awaited before it): a
  // run waits for everything else.
  samples.push(ms() - resumed + (paused - start) - steps.firstLook.at(-1));
}
process.stdout.write(JSON.stringify({ samples, steps }));
`);
  const outfile = path.join(dir, 'record.mjs');
  await build({
    entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

/** A committed copy of the minitest fixture, with a report as a run of it writes. */
function project() {
  const dir = committedCopy('minitest-mixed');
  const report = path.join(tempDir('run-record-report'), 'report.json');
  const tests = Array.from({ length: 50 }, (_, i) => ({ test_name: `T#test_${i}`, file: 'test/t_test.rb', line: i + 1, status: 'failed', message: 'm'.repeat(200), id: `T#test_${i}` }));
  fs.writeFileSync(report, JSON.stringify({ schema_version: 1, status: 'failed', summary: { run: 2000, passed: 1950, failures: 50, errors: 0, skips: 0 }, failed_tests: tests, warnings: [] }));
  return { dir, report };
}

export const runRecord = {
  name: 'run-record',
  title: "what each run's record adds: its directory, the abandoned-run look, the marker scan, the git binding",
  async run({ runs, log }) {
    const script = await recordScript();
    const { dir, report } = project();
    // More rounds than the pruning keeps, so pruning does its work in most of them.
    const { samples, steps } = JSON.parse(execFileSync(process.execPath, [script, dir, String(Math.max(30, runs * 5)), report], { encoding: 'utf8' }));
    const ms = median(samples);
    log(`  medians: ${Object.entries(steps).map(([name, values]) => `${name} ${median(values).toFixed(1)} ms`).join(', ')}`);
    log(`  per run: median ${ms.toFixed(1)} ms over ${samples.length} runs (max ${Math.max(...samples).toFixed(1)} ms)`);
    const shown = { label: 'record', shown: 'run.json, lock, report.json, last-*, prune, abandoned look, marker scan, second git look', median: ms, unit: 'ms' };
    const first = median(steps.firstLook);
    return [
      figure({
        benchmark: 'run-record',
        title: 'the first git look, beside the runner\'s start (for information: the run does not wait for it)',
        a: { label: 'first look', shown: 'git rev-parse, status and ls-files', median: first, unit: 'ms' },
        result: { value: first, unit: 'ms' },
        runs: samples.length,
      }),
      figure({ benchmark: 'run-record', title: 'per run, what the record adds to the time a run takes', a: shown, result: { value: ms, unit: 'ms' }, target: { max: MAX_MS, unit: 'ms' }, runs: samples.length }),
      figure({
        benchmark: 'run-record',
        title: `as a share of the ${SUITE_MS / 1000}-second minitest suite`,
        a: shown,
        result: { value: (ms / SUITE_MS) * 100, unit: '%' },
        target: { max: MAX_SHARE * 100, unit: '%' },
        runs: samples.length,
      }),
    ];
  },
};
