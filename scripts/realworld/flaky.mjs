#!/usr/bin/env node
// --retries, checked on real projects: injects into each checkout a test that fails on its
// first run and passes after and one that always fails (flaky-tests.mjs), runs run-tests
// without and with `--retries 2`, then without the always-failing test, with and without
// --flaky-fails, and checks each report against what the injected tests did (they count
// their own runs) and the project's recorded counts. Run by hand (it needs checkouts set
// up as run.mjs --setup does): see README.md.
//
//   node scripts/realworld/flaky.mjs <checkouts-dir> [--setup] [--only id,id] [--write docs/realworld.md]
//
// Every command is an argv array: nothing here goes through a shell.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ALWAYS, FLAKY, injectionFor } from './flaky-tests.mjs';
import { checkRetried, checkStrict, checkUnretried, checkWithoutAlways } from './flaky-checks.mjs';
import { flakyTable } from './flaky-report.mjs';
import { checkArgs, checkoutOf, readProjects, repoRoot, run, runJson, runTestsCommit, setup, writeSection } from './lib.mjs';

const RETRIES = ['--retries', '2'];

const gitStatus = (cwd) => run(['git', 'status', '--porcelain', '--untracked-files=all'], cwd, {}, cwd).stdout;

/** One run-tests run in the checkout, timed to a tenth of a second. */
function timedRun(args, project, cwd, checkout) {
  const started = process.hrtime.bigint();
  const result = runJson(args, project, cwd, checkout);
  return { ...result, seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e8) / 10 };
}

/** Writes the injected file (with or without the always-failing test) and empties the
 * counters; returns the directories it had to create, outermost first. */
function inject(cwd, injection, counters) {
  const target = path.join(cwd, injection.file);
  const created = [];
  for (let dir = path.dirname(target); !fs.existsSync(dir); dir = path.dirname(dir)) created.unshift(dir);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, injection.text(counters));
  for (const counter of [counters.flaky, counters.always]) if (counter) fs.rmSync(counter, { force: true });
  return created;
}

/** How often each injected test ran since its counter was emptied. */
function ran(counter) {
  return counter && fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0;
}

/** The four runs on one checkout, each checked as soon as it is done. */
function runStages(project, ctx) {
  const { cwd, checkout, injection, counters } = ctx;
  const stages = {};
  const problems = [];
  const stage = (name, args, counterSet, check) => {
    inject(cwd, injection, counterSet);
    const result = timedRun(args, project, cwd, checkout);
    const runs = { flaky: ran(counterSet.flaky), always: ran(counterSet.always) };
    stages[name] = { ...result, runs };
    if (result.problem) problems.push(`${name}: ${result.problem}`);
    else problems.push(...check({ project, result, runs, injection, cwd }).map((p) => `${name}: ${p}`));
  };
  stage('without --retries', [], counters, checkUnretried);
  stage('--retries 2', RETRIES, counters, checkRetried);
  const flakyOnly = { flaky: counters.flaky, always: null };
  stage('--retries 2, flaky only', RETRIES, flakyOnly, checkWithoutAlways);
  stage('--retries 2 --flaky-fails, flaky only', [...RETRIES, '--flaky-fails'], flakyOnly, checkStrict);
  return { stages, problems };
}

function checkProject(project, opts) {
  const { checkout, cwd } = checkoutOf(project, opts.dir);
  const row = { project, leftOut: null, problems: [], stages: {} };
  if (!fs.existsSync(cwd)) return { ...row, leftOut: `not checked out (${cwd})` };
  if (project.expect.status !== 'passed') return { ...row, leftOut: `its suite does not pass here (${project.expect.status}): the check needs one that does` };
  if (opts.setup) {
    const problem = setup(project, cwd, checkout);
    if (problem) return { ...row, leftOut: problem };
  }
  const before = gitStatus(cwd);
  const injection = injectionFor(project.runner, cwd);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-flaky-'));
  const counters = { flaky: path.join(temp, FLAKY), always: path.join(temp, ALWAYS) };
  row.injected = injection.file;
  let created = [];
  try {
    created = inject(cwd, injection, counters);
    Object.assign(row, runStages(project, { cwd, checkout, injection, counters }));
  } finally {
    fs.rmSync(path.join(cwd, injection.file), { force: true });
    for (const dir of created.reverse()) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(temp, { recursive: true, force: true });
  }
  const after = gitStatus(cwd);
  if (after !== before) row.problems.push(`the checkout is not as it was after the injected file was removed: git status says ${JSON.stringify(after.trim())}`);
  return row;
}

function main() {
  const opts = checkArgs(process.argv.slice(2), 'flaky.mjs');
  const rows = [];
  for (const project of readProjects()) {
    if (opts.only && !opts.only.has(project.id)) continue;
    process.stderr.write(`${project.id} ... `);
    let row;
    try {
      row = checkProject(project, opts);
    } catch (error) {
      row = { project, leftOut: `stopped: ${error.message}`, problems: [], stages: {} };
    }
    process.stderr.write(`${row.leftOut ?? (row.problems.length === 0 ? 'ok' : `${row.problems.length} problem(s)`)}\n`);
    rows.push(row);
  }
  const { summary, text } = flakyTable(rows);
  process.stdout.write(`${summary}\n\n${text}\n`);
  if (opts.write) {
    const header = `Run on ${new Date().toISOString().slice(0, 10)} with run-tests ${runTestsCommit()}, node ${process.version}: ${summary}`;
    writeSection(path.resolve(repoRoot, opts.write), `${header}\n\n${text}\n`, 'flaky');
  }
  process.exitCode = rows.some((r) => r.leftOut || r.problems.length > 0) ? 1 : 0;
}

main();
