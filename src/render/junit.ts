import { stripVTControlCharacters } from 'node:util';
import type { RunReport } from '../model/report.js';
import type { Attempt, RunStatus, TestResult } from '../model/results.js';

/** JUnit XML of a run or an import, as CI systems read it (Jenkins' junit-10.xsd):
 * one <testsuite> per file, or per the runner's own unit where it has one (go's
 * package, cargo's target: TestResult.suite), which is also the classname, so that
 * `TestAdd` of two packages are two test cases, and a test is in the same suite whether
 * it passed or failed; tests without either in one suite named after the framework;
 * failures and errors kept apart; counts that match the testcases exactly. With
 * --retries, the attempts as Maven Surefire writes its reruns (surefire-test-report.xsd):
 * a flaky test passes with a <flakyFailure> per failed attempt, and counts as a pass.
 *
 * A small writer rather than fast-xml-parser's XMLBuilder: the builder keeps newlines
 * raw in attributes (a parser folds them into spaces) and passes characters XML 1.0
 * forbids, and test output is full of both. Checked with 5.12.1: `{ testcase: { name:
 * 'line\nbreak', message: 'nul\u0000' } }` is built as `name="line` + a raw newline +
 * `break" message="nul` + a raw NUL, which libxml2 and Java read as `line break` or refuse. */
export function renderJunit(report: RunReport, tests: readonly JunitTest[]): string {
  return [...junitChunks(report, tests)].join('');
}

/** The same XML a suite at a time, for writing it out without holding it all: a merge's
 * JUnit of 400,000 tests is 80 MB of text. */
