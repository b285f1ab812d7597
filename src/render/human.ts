import type { ChalkInstance } from 'chalk';
import type { ChangePlan, RunReport, ShardInfo } from '../model/report.js';
import type { FailedTestRecord, RunningTest, RunStatus, Summary } from '../model/results.js';
import { messageLines } from './message.js';
import { visible } from './visible.js';

const HEADLINE: Readonly<Record<RunStatus, string>> = {
  passed: 'PASSED',
  failed: 'FAILED',
  error: 'ERROR',
  timed_out: 'TIMED OUT',
  no_tests: 'NO TESTS',
  interrupted: 'INTERRUPTED',
  nothing_to_rerun: 'NOTHING TO RERUN',
  abandoned: 'ABANDONED',
};

/** The developer's view of a report: header, failures first, then the summary line,
 * the log and the next step. Pure: colours come from the chalk instance given. Every text
 * from outside (names, messages, paths, the command) is shown through visible(): a test
 * cannot drive the terminal it is reported on. */
export function renderHuman(report: RunReport, c: ChalkInstance): string {
  const lines: string[] = [];
  const sections = report.projects.length > 0 ? report.projects : [report];
  for (const section of sections) lines.push(...header(section, c));
  const left = report.truncated?.failed_tests ?? 0;
  if (report.failed_tests.length > 0) {
    const count = left > 0 ? `${report.failed_tests.length} of ${report.failed_tests.length + left}` : String(report.failed_tests.length);
    lines.push('', c.bold(`Failures (${count}):`));
    report.failed_tests.forEach((t, i) => lines.push(...failure(t, i + 1, c)));
  }
  if (left > 0) lines.push('', c.yellow(`… ${left} more ${left === 1 ? 'failure' : 'failures'} not listed (--max-failures); all are in ${visible(allFailuresIn(report))}`));
  lines.push(...flakySection(report, c));
  if (report.warnings.length > 0) {
    lines.push('');
    for (const w of report.warnings) lines.push(c.yellow(`warning: ${visible(w, { lines: true })}`));
  }
  for (const section of sections) if (section.error) lines.push('', c.red(`error: ${visible(section.error.message, { lines: true })}`));
  lines.push('', `${statusWord(report.status, c)}  ${summaryLine(report.summary)}${timing(report)}`);
  if (report.running_at_timeout && report.running_at_timeout.length > 0) lines.push(c.yellow(`running when it timed out: ${report.running_at_timeout.map(runningTest).join(', ')}`));
  for (const section of sections) if (section.artifact && section.source === 'run') lines.push(c.dim(`log: ${visible(section.artifact)}`));
  for (const section of sections) for (const retry of section.retries?.runs ?? []) lines.push(c.dim(`log of attempt ${retry.attempt} (${retry.tests} ${retry.tests === 1 ? 'test' : 'tests'}, ${retry.status}): ${visible(retry.log)}`));
  if (report.next) lines.push(`next: ${c.cyan(visible(report.next))}`);
  return `${lines.join('\n')}\n`;
}

function header(report: RunReport, c: ChalkInstance): string[] {
  // An imported report is evidence another tool wrote: never shown as a command that ran.
  const source = report.source === 'imported' ? [c.dim(`imported from ${visible(report.artifact ?? '(unknown file)')}`)]
    : report.source === 'merged' ? [c.dim(mergedFrom(report))] : [];
  const root = visible(report.project_root);
  if (!report.framework) return [c.bold(`run-tests · ${root}`), ...source];
  return [
    `${c.bold(`run-tests · ${report.framework}`)} ${c.dim(`· ${root}`)}`,
    // No command (an empty shard, a listing that failed): no `$` line.
    ...(report.source === 'run' ? (report.command ? [c.dim(`$ ${visible(report.command)}`)] : []) : source),
    ...(report.shard ? [shardLine(report.shard)] : []),
    ...(report.plan ? [planLine(report.plan)] : []),
  ];
}

/** `changed 2 files: runs 3 units (test/a.test.js: imports src/a.js; …)`, or the whole suite and why. */
function planLine(plan: ChangePlan): string {
  const changed = `changed ${plan.changed.length} ${plan.changed.length === 1 ? 'file' : 'files'}`;
  if (plan.whole_suite !== null) return `${changed}: the whole suite runs, ${visible(plan.whole_suite.reason)}`;
  if (plan.units.length === 0) return `${changed}: nothing to run here`;
  const shown = plan.units.slice(0, 3).map((u) => `${visible(u.unit)}: ${visible(u.reasons.join(', '))}`).join('; ');
  return `${changed}: runs ${plan.units.length} ${plan.units.length === 1 ? 'unit' : 'units'} (${shown}${plan.units.length > 3 ? '; …' : ''})`;
}

