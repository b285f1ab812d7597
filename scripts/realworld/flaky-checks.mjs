// What flaky.mjs expects of each of its four runs, as lists of problems (empty: all
// held). The truth is the project's recorded counts (projects.json `expect`) plus the two
// injected tests, and how often each injected test really ran (its counter file).
import fs from 'node:fs';
import path from 'node:path';
import { ALWAYS, FLAKY } from './flaky-tests.mjs';

const show = (value) => JSON.stringify(value);

/** A checker that collects `what: got (want ...)` for each value that differs. */
function collector() {
  const problems = [];
  const want = (what, got, expected) => {
    if (show(got) !== show(expected)) problems.push(`${what} ${show(got)} (want ${show(expected)})`);
  };
  return { problems, want };
}


const statuses = (t) => (t?.attempts ?? []).map((a) => a.status);

/** The verdict, the exit code and the summary's counts, with `extra` tests beside the
 * project's own (injected ones that ran), `failures` of them failing, `flaky` flaky. */
function checkVerdict(want, { project, result }, { status, exit, extra, failures, flaky }) {
  const { summary } = result.report;
  const own = project.expect;
  want('status', result.report.status, status);
  want('exit code', result.exit, exit);
  want('summary.run', summary.run, own.run + extra);
  want('summary.passed', summary.passed, own.passed);
  want('summary.failures', summary.failures, failures);
  want('summary.errors', summary.errors, 0);
  want('summary.skips', summary.skips, own.skipped);
  want('summary.flaky', summary.flaky, flaky);
}

/** The one injected entry named `name` in `list`: its file and attempts' statuses. */
function checkEntry(want, list, name, { injection, listName, attempts }) {
  const entries = injected(list, name);
  want(`${listName} entries named ${name}`, entries.length, 1);
  if (entries.length !== 1) return;
  want(`${listName} ${name}'s file`, entries[0].file, injection.file);
  if (attempts !== undefined) want(`${listName} ${name}'s attempts`, statuses(entries[0]), attempts);
}

/** Whether `text` names the test `name`, not only the injected file, whose name holds it
 * (zz_run_tests_flaky_test.go, tests/run_tests_flaky.rs, test_run_tests_flaky.py). */
const namedIn = (text, name) => new RegExp(`(?<![A-Za-z0-9])${name}(?![\\w.])`).test(text);

const injected = (list, name) => (list ?? []).filter((t) => namedIn(t.test_name, name));

/** Each retry run's log exists and holds the runner's output: not empty, and naming the
 * always-failing test where it reran (runners' progress output names only failures; how
 * often each test really ran is the counters' to say). */
function checkLogs(want, { result, cwd }, reran) {
  const runs = result.report.retries?.runs ?? [];
  want('retries.runs[].tests', runs.map((r) => r.tests), reran.map((names) => names.length));
  runs.forEach((r, i) => {
    const log = path.resolve(result.report.project_root ?? cwd, r.log);
    if (!fs.existsSync(log)) return want(`retry ${i + 1}'s log ${r.log} exists`, false, true);
    const text = fs.readFileSync(log, 'utf8');
    want(`retry ${i + 1}'s log is empty`, text.trim() === '', false);
    if (reran[i]?.includes(ALWAYS)) want(`retry ${i + 1}'s log names ${ALWAYS}`, namedIn(text, ALWAYS), true);
  });
}

/** Plain run: both injected tests fail once, nothing is retried or flaky. */
export function checkUnretried(ctx) {
  const { problems, want } = collector();
  checkVerdict(want, ctx, { status: 'failed', exit: 1, extra: 2, failures: 2, flaky: undefined });
  for (const name of [FLAKY, ALWAYS]) checkEntry(want, ctx.result.report.failed_tests, name, { ...ctx, listName: 'failed_tests', attempts: [] });
  want('flaky_tests', ctx.result.report.flaky_tests, undefined);
  want('runs of the injected tests', ctx.runs, { flaky: 1, always: 1 });
  return problems;
}

/** --retries 2: the flaky test passes on the first retry, the other fails all three. */
export function checkRetried(ctx) {
  const { problems, want } = collector();
  const { report } = ctx.result;
  checkVerdict(want, ctx, { status: 'failed', exit: 1, extra: 2, failures: 1, flaky: 1 });
  want('flaky_tests entries', report.flaky_tests?.length, 1);
  checkEntry(want, report.flaky_tests, FLAKY, { ...ctx, listName: 'flaky_tests', attempts: ['failed', 'passed'] });
  want('failed_tests entries', report.failed_tests.length, 1);
  checkEntry(want, report.failed_tests, ALWAYS, { ...ctx, listName: 'failed_tests', attempts: ['failed', 'failed', 'failed'] });
  checkLogs(want, ctx, [[FLAKY, ALWAYS], [ALWAYS]]);
  want('runs of the injected tests', ctx.runs, { flaky: 2, always: 3 });
  return problems;
}

/** --retries 2 with the flaky test alone failing: passed, with a warning naming it. */
export function checkWithoutAlways(ctx) {
  const { problems, want } = collector();
  const { report } = ctx.result;
  checkVerdict(want, ctx, { status: 'passed', exit: 0, extra: 1, failures: 0, flaky: 1 });
  want('flaky_tests entries', report.flaky_tests?.length, 1);
  checkEntry(want, report.flaky_tests, FLAKY, { ...ctx, listName: 'flaky_tests', attempts: ['failed', 'passed'] });
  want('failed_tests entries', report.failed_tests.length, 0);
  const flakyName = report.flaky_tests?.[0]?.test_name;
  want('a warning names the flaky test', flakyName !== undefined && report.warnings.some((w) => w.includes(flakyName)), true);
  checkLogs(want, ctx, [[FLAKY]]);
  want('runs of the injected tests', ctx.runs, { flaky: 2, always: 0 });
  return problems;
}

/** --flaky-fails: the same run fails. */
export function checkStrict(ctx) {
  const { problems, want } = collector();
  checkVerdict(want, ctx, { status: 'failed', exit: 1, extra: 1, failures: 0, flaky: 1 });
  checkEntry(want, ctx.result.report.flaky_tests, FLAKY, { ...ctx, listName: 'flaky_tests', attempts: ['failed', 'passed'] });
  want('runs of the injected tests', ctx.runs, { flaky: 2, always: 0 });
  return problems;
}
