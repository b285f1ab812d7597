import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { RunReport } from '../model/report.js';
import type { Attempt, FailedTestRecord, FlakyTestRecord } from '../model/results.js';
import { allFailuresIn, summaryLine } from './human.js';

/** What the GitHub Actions job says about where it runs (its environment variables). */
export interface GithubContext {
  /** GITHUB_WORKSPACE: annotation paths are relative to it, as GitHub wants them. */
  readonly workspace: string | null;
  /** GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA: for links to the failing lines. */
  readonly serverUrl: string | null;
  readonly repository: string | null;
  readonly sha: string | null;
}

export function githubContext(env: NodeJS.ProcessEnv): GithubContext {
  const value = (name: string): string | null => env[name] || null;
  return { workspace: value('GITHUB_WORKSPACE'), serverUrl: value('GITHUB_SERVER_URL'), repository: value('GITHUB_REPOSITORY'), sha: value('GITHUB_SHA') };
}

/** As @actions/core's command.ts escapes a command's message. */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** As command.ts escapes a property's value: also `:` and `,`, which end a property. */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::name key=value,…::message`, properties without a value left out (as command.ts does);
 * terminal escapes are dropped, GitHub would show them raw. */
export function workflowCommand(name: string, properties: Readonly<Record<string, string | null>>, message: string): string {
  const props = Object.entries(properties).filter((p): p is [string, string] => p[1] !== null && p[1] !== '')
    .map(([key, value]) => `${key}=${escapeProperty(stripVTControlCharacters(value))}`).join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeData(stripVTControlCharacters(message))}`;
}

/** The place a runner's own `::error file=…,line=…::` line annotates (vitest prints
 * them under GitHub Actions), as a key of annotationKey(); null for any other line. */
export function runnerAnnotation(line: string, ctx: GithubContext): string | null {
  const props = /^::error ([^:]*)::/.exec(line)?.[1];
  if (props === undefined) return null;
  const values = new Map(props.split(',').map((p) => [p.slice(0, p.indexOf('=')), unescapeProperty(p.slice(p.indexOf('=') + 1))]));
  const [file, at] = [values.get('file'), Number(values.get('line'))];
  // GitHub reads a relative path from the workspace.
  return file === undefined || !Number.isInteger(at) ? null : annotationKey(path.resolve(ctx.workspace ?? '', file), at);
}

export const annotationKey = (absoluteFile: string, line: number): string => `${absoluteFile}:${line}`;

/** Where the report's flaky tests are, as keys of annotationKey(): a runner's own
 * `::error` there is of a test that passed in the end. */
export function flakyPlaces(report: RunReport): ReadonlySet<string> {
  return new Set((report.flaky_tests ?? []).flatMap((t) => (t.file === null || t.line === null ? [] : [annotationKey(path.resolve(report.project_root, t.file), t.line)])));
}

const unescapeProperty = (s: string): string =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

/** The lines GitHub turns into annotations: one `::error` per failure the report lists
 * (bounded by --max-failures: those it left out, `truncated`, are counted), one
 * `::warning` per flaky test (--retries: it failed, then passed; never an error, which
 * would fail the eye where the run did not) and per warning, and an `::error` for a run
 * that failed without a failed test (a harness error, a timeout, no tests) so that the
 * job never fails unexplained. A failure the runner annotated itself at the same line
 * (`annotated`) is not annotated twice. */
export function renderAnnotations(report: RunReport, ctx: GithubContext, annotated: ReadonlySet<string> = new Set()): string {
  const failed = report.failed_tests;
  const more = report.truncated?.failed_tests ?? 0;
  const own = (t: FailedTestRecord): boolean => t.file === null || t.line === null || !annotated.has(annotationKey(path.resolve(report.project_root, t.file), t.line));
  const lines = failed.filter(own).map((t) => workflowCommand('error', {
    file: t.file === null ? null : annotationPath(report, t.file, ctx),
    line: t.line === null ? null : String(t.line),
    title: t.attempts === undefined ? t.test_name : `${t.test_name} (failed all ${t.attempts.length} attempts)`,
  }, t.message));
  if (more > 0) {
    lines.push(workflowCommand('warning', { title: 'run-tests' }, `${more} more failed tests are not annotated (--max-failures ${failed.length}); all are in ${allFailuresIn(report)}`));
  }
  lines.push(...flakyAnnotations(report, ctx));
  for (const warning of report.warnings) lines.push(workflowCommand('warning', { title: 'run-tests' }, warning));
  if (failed.length === 0 && report.exit_code !== 0) {
    const errors = harnessErrors(report).map(({ project, error }) => `${project === null ? '' : `${project}: `}${error.code}: ${error.message}`);
    for (const why of errors.length > 0 ? errors : [flakyFails(report) ?? `the run ended with status ${report.status} (exit code ${report.exit_code})`]) {
      lines.push(workflowCommand('error', { title: `run-tests: ${report.status}` }, why));
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** One `::warning` per flaky test the report lists, at its file and line, titled as
 * flaky with its attempts, the message its failed attempts gave; those --max-failures
 * left out are counted. */
function flakyAnnotations(report: RunReport, ctx: GithubContext): string[] {
  const flaky = report.flaky_tests ?? [];
  const more = report.truncated?.flaky_tests ?? 0;
  const lines = flaky.map((t) => workflowCommand('warning', {
    file: t.file === null ? null : annotationPath(report, t.file, ctx),
    line: t.line === null ? null : String(t.line),
    title: `flaky: ${t.test_name} (${attemptsText(t.attempts)})`,
  }, failedMessages(t)));
  if (more > 0) lines.push(workflowCommand('warning', { title: 'run-tests' }, `${more} more flaky tests are not annotated (--max-failures ${flaky.length}); all are in the report's flaky_tests`));
  return lines;
}

