import { describe, expect, it } from '@jest/globals';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, REPO, runCli, runFile, runJson } from './helpers.js';

const OUTPUTS = path.join(REPO, 'test/fixtures/outputs');
const PROJECTS = path.join(REPO, 'test/fixtures/projects');

const tmp = async () => fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-import-')));

interface Counts { tests: number; failures: number; errors: number; skipped: number }

/** A JUnit file's totals, counted from its testcases, and checked against the suites' own counts. */
function junitCounts(xml: string): Counts & { names: string[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name), htmlEntities: true })
    .parse(xml) as { testsuites: { testsuite: { tests: string; failures: string; errors: string; skipped: string; testcase: Record<string, unknown>[] }[] } & Record<string, string> };
  const cases = doc.testsuites.testsuite.flatMap((s) => {
    const has = (key: string) => s.testcase.filter((c) => key in c).length;
    expect([s.tests, s.failures, s.errors, s.skipped].map(Number)).toEqual([s.testcase.length, has('failure'), has('error'), has('skipped')]);
    return s.testcase;
  });
  const counts = {
    tests: cases.length,
    failures: cases.filter((c) => 'failure' in c).length,
    errors: cases.filter((c) => 'error' in c).length,
    skipped: cases.filter((c) => 'skipped' in c).length,
  };
  expect([doc.testsuites.tests, doc.testsuites.failures, doc.testsuites.errors].map(Number)).toEqual([counts.tests, counts.failures, counts.errors]);
  return { ...counts, names: cases.map((c) => String(c.name)) };
}

const summaryCounts = (report: RunReport): Counts => ({
  tests: report.summary.run ?? -1, failures: report.summary.failures ?? -1, errors: report.summary.errors ?? -1, skipped: report.summary.skips ?? -1,
});

