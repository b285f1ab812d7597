#!/usr/bin/env node
// Runs run-tests on checkouts of the real projects in projects.json and compares what it
// reports with what each project's own runner reported by hand. Run by hand (it needs
// checkouts), never in CI: see README.md beside this file.
//
//   node scripts/realworld/run.mjs <checkouts-dir> [--setup] [--only id,id] [--write docs/realworld.md]
//
// Every command is an argv array: nothing here goes through a shell.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const runTests = path.join(repoRoot, 'bin', 'run-tests.js');
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

function parseArgs(argv) {
  const opts = { dir: null, setup: false, only: null, write: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--setup') opts.setup = true;
    else if (arg === '--only') opts.only = new Set(argv[++i].split(','));
    else if (arg === '--write') opts.write = argv[++i];
    else if (opts.dir === null && !arg.startsWith('-')) opts.dir = path.resolve(arg);
    else throw new Error(`unknown argument: ${arg}`);
  }
  if (opts.dir === null) throw new Error('usage: run.mjs <checkouts-dir> [--setup] [--only id,id] [--write <file>]');
  return opts;
}

/** Runs one argv in `cwd`, with the project's `path` first on PATH and its `env` set
 * (`<checkout>` in a value stands for the project's checkout: GOPATH mode needs it). */
function run(argv, cwd, project, checkout) {
  const own = Object.fromEntries(Object.entries(project.env ?? {}).map(([name, value]) => [name, value.replaceAll('<checkout>', checkout)]));
  const env = { ...process.env, ...own, PATH: [...(project.path ?? []), process.env.PATH].join(path.delimiter) };
  return spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: RUN_TIMEOUT_MS });
}

function setup(project, cwd, checkout) {
  for (const argv of project.setup) {
    const result = run(argv, cwd, project, checkout);
    if (result.status !== 0) return `setup failed: \`${argv.join(' ')}\` exited ${result.status ?? result.signal}`;
  }
  return null;
}

/** The run-tests report for a checkout, or an error text. */
function runReport(project, cwd, checkout) {
  const started = Date.now();
  const result = run([process.execPath, runTests, '--cwd', cwd, '--json'], cwd, project, checkout);
  const seconds = Math.round((Date.now() - started) / 1000);
  try {
    return { report: JSON.parse(result.stdout), exit: result.status, seconds };
  } catch {
    return { problem: `no JSON on stdout (exit ${result.status ?? result.signal}): ${result.stderr.trim().split('\n').pop() ?? ''}`, seconds };
  }
}

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
  const checkout = path.join(opts.dir, project.id);
  const cwd = path.join(checkout, project.subdirectory ?? '');
  const row = { project, got: '', seconds: null, verdict: '', detail: '' };
  if (!fs.existsSync(cwd)) return { ...row, verdict: 'not checked out', detail: cwd };
  if (opts.setup) {
    const problem = setup(project, cwd, checkout);
    if (problem) return { ...row, verdict: 'setup failed', detail: problem };
  }
  const outcome = runReport(project, cwd, checkout);
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

function cell(text) {
  return String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
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

function runTestsCommit() {
  const result = run(['git', 'rev-parse', '--short=10', 'HEAD'], repoRoot, {}, repoRoot);
  const dirty = run(['git', 'status', '--porcelain', '--', 'src', 'reporters'], repoRoot, {}, repoRoot).stdout.trim() !== '';
  return result.status === 0 ? `${result.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}` : 'unknown';
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { projects } = JSON.parse(fs.readFileSync(path.join(here, 'projects.json'), 'utf8'));
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

/** Replaces the generated table in the doc (between its markers), keeping the prose around it. */
function writeSection(file, text) {
  const begin = '<!-- realworld:begin -->';
  const end = '<!-- realworld:end -->';
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Real projects\n\n${begin}\n${end}\n`;
  const from = old.indexOf(begin);
  const to = old.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${begin} ... ${end} markers`);
  fs.writeFileSync(file, `${old.slice(0, from + begin.length)}\n${text}${old.slice(to)}`);
}

main();
