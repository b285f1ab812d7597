#!/usr/bin/env node
// Runs each real project of projects.json whole, then as n shards balanced by the whole
// run's report (--timings), merges the shard reports and checks that the merge says what
// the whole run said: status, counts and failed test names, every unit in one shard.
// Run by hand on checkouts set up by run.mjs --setup (see README.md beside this file).
//
//   node scripts/realworld/shards.mjs <checkouts-dir> [--count 3] [--only id,id] [--write docs/realworld.md]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cell, checkoutOf, readProjects, repoRoot, runJson, runTestsCommit, writeSection } from './lib.mjs';

function parseArgs(argv) {
  const opts = { dir: null, count: 3, only: null, write: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--count') opts.count = Number(argv[++i]);
    else if (arg === '--only') opts.only = new Set(argv[++i].split(','));
    else if (arg === '--write') opts.write = argv[++i];
    else if (opts.dir === null && !arg.startsWith('-')) opts.dir = path.resolve(arg);
    else throw new Error(`unknown argument: ${arg}`);
  }
  if (opts.dir === null || !(opts.count >= 1)) throw new Error('usage: shards.mjs <checkouts-dir> [--count n] [--only id,id] [--write <file>]');
  return opts;
}

const COUNTS = ['run', 'passed', 'failures', 'errors', 'skips'];
const counts = (report) => COUNTS.map((key) => report.summary[key]).join('/');
const failedNames = (report) => report.failed_tests.map((t) => `${t.file ?? ''} ${t.test_name}`).sort();

/** The whole run, n shards and their merge; what differs between the merge and the whole. */
function checkProject(project, opts, out) {
  const { checkout, cwd } = checkoutOf(project, opts.dir);
  const row = { project, whole: '', merged: '', units: '', verdict: '', detail: '' };
  if (!fs.existsSync(cwd)) return { ...row, verdict: 'not checked out', detail: cwd };
  const whole = runJson(['--cwd', cwd, '--max-failures', '0'], project, cwd, checkout);
  if (whole.problem) return { ...row, verdict: '**crash**', detail: `whole run: ${whole.problem}` };
  const timings = path.join(out, `${project.id}-whole.json`);
  fs.writeFileSync(timings, JSON.stringify(whole.report));
  const files = [];
  const seconds = [];
  for (let k = 1; k <= opts.count; k += 1) {
    const shard = runJson(['--cwd', cwd, '--max-failures', '0', '--shard', `${k}/${opts.count}`, '--timings', timings], project, cwd, checkout);
    const wholeSaid = `${whole.report.status} ${counts(whole.report)}`;
    // Exit 2: run-tests cannot shard this project exactly, and says why before running anything.
    if (shard.problem && shard.exit === 2) return { ...row, whole: wholeSaid, verdict: 'refused', detail: shard.stderr };
    if (shard.problem) return { ...row, whole: wholeSaid, verdict: '**crash**', detail: `shard ${k}: ${shard.problem}` };
    if (shard.report.shard === undefined) {
      // A project whose whole run is an error (a runner that cannot start) errors as a shard too.
      const same = whole.report.status === 'error' && shard.report.status === 'error';
      return { ...row, whole: wholeSaid, verdict: same ? 'same' : '**differs**', detail: `shard ${k}: ${shard.report.status}: ${shard.report.error?.message ?? ''}` };
    }
    const file = path.join(out, `${project.id}-shard-${k}.json`);
    fs.writeFileSync(file, JSON.stringify(shard.report));
    files.push(file);
    seconds.push(shard.seconds);
  }
  const merged = runJson(['merge', '--max-failures', '0', ...files], project, cwd, checkout);
  if (merged.problem) return { ...row, verdict: '**crash**', detail: `merge: ${merged.problem}` };
  const diffs = [];
  if (merged.report.status !== whole.report.status) diffs.push(`status ${merged.report.status} (whole: ${whole.report.status})${merged.report.error ? `: ${merged.report.error.message}` : ''}`);
  if (counts(merged.report) !== counts(whole.report)) diffs.push(`counts ${counts(merged.report)} (whole: ${counts(whole.report)})`);
  const [got, want] = [failedNames(merged.report), failedNames(whole.report)];
  if (JSON.stringify(got) !== JSON.stringify(want)) diffs.push(`failed tests differ: ${got.filter((n) => !want.includes(n)).length} more, ${want.filter((n) => !got.includes(n)).length} fewer`);
  const parts = files.map((file) => JSON.parse(fs.readFileSync(file, 'utf8')).shard.units.length);
  return {
    ...row,
    whole: `${whole.report.status} ${counts(whole.report)} (${whole.seconds} s)`,
    merged: `${merged.report.status} ${counts(merged.report)} (slowest shard ${Math.max(...seconds)} s)`,
    units: parts.join(' + '),
    verdict: diffs.length === 0 ? 'same' : '**differs**',
    detail: diffs.join('; '),
  };
}

function table(rows, count) {
  const lines = [
    `| project | runner | whole run (status run/passed/failures/errors/skips) | ${count} shards merged | units per shard | verdict | differences |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) lines.push(`| ${[r.project.id, r.project.runner, r.whole, r.merged, r.units, r.verdict, r.detail].map(cell).join(' | ')} |`);
  return lines.join('\n');
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-realworld-shards-'));
  const rows = [];
  for (const project of readProjects()) {
    if (opts.only && !opts.only.has(project.id)) continue;
    process.stderr.write(`${project.id} ... `);
    const row = checkProject(project, opts, out);
    process.stderr.write(`${row.verdict}\n`);
    rows.push(row);
  }
  const text = table(rows, opts.count);
  process.stdout.write(`${text}\n`);
  if (opts.write) {
    const same = rows.filter((r) => r.verdict === 'same').length;
    const refused = rows.filter((r) => r.verdict === 'refused').length;
    const header = `Run on ${new Date().toISOString().slice(0, 10)} with run-tests ${runTestsCommit()}, node ${process.version}: ` +
      `${rows.length} projects in ${opts.count} shards each: ${same} merged to what the whole run said, ${refused} refused to shard (exit 2, saying why), ${rows.length - same - refused} differ.`;
    writeSection(path.resolve(repoRoot, opts.write), `${header}\n\n${text}\n`, 'realworld-shards');
  }
  fs.rmSync(out, { recursive: true, force: true });
  process.exitCode = rows.every((r) => r.verdict === 'same' || r.verdict === 'refused') ? 0 : 1;
}

main();