describe('run-tests parse', () => {
  it('imports go test -json, detected from the content, with exact counts and places', async () => {
    const file = path.join(OUTPUTS, 'go/mixed.jsonl');
    const { exitCode, report } = await runJson(['parse', file, '--cwd', path.join(PROJECTS, 'go-mixed')]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      source: 'imported', status: 'failed', exit_code: 1, framework: 'go-json', command: null, exit_status: null,
      artifact: file, failures_file: null, next: null, error: null, warnings: [],
    });
    expect(report.summary).toEqual({ run: 13, passed: 7, failures: 5, errors: 0, skips: 1 });
    expect(failures(report)).toEqual([
      ['TestSubtractsWrongly', 'mixed_test.go', 11, 'failed'],
      ['TestFatalInHelper', 'mixed_test.go', 16, 'failed'],
      ['TestTable/wrong_[neg]', 'mixed_test.go', 39, 'failed'],
      ['TestNested/outer/inner_(bad)', 'mixed_test.go', 49, 'failed'],
      ['TestHalf', 'sub/calc_test.go', 13, 'failed'],
    ]);
  });

  it('imports rspec JSON, and says on the terminal that it was imported, not run', async () => {
    const file = path.join(OUTPUTS, 'rspec/mixed.json');
    const { exitCode, report } = await runJson(['parse', file, '--format', 'rspec-json']);
    expect([exitCode, report.source, report.status, report.reason]).toEqual([1, 'imported', 'failed', '--format rspec-json given']);
    expect(report.summary).toEqual({ run: 13, passed: 4, failures: 4, errors: 2, skips: 3 });
    const human = await runCli(['parse', file]);
    expect(human.exitCode).toBe(1);
    expect(human.stdout.split('\n').slice(0, 2)).toEqual([`run-tests · rspec-json · ${process.cwd()}`, `imported from ${file}`]);
    expect(human.stdout).not.toMatch(/^\$ |^log: /m);
  });

  it('imports a JUnit file node --test wrote', async () => {
    const { exitCode, report } = await runJson(['parse', path.join(OUTPUTS, 'junit/node-test-mixed.xml')]);
    expect([exitCode, report.source, report.framework, report.reason]).toEqual([1, 'imported', 'junit', 'format detected from the content: XML with a <testsuites> element']);
    // The junit parser's own recorded expectation for this file.
    const expected = (await fs.readJson(path.join(OUTPUTS, 'junit/node-test-mixed.expected.json'))) as { tests: { status: string }[] };
    const n = (status: string) => expected.tests.filter((t) => t.status === status).length;
    expect(report.summary).toEqual({ run: expected.tests.length, passed: n('passed'), failures: n('failed'), errors: n('error'), skips: n('skipped') });
    expect(report.summary.run).toBeGreaterThan(0);
  });

  it('imports every recorded report of every format with the counts its parser expects', async () => {
    const formats = { go: 'go-json', rspec: 'rspec-json', junit: 'junit', tap: 'tap', cargo: 'cargo', 'jest-json': 'jest-json' } as const;
    const cases = [];
    for (const [dir, format] of Object.entries(formats)) {
      if (!(await fs.pathExists(path.join(OUTPUTS, dir)))) throw new Error(`no recordings in ${dir}`);
      for (const file of await fs.readdir(path.join(OUTPUTS, dir))) {
        const expectedFile = path.join(OUTPUTS, dir, file.replace(/\.[^.]+$/, '.expected.json'));
        if (file.endsWith('.json') && (file.endsWith('.expected.json') || file.endsWith('.context.json'))) continue;
        if (file.includes('.stream.') || !(await fs.pathExists(expectedFile))) continue;
        cases.push({ file: path.join(OUTPUTS, dir, file), format, expected: (await fs.readJson(expectedFile)) as { tests: { status: string }[]; complete: boolean; contradictions?: unknown[] } });
      }
    }
    expect(cases.length).toBeGreaterThan(10);
    await Promise.all(cases.map(async ({ file, format, expected }) => {
      const { exitCode, report } = await runJson(['parse', file]);
      const n = (status: string) => expected.tests.filter((t) => t.status === status).length;
      // A cut-off report without a single result has unknown counts (REPORT_UNPARSEABLE), as in a run.
      const unknown = expected.tests.length === 0 && !expected.complete;
      expect({ file, framework: report.framework, source: report.source, summary: report.summary }).toEqual({
        file, framework: format, source: 'imported',
        summary: unknown
          ? { run: null, passed: null, failures: null, errors: null, skips: null }
          : { run: expected.tests.length, passed: n('passed'), failures: n('failed'), errors: n('error'), skips: n('skipped') },
      });
      if (unknown) expect(report.error?.code).toBe('REPORT_UNPARSEABLE');
      if (!expected.complete || expected.contradictions !== undefined) expect(report.status).not.toBe('passed');
      expect(exitCode).toBe(report.exit_code);
      expect([0, 1, 3, 4]).toContain(exitCode);
    }));
  });

  it('refuses content it cannot place with exit 2 and one line; an empty file is an error report (exit 3)', async () => {
    const unknown = await runCli(['parse', path.join(OUTPUTS, 'minitest/mixed.jsonl')]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^run-tests: could not tell the format of .*; looked for JUnit XML .*; give --format\n$/);
    const dir = await tmp();
    await fs.writeFile(path.join(dir, 'empty.xml'), '');
    const empty = await runJson(['parse', 'empty.xml', '--cwd', dir]);
    expect([empty.exitCode, empty.report.status, empty.report.source, empty.report.error]).toEqual([3, 'error', 'imported', { code: 'REPORT_MISSING', message: `${dir}/empty.xml is empty` }]);
    expect((await runCli(['parse', 'nope.xml', '--cwd', dir])).exitCode).toBe(2);
    // Commander's own usage errors in the subcommand exit 2 as well.
    expect((await runCli(['parse', 'empty.xml', '--format', 'xunit', '--cwd', dir])).exitCode).toBe(2);
    expect((await runCli(['parse'])).exitCode).toBe(2);
  });

  it('exports an import as JUnit whose counts match the report', async () => {
    const dir = await tmp();
    const { report } = await runJson(['parse', path.join(OUTPUTS, 'go/mixed.jsonl'), '--cwd', dir, '--junit', 'out.xml']);
    const xml = junitCounts(await fs.readFile(path.join(dir, 'out.xml'), 'utf8'));
    expect({ tests: xml.tests, failures: xml.failures, errors: xml.errors, skipped: xml.skipped }).toEqual(summaryCounts(report));
    expect(xml.names).toContain('TestTable/brackets_[x]');
  });
});

const node = hasTools('node') ? describe : describe.skip;

