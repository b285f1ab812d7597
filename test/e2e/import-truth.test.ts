import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO, runCli, runJson } from './helpers.js';

const OUTPUTS = path.join(REPO, 'test/fixtures/outputs');

const tmp = async () => fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-import-truth-')));

/** The root's counts and the testcases' names of a JUnit file run-tests wrote. */
async function junitOut(file: string): Promise<{ root: string; cases: string[] }> {
  const xml = await fs.readFile(file, 'utf8');
  return { root: /<testsuites [^>]*>/.exec(xml)?.[0] ?? '', cases: [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1] ?? '') };
}

// Each is a real passing report with one of its own totals edited (scripts/record/*.sh).
const CONTRADICTIONS = [
  { file: 'jest-json/jest-contradicts.json', status: 'failed', exit: 1, passed: 1, warning: 'numFailedTests is 1, but 0 listed tests failed' },
  { file: 'rspec/contradicts.json', status: 'failed', exit: 1, passed: 1, warning: 'summary.failure_count is 1, but 0 listed tests failed' },
  { file: 'junit/mocha-xunit-contradicts.xml', status: 'error', exit: 3, passed: 1, warning: '<testsuite>: tests="2", but the report lists 1 testcase(s)' },
  { file: 'tap/node-test-contradicts-fail.tap', status: 'failed', exit: 1, passed: 1, warning: 'TAP: "# fail 1" at the end, but 0 listed test(s) failed' },
  { file: 'tap/node-test-contradicts-plan.tap', status: 'error', exit: 3, passed: 1, warning: 'TAP: the plan 1..5 says 5 test point(s), but 4 were reported' },
] as const;

describe('run-tests parse: a report that contradicts itself is never a pass', () => {
  it.each(CONTRADICTIONS)('$file is $status, names the numbers, and its JUnit is not green', async ({ file, status, exit, passed, warning }) => {
    const dir = await tmp();
    const { exitCode, report } = await runJson(['parse', path.join(OUTPUTS, file), '--cwd', dir, '--junit', 'out.xml']);
    expect([exitCode, report.status, report.exit_code, report.summary.passed, report.summary.failures, report.summary.errors]).toEqual([exit, status, exit, passed, 0, 0]);
    expect(report.warnings).toContain(`the report contradicts itself: ${warning}`);
    const junit = await junitOut(path.join(dir, 'out.xml'));
    expect(junit.root).toMatch(/ errors="1"/);
    expect(junit.cases.at(-1)).toBe(`run-tests: ${status === 'failed' ? 'failed' : 'error'}`);
  });

  it.each(['jest-json/jest-passing.json', 'rspec/filtered.json', 'junit/mocha-xunit-passing.xml', 'tap/node-test-passing.tap'])('%s, the same report unedited, passes', async (file) => {
    const dir = await tmp();
    const { exitCode, report } = await runJson(['parse', path.join(OUTPUTS, file), '--cwd', dir, '--junit', 'out.xml']);
    expect([exitCode, report.status, report.warnings]).toEqual([0, 'passed', []]);
    expect((await junitOut(path.join(dir, 'out.xml'))).root).toMatch(/ failures="0" errors="0"/);
  });

  it('reads mocha\'s xunit report (errors="2" on the suite, two <failure> elements) without a phantom error', async () => {
    const dir = await tmp();
    const { exitCode, report } = await runJson(['parse', path.join(OUTPUTS, 'junit/mocha-xunit-mixed.xml'), '--cwd', dir, '--junit', 'out.xml']);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 4, passed: 1, failures: 2, errors: 0, skips: 1 });
    expect(report.failed_tests.map((t) => [t.test_name, t.status])).toEqual([['math subtracts', 'failed'], ['math nested throws', 'failed']]);
    expect((await junitOut(path.join(dir, 'out.xml'))).root).toMatch(/ tests="4" failures="2" errors="0"/);
  });
});

describe('run-tests parse: nesting and what the path is', () => {
  // Before the limit, each level copied its parents' names: this file exhausted such a heap.
  const smallHeap = { env: { NODE_OPTIONS: '--max-old-space-size=96' } };

  it('refuses JUnit nested 20,000 named suites deep (640 KB) with a clear error naming the limit, in bounded memory', async () => {
    const dir = await tmp();
    await fs.writeFile(path.join(dir, 'deep.xml'), `<testsuites>${'<testsuite name="s">'.repeat(20_000)}<testcase name="a"/>${'</testsuite>'.repeat(20_000)}</testsuites>`);
    const { exitCode, report } = await runJson(['parse', 'deep.xml', '--cwd', dir, '--junit', 'out.xml'], smallHeap);
    expect([exitCode, report.status, report.error?.code, report.summary.run]).toEqual([3, 'error', 'REPORT_UNPARSEABLE', null]);
    expect(report.error?.message).toBe(`${dir}/deep.xml could not be parsed as junit: elements nest more than 256 deep (<testsuite> inside <testsuite>); JUnit reports are read to a depth of 256`);
    expect((await junitOut(path.join(dir, 'out.xml'))).cases).toEqual(['run-tests: error']);
  });

  it('refuses TAP subtests nested deeper than 256 the same way', async () => {
    const dir = await tmp();
    const lines = ['TAP version 14', ...Array.from({ length: 300 }, (_, i) => `${'    '.repeat(i)}# Subtest: s${i}`), `${'    '.repeat(300)}ok 1 - leaf`];
    await fs.writeFile(path.join(dir, 'deep.tap'), `${lines.join('\n')}\n`);
    const { exitCode, report } = await runJson(['parse', 'deep.tap', '--cwd', dir], smallHeap);
    expect([exitCode, report.error?.code]).toEqual([3, 'REPORT_UNPARSEABLE']);
    expect(report.error?.message).toMatch(/could not be parsed as tap: subtests nest more than 256 deep \(under s0 > s1 > s2 …\); TAP reports are read to a depth of 256$/);
  });

  it('says a directory, a named pipe, a socket or a device is not a report file (exit 2), without opening the pipe', async () => {
    const dir = await tmp();
    await fs.mkdir(path.join(dir, 'reports'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const server = net.createServer().listen(path.join(dir, 'sock'));
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      for (const [file, kind] of [['reports', 'a directory'], ['pipe', 'a named pipe (FIFO)'], ['sock', 'a socket'], ['/dev/null', 'a character device']] as const) {
        const result = await runCli(['parse', file, '--cwd', dir]);
        expect([file, result.exitCode, result.stdout, result.stderr]).toEqual([file, 2, '', `run-tests: "${file}" is ${kind}, not a report file (in ${dir}); give a regular file\n`]);
      }
    } finally {
      server.close();
    }
    expect((await runCli(['parse', 'nope.xml', '--cwd', dir])).stderr).toBe(`run-tests: file "nope.xml" does not exist (in ${dir})\n`);
  });
});
