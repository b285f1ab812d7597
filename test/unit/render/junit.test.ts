import { describe, expect, it } from '@jest/globals';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SCHEMA_VERSION, type RunReport } from '../../../src/model/report.js';
import type { TestResult } from '../../../src/model/results.js';
import { loadParser } from '../../../src/runners/parsers.js';
import { parseText } from '../../../src/parsers/stream.js';
import { renderJunit, xmlSafe } from '../../../src/render/junit.js';
import { surefireErrors } from '../../support/surefire-schema.js';

const report = (over: Partial<RunReport> = {}): RunReport => ({
  schema_version: SCHEMA_VERSION,
  source: 'run',
  run_id: '20261201-164511.123-3f9a0c1d',
  status: 'failed',
  exit_code: 1,
  framework: 'node-test',
  reason: 'r',
  command: 'node --test',
  project_root: '/p',
  exit_status: 1,
  signal: null,
  timed_out: false,
  duration_ms: 10,
  started_at: '2026-12-01T16:45:11.123Z',
  finished_at: '2026-12-01T16:45:11.133Z',
  summary: { run: 6, passed: 2, failures: 1, errors: 2, skips: 1 },
  failed_tests: [],
  rerun: null,
  artifact: '/p/.run-tests/last-test.log',
  failures_file: null,
  next: null,
  warnings: [],
  error: null,
  projects: [],
  ...over,
});

/** Names and messages a runner really produces, and the characters that break naive writers. */
const TESTS: readonly TestResult[] = [
  { id: 'a', name: 'math > adds', file: 'test/math.test.js', line: 3, status: 'passed', durationMs: 1.5 },
  { id: 'b', name: 'math > compares "a" < \'b\' & more', file: 'test/math.test.js', line: 11, status: 'failed', durationMs: 2,
    message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n\t2 !== 3\n\u001b[31m]]>\u001b[39m' },
  { id: 'c', name: 'load error', file: null, line: null, status: 'error', message: 'TypeError: widget exploded\u0000 \u0007bell \ud800lone 😀' },
  { id: 'd', name: 'spec/b.rb line\nbreak', file: 'spec/b.rb', line: 7, status: 'error', message: '\n  Expected: 1\r\n  Actual: 2' },
  { id: 'e', name: 'skipped one', file: 'test/math.test.js', line: 20, status: 'skipped', message: 'needs a printer' },
  { id: 'f', name: 'todo', file: 'spec/b.rb', line: 9, status: 'skipped' },
];

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, trimValues: false,
  parseAttributeValue: false, parseTagValue: false, htmlEntities: true, ignoreDeclaration: true,
});

interface Element { readonly tag: string; readonly attrs: Readonly<Record<string, string>>; readonly children: readonly Element[]; readonly text: string }

/** fast-xml-parser's ordered output as plain elements (whitespace-only text dropped). */
function elements(nodes: readonly Node[]): Element[] {
  return nodes.flatMap((node) => {
    const tag = Object.keys(node).find((k) => k !== ':@');
    if (tag === undefined || tag === '#text') return [];
    const content = node[tag] as Node[];
    const text = content.filter((c) => '#text' in c).map((c) => String(c['#text'])).join('');
    return [{ tag, attrs: (node[':@'] ?? {}) as Record<string, string>, children: elements(content), text }];
  });
}

const parse = (xml: string): Element => {
  const [root, ...rest] = elements(parser.parse(xml) as Node[]);
  expect(rest).toEqual([]);
  if (!root) throw new Error('no root element');
  return root;
};

/** The rules of Jenkins' junit-10.xsd (xunit-plugin) that our output relies on: the
 * element names, each element's allowed and required attributes, its allowed children,
 * and the SUREFIRE_TIME pattern. run-tests adds `file` and `line` to <testcase> (read by
 * GitLab, pytest's xunit1 and the Jenkins JUnit plugin; not declared by junit-10.xsd). */