node('--command and --report', () => {
  it('runs a command that writes JUnit and reads its report by the truth rules', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', 'node --test --test-reporter=junit --test-reporter-destination=out.xml', '--report', 'junit:out.xml']);
    expect([exitCode, report.source, report.status, report.framework, report.reason, report.exit_status]).toEqual([1, 'run', 'failed', 'custom', '--command given', 1]);
    expect(report.command).toBe('node --test --test-reporter=junit --test-reporter-destination=out.xml');
    expect(report.summary).toEqual({ run: 11, passed: 6, failures: 3, errors: 0, skips: 2 });
    expect(report.failed_tests.map((t) => t.test_name)).toEqual(['math > adds wrongly', 'math > explodes', 'with subtests > second fails']);
    expect(report.artifact).toBe(runFile(dir, 'test.log', report.run_id));
    // Not rerunnable by run-tests, so the project's own failures file is left alone.
    expect([report.failures_file, report.next]).toEqual([null, null]);
    expect(await fs.pathExists(path.join(dir, '.run-tests/last-failures.json'))).toBe(false);
  });

  it('never reads a stale report: the file is removed before the run', async () => {
    const dir = await copyFixture('node-test-mixed');
    await fs.copy(path.join(OUTPUTS, 'junit/node-test-mixed.xml'), path.join(dir, 'out.xml'));
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', 'node -e 0', '--report', 'junit:out.xml']);
    expect([exitCode, report.status, report.error]).toEqual([3, 'error', { code: 'REPORT_MISSING', message: `${dir}/out.xml is missing` }]);
    expect(await fs.pathExists(path.join(dir, 'out.xml'))).toBe(false);
  });

  it('reads TAP printed on stdout', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', 'node --test --test-reporter=tap', '--report', 'tap:-']);
    expect([exitCode, report.status, report.framework, report.warnings]).toEqual([1, 'failed', 'custom', []]);
    expect(report.summary).toEqual({ run: 11, passed: 6, failures: 2, errors: 1, skips: 2 });
    expect(failures(report)).toEqual([
      ['math > adds wrongly', 'test/math.test.js', 11, 'failed'],
      ['math > explodes', 'test/math.test.js', 15, 'error'],
      ['with subtests > second fails', 'test/math.test.js', 36, 'failed'],
    ]);
    expect(await fs.readFile(runFile(dir, 'custom-report.tap'), 'utf8')).toMatch(/^TAP version 13$/m);
  });

  it('rejects shell syntax, --name and a missing --report with exit 2, before anything runs', async () => {
    const dir = await copyFixture('node-test-mixed');
    for (const [args, message] of [
      [['--command', 'node --test > out.tap', '--report', 'tap:out.tap'], 'uses shell syntax (">")'],
      [['--command', 'node --test; echo', '--report', 'tap:-'], 'uses shell syntax (";")'],
      [['--command', 'node --test $X', '--report', 'tap:-'], 'uses shell syntax ("$")'],
      [['--command', 'node --test', '--report', 'tap:-', '--name', 'adds'], '--name "adds" cannot select tests of a --command'],
      [['--command', 'node --test', '--report', 'tap:-', '--failed-only'], '--failed-only cannot select tests of a --command'],
      [['--command', 'node --test'], 'needs --report'],
      [['--command', 'node --test', '--report', 'xml:out.xml'], 'the format must be junit or tap'],
    ] as const) {
      const result = await runCli(['--cwd', dir, ...args]);
      expect([result.exitCode, result.stdout]).toEqual([2, '']);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(await fs.pathExists(path.join(dir, '.run-tests/last-test.log'))).toBe(false);
  });

  it('says what to check when the command does not exist (exit 3)', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', 'no-such-runner-xyz --all', '--report', 'junit:out.xml']);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toMatch(/no-such-runner-xyz .*check the --command$/);
  });
});

node('--junit on a real run', () => {
  it('writes the node:test run as JUnit that parses back to the same counts, files and lines', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--junit', 'results.xml']);
    expect(exitCode).toBe(1);
    const text = await fs.readFile(path.join(dir, 'results.xml'), 'utf8');
    const xml = junitCounts(text);
    expect({ tests: xml.tests, failures: xml.failures, errors: xml.errors, skipped: xml.skipped }).toEqual(summaryCounts(report));
    expect(xml).toMatchObject({ tests: 11, failures: 2, errors: 1, skipped: 2 });
    expect(text).toContain('<testcase name="math &gt; adds wrongly" classname="test/math.test.js"');
    expect(text).toMatch(/name="math &gt; adds wrongly"[^>]* file="test\/math\.test\.js" line="11">\n\s+<failure message="Expected values to be strictly equal:" type="failure">/);
    expect(text).toMatch(/name="math &gt; explodes"[^>]* line="15">\n\s+<error message="TypeError: widget exploded: too hot" type="TypeError">/);
    const back = await runJson(['parse', 'results.xml', '--cwd', dir]);
    expect([back.exitCode, back.report.source, back.report.framework]).toEqual([1, 'imported', 'junit']);
    expect(back.report.summary).toEqual(report.summary);
    expect(back.report.failed_tests.map((t) => [t.file, t.line, t.status])).toEqual(report.failed_tests.map((t) => [t.file, t.line, t.status]));
  });

  it('writes an errored testcase for a run without a usable report', async () => {
    const dir = await copyFixture('node-test-mixed');
    const { report } = await runJson(['--cwd', dir, '--command', 'node -e 0', '--report', 'junit:none.xml', '--junit', 'results.xml']);
    expect(report.status).toBe('error');
    const xml = junitCounts(await fs.readFile(path.join(dir, 'results.xml'), 'utf8'));
    expect(xml).toEqual({ tests: 1, failures: 0, errors: 1, skipped: 0, names: ['run-tests: error'] });
  });
});
