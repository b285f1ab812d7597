import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJestJson } from '../../../../src/runners/jest/json.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/jest-json/', import.meta.url));
const recorded = readdirSync(outputs).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json') && f !== 'recordings.json');
const read = (file: string) => parseJestJson(readFileSync(outputs + file, 'utf8'), { root: '<root>' });
const ctx = { root: '/p' };
const report = (testResults: unknown[], extra: Record<string, unknown> = {}) => parseJestJson(JSON.stringify({ testResults, ...extra }), ctx);
const assertion = (fields: Record<string, unknown>) => ({ ancestorTitles: ['d'], title: 't', status: 'passed', failureMessages: [], location: null, ...fields });

describe('jest --json, recorded', () => {
  it.each(recorded)('%s gives its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.json$/, '.expected.json'), read(file));
  });

  it('names tests as jest does, assertion failures vs errors, the failing line from the stack', () => {
    expect(read('jest-mixed.json').tests.map((t) => [t.name, t.status, t.line])).toEqual([
      ['math › adds', 'passed', 2], ['math › subtracts', 'failed', 7], ['math › nested › throws', 'error', 12],
      ['skipped', 'skipped', 17], ['todo', 'skipped', 18], ['top level', 'passed', 19],
    ]);
  });

  it('strips OSC-8 hyperlinks and other escape sequences from messages, keeping the link text', () => {
    const link = (url: string, text: string, end: string) => `\u001b]8;;${url}${end}${text}\u001b]8;;${end}`;
    const message = `Error: see ${link('https://example.com/doc', 'the docs', '\u001b\\')} and ${link('file:///p/a.js', 'a.js', '\u0007')}\u001b[2K\n    at Object.<anonymous> (/p/t/a.test.js:7:9)`;
    const parsed = report([{ name: '/p/t/a.test.js', assertionResults: [assertion({ status: 'failed', failureMessages: [message] })] }]);
    expect(parsed.tests[0]).toMatchObject({ status: 'error', line: 7, message: 'Error: see the docs and a.js' });
  });

  it('turns a file that failed to load into an error entry at the line that failed', () => {
    expect(read('jest-load-error.json').tests.at(-1)).toEqual({
      id: 'load-error.test.js', name: 'load error: load-error.test.js', file: 'load-error.test.js', line: 1, status: 'error', outside: true,
      message: "Cannot find module './does-not-exist' from 'load-error.test.js'",
    });
  });
});

describe('jest --json, edge cases', () => {
  it('reads testExecError', () => {
    const r = report([{ name: '/p/a.test.js', status: 'failed', assertionResults: [], testExecError: { message: 'SyntaxError: nope', stack: 'SyntaxError: nope\n    at /p/a.test.js:3:1' } }], { numRuntimeErrorTestSuites: 1 });
    expect(r.tests).toEqual([{ id: 'a.test.js', name: 'load error: a.test.js', file: 'a.test.js', line: 3, status: 'error', outside: true, message: 'SyntaxError: nope' }]);
    expect(r.complete).toBe(true);
  });

  it('keeps runtime-error suites it cannot place as unattributed errors', () => {
    const r = report([], { numRuntimeErrorTestSuites: 2 });
    expect(r.tests.map((t) => [t.id, t.status])).toEqual([['jest:unattributed-error-1', 'error'], ['jest:unattributed-error-2', 'error']]);
  });

  it('a failed file whose tests passed failed outside them (a hook): one error entry', () => {
    const r = report([{ name: '/p/a.test.js', status: 'failed', message: '  ● Test suite failed to run\n\n    afterAll broke', assertionResults: [assertion({})] }]);
    expect(r.tests.map((t) => [t.name, t.status])).toEqual([['d › t', 'passed'], ['load error: a.test.js', 'error']]);
  });

  it('skips are pending, skipped, disabled and todo', () => {
    const r = report([{ name: '/p/a.test.js', status: 'passed', assertionResults: ['pending', 'skipped', 'disabled', 'todo'].map((status) => assertion({ status, title: status })) }]);
    expect(r.tests.map((t) => t.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('is incomplete when interrupted, cut off or not a jest report', () => {
    expect(report([], { wasInterrupted: true }).complete).toBe(false);
    expect(parseJestJson('{"testResults": [', ctx)).toMatchObject({ complete: false, tests: [] });
    expect(parseJestJson('{"results": []}', ctx).complete).toBe(false);
    expect(parseJestJson('', ctx).complete).toBe(false);
  });
});

describe('jest --json, totals that contradict the tests', () => {
  const passing = [{ name: '/p/a.test.js', status: 'passed', assertionResults: [assertion({}), assertion({ title: 's', status: 'pending' })] }];

  it('recorded: a passing run with numFailedTests 1 and success false (one edit of jest-passing.json)', () => {
    expect(read('jest-passing.json').contradictions).toBeUndefined();
    expect(read('jest-contradicts.json').contradictions).toEqual([
      { message: 'numFailedTests is 1, but 0 listed tests failed', saysFailed: true },
      { message: 'success is false, but 0 listed tests failed', saysFailed: true },
    ]);
  });

  it('checks every total against the listed tests, not against files that failed to run', () => {
    const totals = { numTotalTests: 2, numPassedTests: 1, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0, success: true };
    expect(report(passing, totals).contradictions).toBeUndefined();
    expect(report(passing, { ...totals, numTotalTests: 3, numPendingTests: 0 }).contradictions?.map((c) => c.message)).toEqual([
      'numTotalTests is 3, but 2 tests are listed', 'numPendingTests + numTodoTests is 0, but 1 listed test was skipped',
    ]);
    expect(report(passing, { ...totals, success: false }).contradictions).toEqual([{ message: 'success is false, but 0 listed tests failed', saysFailed: true }]);
    // A load error is numRuntimeErrorTestSuites, not numFailedTests; success covers it.
    expect(read('jest-load-error.json').contradictions).toBeUndefined();
  });

  it('does not check an interrupted run, whose totals cover only part of it', () => {
    expect(report(passing, { numFailedTests: 1, wasInterrupted: true }).contradictions).toBeUndefined();
  });
});

describe('jest --json, large files', () => {
  it('reads a file of 200,000 tests (appending them one argument each would overflow the stack)', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => assertion({ title: `t${i}` }));
    const r = report([{ name: '/p/a.test.js', status: 'passed', assertionResults: many }]);
    expect(r.tests).toHaveLength(200_000);
    expect(r.tests[199_999]).toMatchObject({ name: 'd › t199999', status: 'passed' });
  });
});