const SCHEMA: Readonly<Record<string, { required: readonly string[]; optional: readonly string[]; children: readonly string[]; text: boolean }>> = {
  testsuites: { required: [], optional: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'], text: false },
  testsuite: {
    required: ['name', 'tests', 'failures', 'errors'],
    optional: ['group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url', 'flakes'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    text: false,
  },
  testcase: {
    required: ['name'],
    optional: ['time', 'classname', 'group', 'file', 'line'],
    children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'],
    text: false,
  },
  failure: { required: [], optional: ['type', 'message'], children: [], text: true },
  error: { required: [], optional: ['type', 'message'], children: [], text: true },
  skipped: { required: [], optional: ['type', 'message'], children: [], text: true },
  // Surefire's rerun elements (surefire-test-report.xsd), which junit-10.xsd also declares.
  ...Object.fromEntries(['rerunFailure', 'rerunError', 'flakyFailure', 'flakyError'].map((tag) => [tag, { required: [], optional: ['type', 'message'], children: ['stackTrace', 'system-out', 'system-err'], text: false }])),
  stackTrace: { required: [], optional: [], children: [], text: true },
};
const SUREFIRE_TIME = /^(?:(?:[0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(?:\.[0-9]*)?$/;

function schemaViolations(element: Element, where = ''): string[] {
  const at = `${where}/${element.tag}`;
  const rule = SCHEMA[element.tag];
  if (!rule) return [`${at}: element not in the schema`];
  const problems = [
    ...rule.required.filter((a) => !(a in element.attrs)).map((a) => `${at}: missing @${a}`),
    ...Object.keys(element.attrs).filter((a) => !rule.required.includes(a) && !rule.optional.includes(a)).map((a) => `${at}: @${a} not allowed`),
    ...element.children.filter((c) => !rule.children.includes(c.tag)).map((c) => `${at}: <${c.tag}> not allowed here`),
    ...('time' in element.attrs && !SUREFIRE_TIME.test(element.attrs.time ?? '') ? [`${at}: @time ${element.attrs.time} does not match SUREFIRE_TIME`] : []),
    ...(!rule.text && element.text.trim() !== '' ? [`${at}: text not allowed`] : []),
  ];
  return [...problems, ...element.children.flatMap((c) => schemaViolations(c, at))];
}

const count = (cases: readonly Element[], tag: string) => String(cases.filter((c) => c.children.some((x) => x.tag === tag)).length);

describe('renderJunit', () => {
  const xml = renderJunit(report(), TESTS);
  const root = parse(xml);
  const suites = root.children;
  const cases = suites.flatMap((s) => s.children);

  it('is well-formed XML and follows junit-10.xsd', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(schemaViolations(root)).toEqual([]);
  });

  it('has one suite per file, in order of appearance, and one named after the framework for tests without a file', () => {
    expect(suites.map((s) => [s.attrs.name, s.attrs.file])).toEqual([['test/math.test.js', 'test/math.test.js'], ['node-test', undefined], ['spec/b.rb', 'spec/b.rb']]);
    expect(suites.map((s) => s.children.map((c) => c.attrs.classname))).toEqual([
      ['test/math.test.js', 'test/math.test.js', 'test/math.test.js'], ['node-test'], ['spec/b.rb', 'spec/b.rb'],
    ]);
  });

  it('keeps names, files and lines exactly, escaped and given back by a parser', () => {
    expect(cases.map((c) => [c.attrs.name, c.attrs.file, c.attrs.line])).toEqual([
      ['math > adds', 'test/math.test.js', '3'],
      ['math > compares "a" < \'b\' & more', 'test/math.test.js', '11'],
      ['skipped one', 'test/math.test.js', '20'],
      ['load error', undefined, undefined],
      ['spec/b.rb line\nbreak', 'spec/b.rb', '7'],
      ['todo', 'spec/b.rb', '9'],
    ]);
    expect(cases.map((c) => c.attrs.time)).toEqual(['0.002', '0.002', undefined, undefined, undefined, undefined]);
  });

  it('keeps failures, errors and skips apart, with message, type and the whole text', () => {
    expect(cases.map((c) => c.children.map((x) => x.tag))).toEqual([[], ['failure'], ['skipped'], ['error'], ['error'], ['skipped']]);
    const [, failed, skipped, loadError, errored, todo] = cases;
    expect(failed?.children[0]?.attrs).toEqual({ message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', type: 'AssertionError' });
    expect(failed?.children[0]?.text).toBe('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n\t2 !== 3\n]]>');
    expect(loadError?.children[0]?.attrs).toEqual({ message: 'TypeError: widget exploded bell lone 😀', type: 'TypeError' });
    expect(errored?.children[0]?.attrs).toEqual({ message: 'Expected: 1', type: 'error' });
    expect(errored?.children[0]?.text).toBe('\n  Expected: 1\r\n  Actual: 2');
    expect(skipped?.children[0]?.attrs).toEqual({ message: 'needs a printer' });
    expect(todo?.children[0]?.attrs).toEqual({});
  });

  it('counts on every suite and on the root match the testcases exactly', () => {
    for (const suite of suites) {
      expect([suite.attrs.tests, suite.attrs.failures, suite.attrs.errors, suite.attrs.skipped]).toEqual([
        String(suite.children.length), count(suite.children, 'failure'), count(suite.children, 'error'), count(suite.children, 'skipped'),
      ]);
    }
    expect(suites.map((s) => [s.attrs.tests, s.attrs.failures, s.attrs.errors, s.attrs.skipped, s.attrs.time])).toEqual([
      ['3', '1', '0', '1', '0.004'], ['1', '0', '1', '0', '0.000'], ['2', '0', '1', '1', '0.000'],
    ]);
    expect(root.attrs).toEqual({ name: 'run-tests node-test', tests: '6', failures: '1', errors: '2', time: '0.004' });
  });

  it('drops characters XML cannot hold and terminal colours, and nothing else', () => {
    expect(xmlSafe('a\u0000b\u0008c\u000bd\u001be\ud800f\ufffeg\t\n\r😀\u{10ffff}')).toBe('abcdefg\t\n\r😀\u{10ffff}');
    expect(xmlSafe('\u001b[1;31mred\u001b[0m')).toBe('red');
    expect(xmlSafe('see \u001b]8;;https://example.com/doc\u001b\\the docs\u001b]8;;\u001b\\ and \u001b]8;;file:///a.js\u0007a.js\u001b]8;;\u0007')).toBe('see the docs and a.js');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it('turns a run without a usable result into an errored testcase, so CI does not show it green', () => {
    const timedOut = parse(renderJunit(report({ status: 'timed_out', warnings: ['killed after 5s'] }), TESTS.slice(0, 1)));
    expect(timedOut.attrs).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    const harness = timedOut.children.at(-1);
    expect(harness?.attrs).toMatchObject({ name: 'run-tests', tests: '1', errors: '1' });
    expect(harness?.children[0]?.attrs).toEqual({ name: 'run-tests: timed_out', classname: 'run-tests' });
    expect(harness?.children[0]?.children[0]).toMatchObject({ tag: 'error', attrs: { message: 'killed after 5s', type: 'error' }, text: 'killed after 5s' });
    const missing = parse(renderJunit(report({ status: 'error', framework: null, error: { code: 'REPORT_MISSING', message: '/p/r.xml is missing' } }), []));
    expect(missing.attrs).toEqual({ name: 'run-tests', tests: '1', failures: '0', errors: '1', time: '0.000' });
    expect(schemaViolations(missing)).toEqual([]);
    // A failed report none of whose tests failed (its own totals say it failed) is not green either.
    const unseen = parse(renderJunit(report({ status: 'failed', warnings: ['the report contradicts itself: numFailedTests is 1, but 0 listed tests failed'] }), TESTS.slice(0, 1)));
    expect(unseen.attrs).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    expect(unseen.children.at(-1)?.children[0]?.children[0]).toMatchObject({ tag: 'error', text: 'the report contradicts itself: numFailedTests is 1, but 0 listed tests failed' });
    // Failed and no-tests runs say all there is in their testcases.
    expect(parse(renderJunit(report({ status: 'no_tests' }), [])).children).toEqual([]);
    expect(parse(renderJunit(report({ status: 'passed' }), TESTS.slice(0, 1))).children).toHaveLength(1);
  });

  it("groups tests by the runner's unit where it has one: same-named tests of two go packages stay apart, passed or failed", () => {
    const go: TestResult[] = [
      { id: 'm/a TestAdd', name: 'TestAdd', file: null, line: null, suite: 'm/a', status: 'passed' },
      { id: 'm/b TestAdd', name: 'TestAdd', file: 'b/add_test.go', line: 4, suite: 'm/b', status: 'failed', message: 'b/add_test.go:4: no' },
      { id: 'm/b TestSub', name: 'TestSub', file: null, line: null, suite: 'm/b', status: 'passed' },
      { id: 'm/a TestSub', name: 'TestSub', file: null, line: null, suite: 'm/a', status: 'passed' },
    ];
    const doc = parse(renderJunit(report({ framework: 'go' }), go));
    expect(doc.children.map((s) => [s.attrs.name, s.attrs.file, s.attrs.tests, s.attrs.failures])).toEqual([['m/a', undefined, '2', '0'], ['m/b', undefined, '2', '1']]);
    expect(doc.children.map((s) => s.children.map((c) => [c.attrs.classname, c.attrs.name, c.attrs.file]))).toEqual([
      [['m/a', 'TestAdd', undefined], ['m/a', 'TestSub', undefined]],
      [['m/b', 'TestAdd', 'b/add_test.go'], ['m/b', 'TestSub', undefined]],
    ]);
    expect(schemaViolations(doc)).toEqual([]);
  });
});

/** Through run-tests' own JUnit parser (the one `parse` and `--report junit:` use). */
const junitParser = await loadParser('junit');

describe('renderJunit through the junit parser', () => {
  it('gives back the same results', () => {
    const parsed = parseText(junitParser, renderJunit(report(), TESTS), { root: '/p' });
    const brief = (t: TestResult) => [t.status, t.file, t.line];
    // In the XML's order: grouped by file.
    const expected = ['a', 'b', 'e', 'c', 'd', 'f'].map((id) => TESTS.find((t) => t.id === id) as TestResult);
    expect(parsed.tests.map(brief)).toEqual(expected.map(brief));
    // run-tests reads its own JUnit names back exactly (a full-title producer).
    expect(parsed.tests.map((t) => t.name)).toEqual(expected.map((t) => t.name));
    // Readers trim the text and may normalize line ends.
    const message = (t: TestResult) => ('message' in t && t.message !== undefined ? xmlSafe(t.message).replace(/\r\n/g, '\n').trim() : null);
    const failing = (tests: readonly TestResult[]) => tests.filter((t) => t.status === 'failed' || t.status === 'error').map(message);
    expect(failing(parsed.tests).map((m) => m?.replace(/\r\n/g, '\n'))).toEqual(failing(expected));
    expect(parsed.complete).toBe(true);
  });
});

/** With --retries: a flaky test and one that failed every attempt, as the core gives them. */
const RETRIED: readonly TestResult[] = [
  { id: 'p', name: 'passes', file: 'test/a.test.js', line: 1, status: 'passed', durationMs: 1 },
  { id: 'f', name: 'flaky', file: 'test/a.test.js', line: 5, status: 'flaky', durationMs: 2, message: 'AssertionError: first run',
    attempts: [
      { status: 'failed', duration_ms: 3, message: 'AssertionError: first run\n    at test/a.test.js:6' },
      { status: 'error', duration_ms: 1, message: 'TypeError: second <run>' },
      { status: 'passed', duration_ms: 2, message: null },
    ] },
  { id: 'x', name: 'always fails', file: 'test/b.test.js', line: 2, status: 'failed', durationMs: 4, message: 'AssertionError: third',
    attempts: [
      { status: 'failed', duration_ms: 4, message: 'AssertionError: first' },
      { status: 'error', duration_ms: 4, message: 'RangeError: second' },
      { status: 'failed', duration_ms: 4, message: 'AssertionError: third' },
    ] },
];

describe('renderJunit of retried tests, as Maven Surefire writes reruns', () => {
  const xml = renderJunit(report({ summary: { run: 3, passed: 1, failures: 1, errors: 0, skips: 0, flaky: 1 } }), RETRIED);
  const root = parse(xml);
  const [, flaky, failed] = root.children.flatMap((s) => s.children);

  it('validates against surefire-test-report.xsd (derived only by the <testsuites> root and file/line)', async () => {
    expect(await surefireErrors(xml)).toEqual([]);
  });

  it('gives a flaky test a <flakyFailure>/<flakyError> per failed attempt, each with its message, type and <stackTrace>', () => {
    expect(flaky?.attrs).toMatchObject({ name: 'flaky', time: '0.002' });
    expect(flaky?.children.map((c) => [c.tag, c.attrs, c.children.map((s) => [s.tag, s.text])])).toEqual([
      ['flakyFailure', { message: 'AssertionError: first run', type: 'AssertionError' }, [['stackTrace', 'AssertionError: first run\n    at test/a.test.js:6']]],
      ['flakyError', { message: 'TypeError: second <run>', type: 'TypeError' }, [['stackTrace', 'TypeError: second <run>']]],
    ]);
  });

  it('gives a test that failed every attempt its <failure> (the first attempt) and a rerun element per later attempt, in the schema\'s order', () => {
    expect(failed?.children.map((c) => [c.tag, c.attrs.message, c.attrs.type, c.text.trim() || c.children.map((s) => s.text).join('')])).toEqual([
      ['failure', 'AssertionError: first', 'AssertionError', 'AssertionError: first'],
      ['rerunFailure', 'AssertionError: third', 'AssertionError', 'AssertionError: third'],
      ['rerunError', 'RangeError: second', 'RangeError', 'RangeError: second'],
    ]);
  });

  it('counts a flaky test as a pass, and says how many flaked (Surefire\'s flakes) on its suite', () => {
    expect(root.attrs).toEqual({ name: 'run-tests node-test', tests: '3', failures: '1', errors: '0', time: '0.007' });
    expect(root.children.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures, s.attrs.errors, s.attrs.skipped, s.attrs.flakes])).toEqual([
      ['test/a.test.js', '2', '0', '0', '0', '1'], ['test/b.test.js', '1', '1', '0', '0', undefined],
    ]);
  });

  it('shows a flaky test without its attempts (a shard report without them) by its message', () => {
    const bare = parse(renderJunit(report(), [{ name: 'flaky', file: null, line: null, status: 'flaky', durationMs: 1, message: 'Error: once' }]));
    expect(bare.children[0]?.children[0]?.children.map((c) => [c.tag, c.attrs.message])).toEqual([['flakyFailure', 'Error: once']]);
  });

  it('leaves a run without retries as it was: valid against Surefire\'s schema too, with no flakes attribute', async () => {
    const plain = renderJunit(report(), TESTS.filter((t) => t.durationMs !== undefined));
    expect(plain).not.toContain('flakes=');
    expect(await surefireErrors(plain)).toEqual([]);
  });

  it('the Surefire check can fail: a flaky element without its <stackTrace>, or out of order, is refused', async () => {
    const noTrace = xml.replace(/<stackTrace>[^<]*<\/stackTrace>/, '');
    expect((await surefireErrors(noTrace)).join('\n')).toContain("Missing child element(s). Expected is ( stackTrace )");
    const reordered = xml.replace(/(<failure [^>]*>[^<]*<\/failure>)\n(\s*)(<rerunFailure[\s\S]*?<\/rerunFailure>)/, '$3\n$2$1');
    expect(reordered).not.toBe(xml);
    expect((await surefireErrors(reordered)).join('\n')).toContain("This element is not expected");
  });
});

describe('renderJunit of retried tests through the junit parser', () => {
  it('reads a flaky test back as the pass it ended as, and one that failed every attempt as failed', () => {
    const parsed = parseText(junitParser, renderJunit(report(), RETRIED), { root: '/p' });
    expect(parsed.tests.map((t) => [t.name, t.status])).toEqual([['passes', 'passed'], ['flaky', 'passed'], ['always fails', 'failed']]);
  });
});
