#!/usr/bin/env node
// Never narrower, measured: on checkouts of the real projects whose projects.json entry
// has `changed`, breaks sampled source files one at a time (edits.mjs), runs the full
// suite and `run-tests --changed` on each edit, and checks that every test failing in the
// full run also fails in the --changed run; records the fraction of the suite the plan
// ran. Run by hand (it needs checkouts set up as run.mjs --setup does): see README.md.
//
//   node scripts/realworld/changed.mjs <checkouts-dir> [--setup] [--only id,id] [--write docs/realworld.md]
//
// Every command is an argv array: nothing here goes through a shell.
import fs from 'node:fs';
import path from 'node:path';
import { applyEdit, languageOf, sample, sourceFiles } from './edits.mjs';
import { checkoutOf, readProjects, repoRoot, run, runJson, runTestsCommit, setup, writeSection, checkArgs } from './lib.mjs';
import { summaryLine, tables } from './changed-report.mjs';

const DEFAULT_SAMPLE = 5;

const git = (args, cwd) => run(['git', ...args], cwd, {}, cwd);
const gitLines = (args, cwd) => git(args, cwd).stdout.split('\n').filter((line) => line !== '');

/** Makes the checkout's tree what HEAD says, so that a plan sees the injected edit only:
 * what setup changed in tracked files (a replaced Gemfile) is committed in the checkout
 * (before the first run only: a run that changes a tracked file is an error), and what
 * setup or a run left untracked (a new lock file) goes to .git/info/exclude. */
function settle(checkout, { commit = false } = {}) {
  const status = gitLines(['status', '--porcelain', '--untracked-files=normal'], checkout);
  const untracked = status.filter((line) => line.startsWith('?? ')).map((line) => `/${line.slice(3)}`);
  if (untracked.length > 0) {
    const exclude = path.join(git(['rev-parse', '--absolute-git-dir'], checkout).stdout.trim(), 'info', 'exclude');
    fs.mkdirSync(path.dirname(exclude), { recursive: true });
    fs.appendFileSync(exclude, `${untracked.join('\n')}\n`);
  }
  const tracked = status.filter((line) => !line.startsWith('?? '));
  if (tracked.length > 0 && !commit) throw new Error(`a run changed tracked files of ${checkout}: ${tracked.join(', ')}`);
  if (tracked.length > 0) {
    const done = git(['-c', 'user.name=run-tests realworld', '-c', 'user.email=realworld@localhost', 'commit', '--quiet', '--all', '--no-verify', '-m', 'realworld: setup'], checkout);
    if (done.status !== 0) throw new Error(`committing the setup in ${checkout} failed: ${done.stderr.trim()}`);
  }
  const left = gitLines(['status', '--porcelain', '--untracked-files=normal'], checkout);
  if (left.length > 0) throw new Error(`${checkout} is not clean after settling: ${left.join(', ')}`);
}

/** run-tests' names for an error outside any test, tied to a file, a package or a crate. */
const OUTSIDE_TESTS = /^(compile error|build failed|package failed|load error): /;

/** The failures a report lists, each by its identity: file and test name; an error outside
 * tests by its file and id (cargo names a compile error after whichever of its parallel
 * compilations failed first, `(lib)` or `(lib test)`, so the name differs between two runs
 * of one edit). A run that failed without listing any is one entry for the whole run. */
function failures(report) {
  const identity = (t) => (t.status === 'error' && OUTSIDE_TESTS.test(t.test_name) ? `${t.file ?? ''} error outside tests ${t.id}` : `${t.file ?? ''} ${t.test_name}`);
  const keys = new Map(report.failed_tests.map((t) => [identity(t), t]));
  if (keys.size === 0 && report.status !== 'passed' && report.status !== 'no_tests') {
    keys.set(`(the run) ${report.status}`, { test_name: `the run: ${report.status}${report.error ? ` ${report.error.code}` : ''}`, file: null });
  }
  return keys;
}

/** The --changed run's plan as a fraction of the suite: 1 for the whole suite, 0 for
 * nothing to run, planned units over all units otherwise (null when the total is unknown). */
function fractionOf(plan, totalUnits) {
  if (plan.whole_suite) return 1;
  if (plan.units.length === 0) return 0;
  return totalUnits ? plan.units.length / totalUnits : null;
}