/** Why a run with no failure failed when its flaky tests fail it (--flaky-fails); null otherwise. */
function flakyFails(report: RunReport): string | null {
  const flaky = report.flaky_tests ?? [];
  if (report.retries?.flaky_fails !== true || flaky.length === 0) return null;
  const n = flaky.length + (report.truncated?.flaky_tests ?? 0);
  return `${n} flaky ${n === 1 ? 'test fails' : 'tests fail'} the run (--flaky-fails): ${flaky.map((t) => t.test_name).join(', ')}`;
}

/** `failed, passed`: each attempt's status, in order. */
const attemptsText = (attempts: readonly Attempt[]): string => attempts.map((a) => a.status).join(', ');

/** What a flaky test's failed attempts said: `attempt 1 of 2 failed: …`, each. */
function failedMessages(t: FlakyTestRecord): string {
  const n = t.attempts.length;
  return t.attempts.flatMap((a, i) => (a.status === 'failed' || a.status === 'error'
    ? [`attempt ${i + 1} of ${n} ${a.status === 'error' ? 'errored' : 'failed'}: ${a.message ?? '(no message)'}`] : [])).join('\n')
    || `passed on attempt ${n} of ${n}`;
}

/** Relative to the workspace when the file is in it (GitHub places annotations by that
 * path); else absolute, which GitHub keeps as it is. */
function annotationPath(report: RunReport, file: string, ctx: GithubContext): string {
  const absolute = path.resolve(report.project_root, file);
  const relative = ctx.workspace === null ? null : path.relative(ctx.workspace, absolute);
  return relative === null || relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative.split(path.sep).join('/');
}

/** The harness errors of a report (a runner missing, a merge that does not hold): its
 * own, or in a run of several projects each project's, with its path from the run's root. */
function harnessErrors(report: RunReport): { project: string | null; error: NonNullable<RunReport['error']> }[] {
  const sections = report.projects.length > 0 ? report.projects : [report];
  return sections.flatMap((s) => (s.error === null ? [] : [{
    project: s === report ? null : path.relative(report.project_root, s.project_root) || '.',
    error: s.error,
  }]));
}

/** Markdown for $GITHUB_STEP_SUMMARY: the status, the counts, the harness errors, a table
 * of the failures the report lists (--max-failures bounds it, as it bounds the report)
 * with links to their lines and a line counting those left out and saying where they
 * all are, and the command that reruns them. */
