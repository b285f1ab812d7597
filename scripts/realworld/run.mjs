#!/usr/bin/env node
// Runs run-tests on checkouts of the real projects in projects.json and compares what it
// reports with what each project's own runner reported by hand. Run by hand (it needs
// checkouts), never in CI: see README.md beside this file.
//
//   node scripts/realworld/run.mjs <checkouts-dir> [--setup] [--only id,id] [--write docs/realworld.md]
//
// Every command is an argv array: nothing here goes through a shell.
import fs from 'node:fs';
import path from 'node:path';
import { cell, checkoutOf, readProjects, repoRoot, runJson, runTestsCommit, setup, writeSection, checkArgs } from './lib.mjs';

/** What run-tests said, in the recorded expectation's terms. */
function observed(report, cwd) {
  const s = report.summary;
  const failed = s.failures === null || s.errors === null ? null : s.failures + s.errors;
  // Names that hold the checkout's path (kramdown's do) compare as <root>.
  const root = report.project_root ?? cwd;
  const names = report.failed_tests.map((t) => t.test_name.split(root).join('<root>')).sort();
  return {
    status: report.status, framework: report.framework, run: s.run, passed: s.passed, failed,
    failures: s.failures, errors: s.errors, skipped: s.skips, failed_tests: names,
  };
}

/** Every way the observation differs from the expectation, as short texts. */
function differences(project, got) {
  const want = project.expect;
  const diffs = [];
  if (got.framework !== project.runner) diffs.push(`runner ${got.framework} (want ${project.runner})`);
  if (want.status !== got.status) diffs.push(`status ${got.status} (want ${want.status})`);
  // Counts that are all unknown on one side are one difference, not five.
  const keys = ['run', 'passed', 'failed', 'failures', 'errors', 'skipped'].filter((key) => key in want);
  if ((got.run === null) !== (want.run === null)) diffs.push(got.run === null ? 'no counts' : `counts where none were expected (run ${got.run})`);
  else for (const key of keys) if (want[key] !== got[key]) diffs.push(`${key} ${got[key]} (want ${want[key]})`);
  const wantNames = [...(want.failed_tests ?? [])].sort();
  const missing = wantNames.filter((n) => !got.failed_tests.includes(n));
  const extra = got.failed_tests.filter((n) => !wantNames.includes(n));
  // Names are compared where they are listed, or where none should fail.
  const namesRecorded = want.failed_tests !== undefined || want.failed === 0;
  if (namesRecorded && (want.status !== 'error' || got.status !== 'error')) {
    if (missing.length > 0) diffs.push(`${missing.length} failed test(s) not reported, e.g. \`${missing[0]}\``);
    if (extra.length > 0) diffs.push(`${extra.length} unexpected failed test(s), e.g. \`${extra[0]}\``);
  }
  return diffs;
}

function counts(c) {
  if (c.run === null || c.run === undefined) return '–';
  return `${c.run} run, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
}

function checkProject(project, opts) {
  const { checkout, cwd } = checkoutOf(project, opts.dir);
  const row = { project, got: '', seconds: null, verdict: '', detail: '' };
  if (!fs.existsSync(cwd)) return { ...row, verdict: 'not checked out', detail: cwd };
  if (opts.setup) {
    const problem = setup(project, cwd, checkout);
    if (problem) return { ...row, verdict: 'setup failed', detail: problem };
  }
  const outcome = runJson(['--cwd', cwd], project, cwd, checkout);
  if (outcome.problem) return { ...row, seconds: outcome.seconds, verdict: '**crash**', detail: outcome.problem };
  const got = observed(outcome.report, cwd);
  const diffs = differences(project, got);
  const error = outcome.report.error ? ` ${outcome.report.error.code}` : '';
  return {
    ...row,
    seconds: outcome.seconds,
    got: `${got.status}${error} (exit ${outcome.exit}): ${counts(got)}`,
    verdict: diffs.length === 0 ? 'same' : '**differs**',
    detail: diffs.join('; '),
  };
}

function table(rows) {
  const lines = [
    '| project | runner | commit | its own runner | run-tests | s | verdict | differences |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const { project, got, seconds, verdict, detail } of rows) {
    const want = project.expect;
    const expected = `${project.reported}${want.status === 'error' ? ' (expect: error)' : ''}`;
    lines.push(`| ${[
      `${project.id} ([${project.repository}](https://github.com/${project.repository}))`,
      project.runner, project.commit.slice(0, 10), expected, got, seconds ?? '', verdict, detail,
    ].map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

function main() {
  const opts = checkArgs(process.argv.slice(2), 'run.mjs');
  const projects = readProjects();
  const rows = [];
  for (const project of projects) {
    if (opts.only && !opts.only.has(project.id)) continue;
    process.stderr.write(`${project.id} ... `);
    const row = checkProject(project, opts);
    process.stderr.write(`${row.verdict}\n`);
    rows.push(row);
  }
  const out = table(rows);
  process.stdout.write(`${out}\n`);
  if (opts.write) {
    const same = rows.filter((r) => r.verdict === 'same').length;
    const header = `Run on ${new Date().toISOString().slice(0, 10)} with run-tests ${runTestsCommit()}, node ${process.version}: ` +
      `${rows.length} projects, ${same} the same, ${rows.length - same} not.`;
    writeSection(path.resolve(repoRoot, opts.write), `${header}\n\n${out}\n`);
  }
  process.exitCode = rows.every((r) => r.verdict === 'same') ? 0 : 1;
}

main();
