import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { REPO, runJson } from './helpers.js';

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