export function renderStepSummary(report: RunReport, ctx: GithubContext): string {
  const failed = report.failed_tests;
  const more = report.truncated?.failed_tests ?? 0;
  const lines = [
    // A blank line first: what the runner appended (vitest's summary) may not end in one.
    '',
    `## run-tests: ${report.status}${report.framework === null ? '' : ` (${cell(report.framework)})`}`,
    '',
    `${summaryLine(report.summary)}${report.duration_ms > 0 ? ` in ${(report.duration_ms / 1000).toFixed(2)}s` : ''} · exit code ${report.exit_code}`,
  ];
  // Evidence another tool wrote is never shown as a run.
  if (report.source === 'imported') lines.push('', `Imported from ${cell(report.artifact ?? '(unknown file)')}: not run by run-tests.`);
  if (report.source === 'merged') lines.push('', `Merged from ${(report.parts ?? []).map((p) => `shard ${p.index} (${cell(p.path)}, ${p.status})`).join(', ') || 'no shard report'}.`);
  for (const { project, error } of harnessErrors(report)) lines.push('', `**${cell(error.code)}**${project === null ? '' : ` in ${cell(project)}`}: ${cell(error.message)}`);
  if (failed.length > 0) {
    lines.push('', `### Failures (${more > 0 ? `${failed.length} of ${failed.length + more}` : failed.length})`, '');
    lines.push('| Test | Result | Where | Message |', '| --- | --- | --- | --- |');
    for (const t of failed) lines.push(`| ${cell(t.test_name)} | ${t.status} | ${where(report, t, ctx)} | ${cell(firstLine(t.message))} |`);
    if (more > 0) lines.push('', `… ${more} more ${more === 1 ? 'failure' : 'failures'} not listed (--max-failures); all are in ${cell(allFailuresIn(report))}`);
  }
  lines.push(...flakySection(report, ctx));
  if (report.next !== null) lines.push('', 'Rerun:', '', ...codeBlock(report.next));
  return `${lines.join('\n')}\n\n`;
}

/** The flaky tests (--retries) as a table: each with its attempts and where it is; they
 * passed in the end, so the run may be green with them, and they are said apart. */
function flakySection(report: RunReport, ctx: GithubContext): string[] {
  const flaky = report.flaky_tests ?? [];
  const more = report.truncated?.flaky_tests ?? 0;
  if (flaky.length === 0) return [];
  const lines = ['', `### Flaky (${more > 0 ? `${flaky.length} of ${flaky.length + more}` : flaky.length}): failed, then passed on a retry`, ''];
  lines.push('| Test | Attempts | Where | First failure |', '| --- | --- | --- | --- |');
  for (const t of flaky) {
    const first = t.attempts.find((a) => a.status === 'failed' || a.status === 'error')?.message ?? '';
    lines.push(`| ${cell(t.test_name)} | ${attemptsText(t.attempts)} | ${where(report, t, ctx)} | ${cell(firstLine(first))} |`);
  }
  if (more > 0) lines.push('', `… ${more} more flaky ${more === 1 ? 'test' : 'tests'} not listed (--max-failures); all are in the report's flaky_tests`);
  return lines;
}

function where(report: RunReport, t: Pick<FailedTestRecord, 'file' | 'line'>, ctx: GithubContext): string {
  if (t.file === null) return '';
  const text = cell(t.line === null ? t.file : `${t.file}:${t.line}`);
  const file = annotationPath(report, t.file, ctx);
  if (path.isAbsolute(file) || ctx.serverUrl === null || ctx.repository === null || ctx.sha === null) return text;
  const encoded = file.split('/').map((part) => encodeURIComponent(part).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');
  return `[${text}](${ctx.serverUrl}/${ctx.repository}/blob/${ctx.sha}/${encoded}${t.line === null ? '' : `#L${t.line}`})`;
}

/** How much of a message's first line a table cell shows, in characters. */
const MESSAGE_CHARS = 200;

/** The first line of a message that is not blank, trimmed, at most MESSAGE_CHARS long
 * (cut by code point, after its terminal escapes are dropped: no half of either is left). */
const firstLine = (message: string): string => {
  const line = stripVTControlCharacters(message).split(/\r?\n|\r/).find((l) => l.trim() !== '')?.trim() ?? '';
  const chars = [...line];
  return chars.length > MESSAGE_CHARS ? `${chars.slice(0, MESSAGE_CHARS - 1).join('')}…` : line;
};

/** Text from outside in a table cell: one line, with nothing Markdown or HTML would read. */
function cell(text: string): string {
  // Markdown's escapes before the entities, whose `&#` they must not escape.
  return stripVTControlCharacters(text).replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]~#!]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;');
}

/** A fenced block longer than any run of backticks in the text. */
function codeBlock(text: string): string[] {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${fence}sh`, text, fence];
}
