import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMPORT_FORMATS, importReport, importVerdict, SNIFF_BYTES, sniffFormat, type ImportFormat } from '../../../src/cli/parse-command.js';
import { HarnessError } from '../../../src/model/errors.js';
import type { ParsedReport, TestResult, TestStatus } from '../../../src/model/results.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const OUTPUTS = path.join(FIXTURES, 'outputs');
const project = (name: string) => path.join(FIXTURES, 'projects', name);

/** What each recorded output is, by directory and name: the formats `parse` reads, and
 * run-tests' own reporter streams, which are no format a user imports (null). */
function expectedFormat(dir: string, file: string): ImportFormat | null {
  if (dir === 'go' && file.endsWith('.jsonl')) return 'go-json';
  if (dir === 'rspec') return file.endsWith('.stream.jsonl') ? null : 'rspec-json';
  if ((IMPORT_FORMATS as readonly string[]).includes(dir)) return dir as ImportFormat;
  return null;
}

const recorded = fs.readdirSync(OUTPUTS).flatMap((dir) => fs.readdirSync(path.join(OUTPUTS, dir))
  .filter((file) => !/\.(?:expected|context)\.json$/.test(file) && file !== 'recordings.json')
  .map((file) => [dir, file, expectedFormat(dir, file)] as const));

const head = (file: string) => {
  const bytes = fs.readFileSync(file);
  return sniffFormat(bytes.subarray(0, SNIFF_BYTES).toString('utf8'), bytes.length > SNIFF_BYTES);
};

describe('sniffFormat on recorded outputs', () => {
  it('covers every importable format that has recordings, and the go and rspec ones at least', () => {
    const formats = new Set(recorded.map(([, , f]) => f));
    expect(formats).toContain('go-json');
    expect(formats).toContain('rspec-json');
    expect(recorded.filter(([, , f]) => f === null).length).toBeGreaterThan(10);
  });

  it.each(recorded)('%s/%s is %s', (dir, file, format) => {
    expect(head(path.join(OUTPUTS, dir, file))?.format ?? null).toBe(format);
  });
});

describe('sniffFormat rules', () => {
  it('reads JUnit XML after a BOM, a declaration and comments, by its elements', () => {
    expect(sniffFormat('\uFEFF<?xml version="1.0"?>\n<!-- x -->\n<testsuites>\n')).toEqual({ format: 'junit', evidence: 'XML with a <testsuites> element' });
    expect(sniffFormat('<testsuite name="a" tests="1">')?.format).toBe('junit');
    expect(sniffFormat('<testcase name="a"/>')?.format).toBe('junit');
    expect(sniffFormat('<?xml version="1.0"?><html><body/></html>')).toBeNull();
    expect(sniffFormat('<testsuitesX>')).toBeNull();
  });

  it('finds go -json lines after text lines, and only on whole lines', () => {
    const event = '{"Time":"2000-01-01T00:00:00Z","Action":"start","Package":"example.com/m"}';
    expect(sniffFormat(`# example.com/m\nm_test.go:3:1: undefined: x\n${event}\n`)?.format).toBe('go-json');
    // Cut off by the end of the head: not judged, and nothing else matches.
    expect(sniffFormat(`# example.com/m\n${event.slice(0, 40)}`, true)).toBeNull();
    expect(sniffFormat(event, false)?.format).toBe('go-json');
  });

  it('tells libtest JSON and cargo text apart from TAP', () => {
    expect(sniffFormat('{ "type": "suite", "event": "started", "test_count": 2 }\n')).toMatchObject({ format: 'cargo', evidence: expect.stringContaining('libtest JSON') });
    expect(sniffFormat('\nrunning 2 tests\ntest a ... ok\n')).toMatchObject({ format: 'cargo', evidence: 'cargo test output ("running 2 tests")' });
    expect(sniffFormat('   Compiling m v0.1.0 (/p)\n{"reason":"compiler-artifact","target":{}}\n')).toMatchObject({ format: 'cargo', evidence: 'cargo JSON messages ("reason": "compiler-artifact")' });
    expect(sniffFormat('test result: FAILED. 1 passed; 1 failed; 0 ignored\n')?.format).toBe('cargo');
  });

  it('reads TAP by its version line, its plan or numbered results, even after other lines', () => {
    expect(sniffFormat('TAP version 13\n')?.format).toBe('tap');
    expect(sniffFormat('warming up\n1..3\n')?.format).toBe('tap');
    expect(sniffFormat('# Subtest: a\n    not ok 1 - a\n')?.format).toBe('tap');
    // go's plain text summary is not TAP.
    expect(sniffFormat('ok  \texample.com/m\t0.01s\n')).toBeNull();
  });

  it('reads jest and rspec JSON documents by their keys, even when the head cuts them', () => {
    expect(sniffFormat('{"numFailedTestSuites":0,"numTotalTests":3,"testResults":[{"x', true)?.format).toBe('jest-json');
    expect(sniffFormat('{"version":"3.12.0","messages":["An error occurred while loading', true)?.format).toBe('rspec-json');
    expect(sniffFormat('{"version":"3.13.1","examples":[]}')?.format).toBe('rspec-json');
    expect(sniffFormat('{"name":"x","version":"1.0.0"}')).toBeNull();
  });
});