export function* junitChunks(report: RunReport, tests: readonly JunitTest[]): Generator<string> {
  const suites = [...groupBySuite(report, tests), ...harnessSuite(report, tests)];
  const name = `run-tests ${report.framework ?? ''}`.trim();
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name, ...counts(suites.flatMap((s) => s.cases), false) })}>\n`;
  for (const suite of suites) yield renderSuite(suite);
  yield '</testsuites>\n';
}

/** What a testcase shows of a test (a TestResult, or a merge's test, which has no id);
 * `classname` is its suite's name. */
export interface JunitTest {
  readonly name: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly durationMs?: number | undefined;
  readonly status: TestResult['status'];
  readonly message?: string | undefined;
  readonly suite?: string | undefined;
  /** With --retries: every attempt of a test that failed at first (TestResult.attempts). */
  readonly attempts?: readonly Attempt[] | undefined;
}

type Case = JunitTest;

interface Suite {
  readonly name: string;
  readonly file: string | null;
  readonly cases: readonly Case[];
}

/** In order of first appearance, so the XML follows the run. The tests themselves are
 * the cases: no copy of each is made. */
function groupBySuite(report: RunReport, tests: readonly JunitTest[]): Suite[] {
  const fallback = report.framework ?? 'tests';
  const suites = new Map<string, { file: string | null; cases: Case[] }>();
  for (const test of tests) {
    const key = test.suite ?? test.file ?? fallback;
    let suite = suites.get(key);
    // A runner's unit spans files: its suite names none.
    if (!suite) suites.set(key, (suite = { file: test.suite === undefined ? test.file : null, cases: [] }));
    suite.cases.push(test);
  }
  return [...suites].map(([name, s]) => ({ name, ...s }));
}

const HARNESS_FAILURES: readonly RunStatus[] = ['error', 'timed_out', 'interrupted'];

/** A run that did not end in a usable report (no report, a timeout, Ctrl-C) must not
 * look green to CI because the tests that did finish passed: it becomes one errored
 * testcase named after run-tests, carrying the error and the warnings. So does a failed
 * run none of whose tests failed (a report whose own totals say it failed). */
function harnessSuite(report: RunReport, tests: readonly JunitTest[]): Suite[] {
  const failedUnseen = report.status === 'failed' && !tests.some((t) => t.status === 'failed' || t.status === 'error');
  if (!HARNESS_FAILURES.includes(report.status) && !failedUnseen) return [];
  const message = [report.error?.message, ...report.warnings].filter((m): m is string => m !== undefined && m !== '').join('\n')
    || `the run ended with status ${report.status}`;
  return [{
    name: 'run-tests',
    file: null,
    cases: [{ name: `run-tests: ${report.status}`, file: null, line: null, status: 'error', message }],
  }];
}

function counts(cases: readonly Case[], withSkipped: boolean): Record<string, string> {
  // A flaky test passed in the end: Surefire counts it among the passes.
  const n = { passed: 0, failed: 0, error: 0, skipped: 0, flaky: 0 };
  let ms = 0;
  for (const c of cases) {
    n[c.status] += 1;
    ms += c.durationMs ?? 0;
  }
  return {
    tests: String(cases.length),
    failures: String(n.failed),
    errors: String(n.error),
    // junit-10.xsd declares `skipped` on <testsuite> only.
    ...(withSkipped ? { skipped: String(n.skipped) } : {}),
    // Surefire's own count of flaky tests (surefire-test-report.xsd 3.0.2); only where
    // there is one, so a run without retries stays valid against junit-10.xsd too.
    ...(withSkipped && n.flaky > 0 ? { flakes: String(n.flaky) } : {}),
    time: seconds(ms),
  };
}

function renderSuite(suite: Suite): string {
  const classname = attribute(suite.name);
  let xml = `  <testsuite${attributes({ name: suite.name, ...counts(suite.cases, true), ...(suite.file === null ? {} : { file: suite.file }) })}>\n`;
  for (const c of suite.cases) xml += `${renderCase(c, classname)}\n`;
  return `${xml}  </testsuite>\n`;
}

/** Built as one string, attribute by attribute: a merge writes 400,000 of them. */
function renderCase(c: Case, classname: string): string {
  const attrs = ` name="${attribute(c.name)}" classname="${classname}"`
    + (c.durationMs === undefined ? '' : ` time="${seconds(c.durationMs)}"`)
    // Not in junit-10.xsd; GitLab, pytest's xunit1 and the Jenkins JUnit plugin read them.
    + (c.file === null ? '' : ` file="${attribute(c.file)}"`)
    + (c.line === null ? '' : ` line="${c.line}"`);
  if (c.status === 'passed') return `    <testcase${attrs}/>`;
  const message = c.message ?? '';
  if (c.status === 'skipped') return `    <testcase${attrs}>\n      <skipped${attributes(message === '' ? {} : { message })}/>\n    </testcase>`;
  return `    <testcase${attrs}>\n${problems(c).join('\n')}\n    </testcase>`;
}

/** A testcase's children as Maven Surefire writes them for reruns: a flaky test (a pass
 * in the end) has a <flakyFailure>/<flakyError> per failed attempt; a test that failed
 * every attempt has its <failure>/<error> (the first attempt's message; the element
 * follows the test's status, so the counts match) and a <rerunFailure>/<rerunError> per
 * later attempt. Ordered as surefire-test-report.xsd's sequence requires. */
function problems(c: Case): string[] {
  const attempts = c.attempts ?? [];
  if (c.status === 'flaky') {
    const failed = attempts.filter((a) => a.status === 'failed' || a.status === 'error');
    // A flaky test without its attempts (a shard report written without them) still shows why.
    const shown = failed.length > 0 ? failed : [{ status: 'failed' as const, duration_ms: null, message: c.message ?? '' }];
    return bySchemaOrder(shown.map((a) => rerunElement(a.status === 'error' ? 'flakyError' : 'flakyFailure', a.message ?? '')));
  }
  const element = c.status === 'failed' ? 'failure' : 'error';
  const first = attempts[0]?.message ?? c.message ?? '';
  const head = attributes({ message: firstLine(first), type: errorType(first, element) });
  const reruns = attempts.slice(1).filter((a) => a.status === 'failed' || a.status === 'error')
    .map((a) => rerunElement(a.status === 'error' ? 'rerunError' : 'rerunFailure', a.message ?? ''));
  return bySchemaOrder([{ tag: element, xml: `      <${element}${head}>${text(first)}</${element}>` }, ...reruns]);
}

/** The order surefire-test-report.xsd's <testcase> sequence gives its children. */
const SUREFIRE_ORDER = ['failure', 'rerunFailure', 'flakyFailure', 'error', 'rerunError', 'flakyError'];

function bySchemaOrder(elements: readonly { tag: string; xml: string }[]): string[] {
  return [...elements].sort((a, b) => SUREFIRE_ORDER.indexOf(a.tag) - SUREFIRE_ORDER.indexOf(b.tag)).map((e) => e.xml);
}

/** A rerun's element: its whole text in <stackTrace>, which Surefire's schema requires
 * (Surefire writes the stack trace there; a runner's failure text is ours). */
function rerunElement(tag: string, message: string): { tag: string; xml: string } {
  const head = attributes({ message: firstLine(message), type: errorType(message, tag.endsWith('Error') ? 'error' : 'failure') });
  return { tag, xml: `      <${tag}${head}>\n        <stackTrace>${text(message)}</stackTrace>\n      </${tag}>` };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function firstLine(message: string): string {
  return message.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
}

/** The exception class when the message starts with one (`TypeError: …`,
 * `Minitest::Assertion: …`), else the element's own name. */
function errorType(message: string, fallback: string): string {
  return /^([A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*(?:Error|Exception|Assertion|Failure))(?: \[\w+\])?:/.exec(message.trimStart())?.[1] ?? fallback;
}

/** Characters XML 1.0 does not allow at all, even as references (lone surrogates too). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text that XML can hold: escape sequences (colours, OSC-8 links: node's own stripper)
 * and forbidden characters dropped. */
export const xmlSafe = (value: string): string => stripVTControlCharacters(value).replace(NOT_XML, '');

/** What any of the steps below would change (an escape sequence starts with ESC or CSI;
 * a surrogate may be a lone one): text without any is written as it is, which is most
 * names and paths, and most of the time of a large merge's JUnit. */
const TOUCHED = /[\u0000-\u001f\u009b&<>"'\ud800-\udfff\ufffe\uffff]/;

function text(value: string): string {
  if (!TOUCHED.test(value)) return value;
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Attribute values, escaped so that a parser gives back exactly this text: tabs and
 * newlines as character references, which attribute normalization leaves alone. */
function attributes(values: Readonly<Record<string, string>>): string {
  return Object.entries(values).map(([key, value]) => ` ${key}="${attribute(value)}"`).join('');
}

function attribute(value: string): string {
  if (!TOUCHED.test(value)) return value;
  return text(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