/** `shard 2/4: 10 of 40 units, balanced by recorded runs`. */
function shardLine(shard: ShardInfo): string {
  const of = shard.total_units === undefined ? '' : ` of ${shard.total_units}`;
  const by = shard.balanced_by === undefined ? '' : `, balanced by ${visible(shard.balanced_by)}`;
  return `shard ${shard.index}/${shard.count}: ${shard.units.length}${of} ${shard.units.length === 1 && of === '' ? 'unit' : 'units'}${by}`;
}

/** A merged report names its parts: no command ran here. */
function mergedFrom(report: RunReport): string {
  const parts = report.parts ?? [];
  const listed = parts.map((p) => `shard ${p.index} ${visible(p.path)} (${p.status})`).join(', ');
  return `merged from ${parts.length} shard ${parts.length === 1 ? 'report' : 'reports'}${listed === '' ? '' : `: ${listed}`}`;
}

function failure(t: FailedTestRecord, n: number, c: ChalkInstance): string[] {
  const where = t.file === null ? '(unknown location)' : t.line === null ? visible(t.file) : `${visible(t.file)}:${t.line}`;
  const kind = t.status === 'error' ? c.magenta('error') : c.red('failed');
  // Shown whole: bounded already, and a cut one ends with where its full text is.
  const message = messageLines(visible(t.message, { lines: true }), c).map((l) => `     ${l}`);
  const tries = t.attempts === undefined ? '' : c.dim(` (failed all ${t.attempts.length} attempts)`);
  return ['', `  ${n}) ${c.bold(where)} ${kind}${tries}`, `     ${visible(t.test_name)}`, ...message];
}

/** `Flaky (1):` and each flaky test with its attempts: failed before it passed. */
function flakySection(report: RunReport, c: ChalkInstance): string[] {
  const flaky = report.flaky_tests ?? [];
  const left = report.truncated?.flaky_tests ?? 0;
  if (flaky.length === 0) return [];
  const count = left > 0 ? `${flaky.length} of ${flaky.length + left}` : String(flaky.length);
  return ['', c.bold(`Flaky (${count}):`), ...flaky.flatMap((t) => {
    const where = t.file === null ? '(unknown location)' : t.line === null ? visible(t.file) : `${visible(t.file)}:${t.line}`;
    const first = t.attempts.find((a) => a.message !== null)?.message ?? '';
    const firstLine = visible(first.split('\n')[0] ?? '');
    return ['', `  ${c.bold(where)} ${c.yellow('flaky')} ${c.dim(`(${t.attempts.map((a) => a.status).join(', ')})`)}`, `     ${visible(t.test_name)}`, ...(firstLine === '' ? [] : [c.dim(`     first failure: ${firstLine}`)])];
  })];
}

const runningTest = ({ name, file }: RunningTest): string =>
  (name === null ? visible(file ?? '(unknown file)') : `${visible(name)}${file === null ? '' : ` (${visible(file)})`}`);

/** Where every failure is listed when the report lists only --max-failures of them: the
 * failures file; a merge's shard reports; an imported report's file; the failures files of
 * a run's projects that failed; else the log. */
export function allFailuresIn(report: RunReport): string {
  if (report.failures_file !== null) return report.failures_file;
  if (report.source === 'merged') return "the shards' reports (their tests)";
  if (report.source === 'imported' && report.artifact !== null) return report.artifact;
  const files = report.projects.flatMap((p) => (p.failed_tests.length === 0 || p.failures_file === null ? [] : [p.failures_file]));
  return files.length > 0 ? files.join(', ') : 'the log';
}

/** `N passed, N failed, N errors, N skipped`; unknown counts are shown as `?`, never 0. */
export function summaryLine(s: Summary): string {
  const n = (v: number | null) => (v === null ? '?' : String(v));
  const flaky = s.flaky === undefined ? '' : `, ${n(s.flaky)} flaky`;
  return `${n(s.passed)} passed, ${n(s.failures)} failed, ${n(s.errors)} errors, ${n(s.skips)} skipped${flaky}`;
}

function statusWord(status: RunStatus, c: ChalkInstance): string {
  const word = HEADLINE[status];
  if (status === 'passed' || status === 'nothing_to_rerun') return c.green.bold(word);
  if (status === 'failed') return c.red.bold(word);
  return c.yellow.bold(word);
}

function timing(report: RunReport): string {
  const seconds = (report.duration_ms / 1000).toFixed(2);
  return report.timed_out ? ` (timed out after ${seconds}s)` : report.duration_ms > 0 ? ` in ${seconds}s` : '';
}