describe('importVerdict: the truth rules without a runner exit', () => {
  const test = (status: TestStatus): TestResult =>
    (status === 'failed' || status === 'error' ? { id: 'a', name: 'a', file: null, line: null, status, message: 'm' } : { id: 'a', name: 'a', file: null, line: null, status });
  const parsed = (complete: boolean, ...statuses: TestStatus[]): ParsedReport => ({ tests: statuses.map(test), complete, warnings: [] });

  it('passes only a complete report with an executed test and no failure', () => {
    expect(importVerdict(parsed(true, 'passed', 'skipped'), '/r.xml')).toEqual({ status: 'passed', warnings: [] });
    expect(importVerdict(parsed(false, 'passed'), '/r.xml')).toEqual({
      status: 'error',
      warnings: ['/r.xml is not complete: it stops before the end of its run (1 result read); it cannot show a pass'],
    });
    expect(importVerdict(parsed(true, 'skipped'), '/r.xml')).toEqual({ status: 'no_tests', warnings: ['all 1 tests were skipped'] });
    expect(importVerdict(parsed(true), '/r.xml')).toEqual({ status: 'no_tests', warnings: ['no tests ran'] });
  });

  it('fails on a failure or an error, without claiming a runner exit', () => {
    expect(importVerdict(parsed(true, 'passed', 'failed'), '/r.xml')).toEqual({ status: 'failed', warnings: [] });
    expect(importVerdict(parsed(true, 'error'), '/r.xml')).toEqual({ status: 'failed', warnings: [] });
    expect(importVerdict(parsed(false, 'error', 'passed'), '/r.xml').status).toBe('failed');
  });
});

