// The benchmark suite: `npm run bench` (all), `node bench/run.js <name>...` (some),
// `--check` to exit 1 on a missed target, BENCH_RUNS=<n> rounds per comparison.
import fs from 'node:fs';
import { benchmarks } from './benchmarks/index.js';
import { resultsPath, removeTempDirs } from './lib/fixtures.js';
import { describeMachine } from './lib/machine.js';
import { renderMarkdown, renderTable } from './lib/report.js';

const DEFAULT_RUNS = 7;

function parseArgs(argv) {
  const check = argv.includes('--check');
  const names = argv.filter((arg) => arg !== '--check');
  const known = benchmarks.map((b) => b.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) usage(`unknown benchmark ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const raw = process.env.BENCH_RUNS ?? String(DEFAULT_RUNS);
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) usage(`BENCH_RUNS must be a whole number ≥ 1, got ${JSON.stringify(raw)}`);
  return { check, runs, selected: names.length === 0 ? benchmarks : benchmarks.filter((b) => names.includes(b.name)) };
}

function usage(message) {
  process.stderr.write(`bench: ${message}\nusage: [BENCH_RUNS=n] node bench/run.js [--check] [${benchmarks.map((b) => b.name).join('|')}...]\n`);
  process.exit(2);
}

async function runAll(selected, runs) {
  const log = (text) => process.stderr.write(`${text}\n`);
  const figures = [];
  const errors = [];
  for (const benchmark of selected) {
    log(`\n== ${benchmark.name}: ${benchmark.title}`);
    try {
      figures.push(...(await benchmark.run({ runs, log })));
    } catch (error) {
      log(`bench: ${benchmark.name} could not run: ${error.message}`);
      errors.push({ benchmark: benchmark.name, message: error.message });
    } finally {
      removeTempDirs();
    }
  }
  return { figures, errors };
}

const { check, runs, selected } = parseArgs(process.argv.slice(2));
const date = new Date().toISOString();
const { figures, errors } = await runAll(selected, runs);
process.stdout.write(`\n${renderTable(figures)}\n`);
const machine = describeMachine();
fs.writeFileSync(resultsPath, renderMarkdown({ machine, date, runs, selected: selected.map((b) => b.name), figures, errors }));
process.stdout.write(`\nwritten: bench/RESULTS.md\n`);
const missed = figures.filter((f) => f.pass === false);
if (missed.length > 0) process.stderr.write(`bench: ${missed.length} figure(s) missed their target${check ? '' : ' (exit 0 without --check)'}\n`);
if (errors.length > 0) process.exitCode = 1; // a benchmark that cannot run is a broken benchmark
else if (check && missed.length > 0) process.exitCode = 1;
