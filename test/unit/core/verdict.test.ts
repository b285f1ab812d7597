import { describe, expect, it } from '@jest/globals';
import { decide, summarize, type VerdictInput } from '../../../src/core/verdict.js';
import { exitCodeOf } from '../../../src/model/exit-codes.js';
import type { ParsedReport, TestResult } from '../../../src/model/results.js';

const pass = (id: string): TestResult => ({ id, name: id, file: 'a.rb', line: 1, status: 'passed' });
const fail = (id: string): TestResult => ({ id, name: id, file: 'a.rb', line: 2, status: 'failed', message: 'boom' });
const skip = (id: string): TestResult => ({ id, name: id, file: 'a.rb', line: 3, status: 'skipped' });
const report = (tests: TestResult[], complete = true): ParsedReport => ({ tests, complete, warnings: [] });

const input = (over: Partial<VerdictInput>): VerdictInput => ({
  process: { exitCode: 0, timedOut: false, interrupted: false },
  report: report([pass('a')]),
  minTests: 1,
  allowNoTests: false,
  logPath: '/p/.run-tests/last-test.log',
  logTail: () => 'tail line',
  ...over,
});

describe('decide', () => {
  it('passes only a complete report with an executed test, no failure and exit 0', () => {
    expect(decide(input({}))).toEqual({ status: 'passed', warnings: [] });
  });

  it('is an error naming the log when there is no report', () => {
    const verdict = decide(input({ report: null, process: { exitCode: 1, timedOut: false, interrupted: false } }));
    expect(verdict.status).toBe('error');
    expect(verdict.warnings).toEqual(['the runner wrote no usable report (exit 1); see /p/.run-tests/last-test.log']);
  });

  it('is failed when the report holds failures even if the runner exited 0', () => {
    const verdict = decide(input({ report: report([pass('a'), fail('b')]) }));
    expect(verdict).toEqual({ status: 'failed', warnings: ['the runner exited 0 although its report holds failures'] });
  });

  it('never passes when the runner exited non-zero, and quotes the log tail', () => {
    const verdict = decide(input({ process: { exitCode: 2, timedOut: false, interrupted: false } }));
    expect(verdict.status).toBe('error');
    expect(verdict.warnings[0]).toContain('exited 2');
    expect(verdict.warnings[0]).toContain('tail line');
  });

  it('never passes a truncated report', () => {
    const verdict = decide(input({ report: report([pass('a')], false) }));
    expect(verdict.status).toBe('error');
  });

  it('never passes a report that contradicts itself: failed when its own numbers say so, else error', () => {
    const says = (saysFailed: boolean, tests = [pass('a')]) => decide(input({ report: { ...report(tests), contradictions: [{ message: 'numFailedTests is 1, but 0 listed tests failed', saysFailed }] } }));
    expect(says(true)).toEqual({ status: 'failed', warnings: ['the report contradicts itself: numFailedTests is 1, but 0 listed tests failed'] });
    expect(says(false).status).toBe('error');
    // Nor is it no_tests: the report says tests ran that it does not list.
    expect(says(false, []).status).toBe('error');
    expect(says(false, [fail('b')]).status).toBe('failed');
    expect(decide(input({ report: { ...report([pass('a')]), contradictions: [] } })).status).toBe('passed');
  });

  it('reports no_tests for zero tests, all-skipped runs and --min-tests', () => {
    expect(decide(input({ report: report([]) })).status).toBe('no_tests');
    expect(decide(input({ report: report([skip('a'), skip('b')]) })).warnings).toEqual(['all 2 tests were skipped']);
    expect(decide(input({ minTests: 3, report: report([pass('a'), pass('b'), skip('c')]) })).warnings)
      .toEqual(['2 tests executed, fewer than --min-tests 3']);
  });

  it('takes a runner\'s own "no tests" exit code (pytest 5) as no_tests, but only when nothing executed', () => {
    const exit5 = { exitCode: 5, timedOut: false, interrupted: false };
    expect(decide(input({ process: exit5, report: report([]), noTestsExitCodes: [5] })).status).toBe('no_tests');
    expect(decide(input({ process: exit5, report: report([]) })).status).toBe('error');
    expect(decide(input({ process: exit5, report: report([pass('a')]), noTestsExitCodes: [5] })).status).toBe('error');
  });

  it('puts interrupt before timeout before everything else', () => {
    const both = { exitCode: null, timedOut: true, interrupted: true };
    expect(decide(input({ process: both })).status).toBe('interrupted');
    expect(decide(input({ process: { ...both, interrupted: false }, report: report([fail('a')], false) })).status).toBe('timed_out');
  });
});

describe('exitCodeOf', () => {
  it('maps statuses to the documented exit codes', () => {
    expect([exitCodeOf('passed', false), exitCodeOf('failed', false), exitCodeOf('error', false), exitCodeOf('no_tests', false),
      exitCodeOf('timed_out', false), exitCodeOf('interrupted', false), exitCodeOf('nothing_to_rerun', false)]).toEqual([0, 1, 3, 4, 124, 130, 0]);
    expect(exitCodeOf('no_tests', true)).toBe(0);
  });
});

describe('summarize', () => {
  it('counts skips in run and keeps unknown as null', () => {
    expect(summarize([pass('a'), fail('b'), skip('c'), { id: 'd', name: 'd', file: null, line: null, status: 'error', message: 'raised' }]))
      .toEqual({ run: 4, passed: 1, failures: 1, errors: 1, skips: 1 });
    expect(summarize(null)).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
  });
});