describe('importReport', () => {
  const tmp = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-import-')));

  it('reads go test -json into the contract, marked imported, with files placed by the cwd go.mod', async () => {
    const file = path.join(OUTPUTS, 'go/mixed.jsonl');
    const { report, tests } = await importReport(file, null, project('go-mixed'));
    expect(report).toMatchObject({
      source: 'imported', status: 'failed', exit_code: 1, framework: 'go-json', command: null,
      reason: 'format detected from the content: JSON lines with "Action" and "Package" (go test -json)',
      project_root: project('go-mixed'), exit_status: null, signal: null, timed_out: false, duration_ms: 0,
      artifact: file, failures_file: null, next: null, rerun: null, error: null, warnings: [], projects: [],
    });
    expect(report.summary).toEqual({ run: 13, passed: 7, failures: 5, errors: 0, skips: 1 });
    expect(tests).toHaveLength(13);
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line])).toEqual([
      ['TestSubtractsWrongly', 'mixed_test.go', 11],
      ['TestFatalInHelper', 'mixed_test.go', 16],
      ['TestTable/wrong_[neg]', 'mixed_test.go', 39],
      ['TestNested/outer/inner_(bad)', 'mixed_test.go', 49],
      ['TestHalf', 'sub/calc_test.go', 13],
    ]);
  });

  it('reads rspec JSON with --format, failures and errors apart', async () => {
    // The recording's paths start with <root> (scripts/record/rspec.sh).
    const { report } = await importReport(path.join(OUTPUTS, 'rspec/mixed.json'), 'rspec-json', '<root>');
    expect([report.status, report.exit_code, report.framework, report.reason]).toEqual(['failed', 1, 'rspec-json', '--format rspec-json given']);
    expect(report.summary).toEqual({ run: 13, passed: 4, failures: 4, errors: 2, skips: 3 });
    expect(report.failed_tests.filter((t) => t.status === 'error').map((t) => [t.test_name, t.file, t.line])).toEqual([
      ['Calculator loads config via a helper', 'spec/mixed_spec.rb', 12],
      ['Second file raises a plain error', 'spec/second_spec.rb', 7],
    ]);
  });

  it('never passes a report that stops early, and keeps what it read', async () => {
    const dir = tmp();
    // The recorded go-mixed run, cut after its first finished test.
    const lines = fs.readFileSync(path.join(OUTPUTS, 'go/mixed.jsonl'), 'utf8').split('\n');
    const cut = lines.slice(0, lines.findIndex((l) => l.includes('"Action":"pass"')) + 1).join('\n');
    fs.writeFileSync(path.join(dir, 'cut.jsonl'), `${cut}\n`);
    const { report } = await importReport(path.join(dir, 'cut.jsonl'), null, project('go-mixed'));
    expect([report.status, report.exit_code, report.summary.run, report.summary.passed]).toEqual(['error', 3, 1, 1]);
    expect(report.warnings.at(-1)).toBe(`${dir}/cut.jsonl is not complete: it stops before the end of its run (1 result read); it cannot show a pass`);
  });

  it('streams a file far larger than one chunk', async () => {
    const dir = tmp();
    const lines = fs.readFileSync(path.join(OUTPUTS, 'go/mixed.jsonl'), 'utf8').trimEnd().split('\n');
    // The recorded go-mixed tests 100 times over, each copy's tests renamed, then the packages' ends.
    const copies = Array.from({ length: 100 }, (_, i) => lines.filter((l) => l.includes('"Test":"')).map((l) => l.replace('"Test":"', `"Test":"C${i}`)));
    fs.writeFileSync(path.join(dir, 'big.jsonl'), `${[...copies.flat(), ...lines.filter((l) => !l.includes('"Test":"'))].join('\n')}\n`);
    expect(fs.statSync(path.join(dir, 'big.jsonl')).size).toBeGreaterThan(512 * 1024);
    const { report } = await importReport(path.join(dir, 'big.jsonl'), 'go-json', project('go-mixed'));
    expect(report.summary).toEqual({ run: 1300, passed: 700, failures: 500, errors: 0, skips: 100 });
    expect(report.failed_tests[0]).toMatchObject({ test_name: 'C0TestSubtractsWrongly', file: 'mixed_test.go', line: 11 });
  });

  it('makes an empty or unreadable file an error report (exit 3), not a usage error', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'empty.xml'), '\n');
    const empty = await importReport(path.join(dir, 'empty.xml'), null, dir);
    expect([empty.report.status, empty.report.exit_code, empty.report.framework, empty.report.error]).toEqual([
      'error', 3, null, { code: 'REPORT_MISSING', message: `${dir}/empty.xml is empty` },
    ]);
    expect(empty.report.summary).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
    const unreadable = await importReport(dir, 'junit', dir);
    expect([unreadable.report.exit_code, unreadable.report.framework, unreadable.report.error?.code]).toEqual([3, 'junit', 'REPORT_MISSING']);
    expect(unreadable.report.error?.message).toMatch(/could not be read: EISDIR/);
  });

  it('makes a file the format cannot read REPORT_UNPARSEABLE', async () => {
    const { report } = await importReport(path.join(OUTPUTS, 'go/mixed.jsonl'), 'rspec-json', FIXTURES);
    expect([report.status, report.exit_code, report.error?.code]).toEqual(['error', 3, 'REPORT_UNPARSEABLE']);
    expect(report.error?.message).toMatch(/mixed\.jsonl holds no rspec-json results$/);
  });

  it('refuses content it cannot place, naming what it looked for (exit 2)', async () => {
    const attempt = importReport(path.join(OUTPUTS, 'minitest/mixed.jsonl'), null, FIXTURES);
    await expect(attempt).rejects.toThrow(HarnessError);
    await expect(attempt).rejects.toMatchObject({ code: 'USAGE', exitCode: 2 });
    await expect(attempt).rejects.toThrow(/could not tell the format of .*mixed\.jsonl from its first 8 KiB; looked for JUnit XML .*TAP .*go test -json .*jest --json .*rspec --format json .*cargo test \(.*\); give --format$/);
    await expect(importReport(path.join(OUTPUTS, 'go/mixed.jsonl'), 'xunit', FIXTURES)).rejects.toThrow('--format "xunit" is not a report format');
  });
});