/** One edit: break the file, run --changed then the full suite, restore the file. */
function checkEdit(project, file, language, ctx) {
  const { cwd, checkout, totalUnits } = ctx;
  const target = path.join(cwd, file);
  const original = fs.readFileSync(target, 'utf8');
  fs.writeFileSync(target, applyEdit(original, language));
  let changed;
  let full;
  try {
    changed = runJson(['--cwd', cwd, '--changed', '--max-failures', '0'], project, cwd, checkout);
    full = runJson(['--cwd', cwd, '--max-failures', '0'], project, cwd, checkout);
  } finally {
    git(['checkout', '--', file], cwd);
    settle(checkout);
  }
  const edit = { file, seconds: { full: full.seconds, changed: changed.seconds }, notes: [] };
  if (full.problem) return { ...edit, unchecked: `full run: ${full.problem}` };
  const broken = failures(full.report);
  edit.broken = [...broken.values()];
  if (changed.problem) return { ...edit, unchecked: `--changed run: ${changed.problem}`, missed: edit.broken };
  const { plan } = changed.report;
  if (plan === undefined) return { ...edit, unchecked: '--changed report has no plan', missed: edit.broken };
  const seen = plan.changed.map((c) => c.file);
  if (seen.length !== 1 || seen[0] !== file) edit.notes.push(`the plan's change is ${seen.join(', ') || 'empty'}, not ${file} alone`);
  const caught = failures(changed.report);
  const notPassed = changed.report.status !== 'passed' && changed.report.status !== 'no_tests';
  edit.missed = [...broken].filter(([key]) => !(caught.has(key) || (key.startsWith('(the run)') && notPassed))).map(([, t]) => t);
  edit.extra = [...caught.keys()].filter((key) => !broken.has(key)).length;
  edit.plan = plan;
  edit.fraction = fractionOf(plan, totalUnits);
  edit.changedStatus = changed.report.status;
  edit.changedFailed = caught.size;
  return edit;
}

function checkProject(project, opts) {
  const { checkout, cwd } = checkoutOf(project, opts.dir);
  const row = { project, edits: [], leftOut: null, notes: [] };
  if (!fs.existsSync(cwd)) return { ...row, leftOut: `not checked out (${cwd})` };
  if (git(['rev-parse', '--git-dir'], cwd).status !== 0) return { ...row, leftOut: 'the checkout is not a git repository' };
  if (opts.setup) {
    const problem = setup(project, cwd, checkout);
    if (problem) return { ...row, leftOut: problem };
  }
  settle(checkout, { commit: true });
  const clean = runJson(['--cwd', cwd, '--max-failures', '0'], project, cwd, checkout);
  if (clean.problem) return { ...row, leftOut: `clean run: ${clean.problem}` };
  if (clean.report.status !== 'passed') return { ...row, leftOut: `the clean suite does not pass: ${clean.report.status}, ${clean.report.failed_tests.length} failed` };
  row.cleanSeconds = clean.seconds;
  const shard = runJson(['--cwd', cwd, '--shard', '1/1'], project, cwd, checkout);
  const totalUnits = shard.report?.shard?.total_units ?? null;
  if (totalUnits === null) row.notes.push(`units unknown (--shard 1/1: ${shard.problem ? (shard.stderr.trim().split('\n').pop() ?? shard.problem) : 'no shard field'})`);
  row.totalUnits = totalUnits;
  settle(checkout);
  const language = languageOf(project.runner);
  const files = sourceFiles(gitLines(['ls-files'], cwd), language, project.changed.roots ?? []);
  const chosen = sample(files, project.changed.sample ?? DEFAULT_SAMPLE);
  row.sourceFiles = files.length;
  for (const file of chosen) {
    process.stderr.write(`  ${file} ... `);
    let edit;
    try {
      edit = checkEdit(project, file, language, { cwd, checkout, totalUnits });
    } catch (error) {
      process.stderr.write(`stopped: ${error.message}\n`);
      row.notes.push(`stopped at ${file}: ${error.message}`);
      break;
    }
    process.stderr.write(`${edit.unchecked ? `unchecked: ${edit.unchecked}` : `${edit.broken.length} failing, ${edit.missed.length} missed, fraction ${edit.fraction ?? '?'}`}\n`);
    row.edits.push(edit);
  }
  return row;
}

function main() {
  const opts = checkArgs(process.argv.slice(2), 'changed.mjs');
  const rows = [];
  for (const project of readProjects()) {
    if (project.changed === undefined || (opts.only && !opts.only.has(project.id))) continue;
    process.stderr.write(`${project.id}\n`);
    try {
      rows.push(checkProject(project, opts));
    } catch (error) {
      rows.push({ project, edits: [], notes: [], leftOut: `stopped: ${error.message}` });
    }
  }
  const text = tables(rows);
  process.stdout.write(`${summaryLine(rows)}\n\n${text}\n`);
  if (opts.write) {
    const header = `Run on ${new Date().toISOString().slice(0, 10)} with run-tests ${runTestsCommit()}, node ${process.version}: ${summaryLine(rows)}`;
    writeSection(path.resolve(repoRoot, opts.write), `${header}\n\n${text}\n`, 'changed');
  }
  const edits = rows.flatMap((r) => r.edits);
  process.exitCode = edits.some((e) => e.unchecked || e.missed.length > 0) ? 1 : 0;
}

main();
