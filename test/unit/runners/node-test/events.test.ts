import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseNodeTestJsonl } from '../../../../src/runners/node-test/events.js';
import { nodeTestId, parseNodeTestId } from '../../../../src/runners/node-test/id.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/node-test');
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const root = { root: '/p' };
const FILE = '/p/test/a.test.js';

const start = (name: string, nesting: number) => JSON.stringify({ type: 'test:start', name, nesting, file: FILE, line: 1 });
const pass = (name: string, nesting: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'test:pass', name, nesting, file: FILE, line: 2, column: 1, kind: 'test', duration_ms: 1, ...extra });
const fail = (name: string, nesting: number, error: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'test:fail', name, nesting, file: FILE, line: 2, column: 1, kind: 'test', duration_ms: 1, error, ...extra });
const run = (...lines: string[]) => parseNodeTestJsonl(['{"type":"run:start"}', ...lines, '{"type":"run:end"}'].join('\n'), root);
const thrown = (cause: Record<string, unknown>, failureType = 'testCodeFailure') =>
  ({ name: 'Error', code: 'ERR_TEST_FAILURE', message: String(cause['message']), stack: null, failureType, cause });

describe('parseNodeTestJsonl on recorded real outputs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['files', 'filtered', 'mixed', 'truncated']);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    const text = readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
    expectGolden(join(outputs, `${name}.expected.json`), parseNodeTestJsonl(text, { root: '<root>' }));
  });
});

describe('parseNodeTestJsonl on small inputs', () => {
  it('drops tests --test-name-pattern and --test-only filtered out, but keeps real skips', () => {
    const report = run(
      start('a', 0), pass('a', 0, { skip: 'test name does not match pattern' }),
      start('b', 0), pass('b', 0, { skip: "'only' option not set" }),
      start('c', 0), pass('c', 0, { skip: true }),
      start('d', 0), pass('d', 0, { skip: 'flaky on CI' }),
    );
    expect(report.tests.map((t) => [t.name, t.status, 'message' in t ? t.message : null])).toEqual([['c', 'skipped', 'skipped'], ['d', 'skipped', 'flaky on CI']]);
  });

  it('counts leaves, not a parent that failed because a child did', () => {
    const report = run(
      start('s', 0), start('t', 1), fail('t', 1, thrown({ name: 'AssertionError', code: 'ERR_ASSERTION', message: 'no', stack: null })),
      fail('s', 0, { ...thrown({ message: '1 subtest failed' }), failureType: 'subtestsFailed', cause: {} }, { kind: 'suite' }),
    );
    expect(report.tests).toEqual([{ id: 'test/a.test.js::[["s"],["t"]]', name: 's > t', file: 'test/a.test.js', line: 2, durationMs: 1, status: 'failed', message: 'no' }]);
  });

  it('lists a describe whose hook failed as a file-level error, without the children it cancelled', () => {
    const cancelled = { ...thrown({ message: 'test did not finish before its parent and was cancelled' }), failureType: 'cancelledByParent', cause: {} };
    const report = run(
      start('s', 0), start('t', 1), fail('t', 1, cancelled),
      fail('s', 0, { ...thrown({ name: 'Error', message: 'db down', stack: null }, 'hookFailed'), message: 'failed running before hook' }, { kind: 'suite' }),
    );
    expect(report.tests.map((t) => [t.id, t.name, t.status, 'message' in t ? t.message : null])).toEqual([
      ['test/a.test.js', 's', 'error', 'failed running before hook: Error: db down'],
    ]);
  });

  it('keeps a child cancelled by a parent that did not fail on its own', () => {
    const cancelled = { ...thrown({ message: 'test did not finish before its parent and was cancelled' }), failureType: 'cancelledByParent', cause: {} };
    const report = run(start('p', 0), start('c', 1), fail('c', 1, cancelled), fail('p', 0, { ...thrown({ message: '1 subtest failed' }), failureType: 'subtestsFailed', cause: {} }));
    expect(report.tests.map((t) => [t.name, t.status])).toEqual([['p > c', 'error']]);
  });

  it("says how a file's process ended when it printed nothing: a signal is not blamed on process.exit", () => {
    const fileFail = (exitCode: number | null, signal: string | null) => JSON.stringify({
      type: 'test:fail', name: FILE, nesting: 0, file: FILE, line: 1, column: 1, kind: 'test', duration_ms: 1, file_level: true,
      error: { ...thrown({ message: 'test failed' }), exitCode, signal, cause: { name: null, code: null, message: 'test failed', stack: null } },
    });
    expect([run(fileFail(null, 'SIGTERM')), run(fileFail(3, null))].map((r) => r.tests.map((t) => [t.id, t.status, 'message' in t ? t.message : null]))).toEqual([
      [['test/a.test.js', 'error', "the test file's process was killed by SIGTERM before all its tests were reported"]],
      [['test/a.test.js', 'error', "the test file's process exited with code 3 before all its tests were reported (a test may have called process.exit)"]],
    ]);
  });

  it('reports timeouts as errors at the definition line', () => {
    const report = run(start('slow', 0), fail('slow', 0, { name: 'Error', code: 'ERR_TEST_FAILURE', message: 'test timed out after 50ms', stack: null, failureType: 'testTimeoutFailure', cause: { name: null, code: null, message: 'test timed out after 50ms', stack: null } }));
    expect(report.tests.map((t) => [t.status, t.line, 'message' in t ? t.message : null])).toEqual([['error', 2, 'Error: test timed out after 50ms']]);
  });

  it('is incomplete without run:end', () => {
    const report = parseNodeTestJsonl(['{"type":"run:start"}', start('a', 0), pass('a', 0)].join('\n'), root);
    expect([report.complete, report.tests.length]).toEqual([false, 1]);
    expect(report.warnings).toEqual(["node's test runner stopped before the end of its report: the last test file seen was test/a.test.js"]);
  });
});

describe('node:test ids', () => {
  it('round-trip names with brackets, parentheses, quotes and separators', () => {
    const id = nodeTestId('test/a.test.js', ['a > b'], ['it [x] ("y")', 'sub']);
    expect(parseNodeTestId(id, 'test/a.test.js')).toEqual({ suites: ['a > b'], tests: ['it [x] ("y")', 'sub'] });
    expect(parseNodeTestId('test/a.test.js', 'test/a.test.js')).toBeNull();
  });
});
