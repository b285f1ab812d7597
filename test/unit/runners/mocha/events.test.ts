import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseMochaJsonl } from '../../../../src/runners/mocha/events.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/mocha');
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const root = { root: '/p' };

const LAUNCH = '{"type":"launch","pid":1,"mocha":"11.8.0"}';
const END = '{"type":"end","tests":1,"passes":0,"failures":1,"pending":0}';
const test = (fields: Record<string, unknown>): string => JSON.stringify({
  type: 'test', status: 'passed', title_path: ['a', 'b'], full_title: 'a b', file: '/p/test/a.spec.js', line: 3, duration_ms: 1, ...fields,
});

describe('parseMochaJsonl on recorded real outputs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['done-twice', 'exit', 'filtered', 'load-error', 'mixed', 'parallel', 'truncated']);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    const text = readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
    expectGolden(join(outputs, `${name}.expected.json`), parseMochaJsonl(text, { root: '<root>' }));
  });
});

describe('parseMochaJsonl on small inputs', () => {
  it('tells assertion failures (node:assert, chai) from other exceptions', () => {
    const lines = [
      LAUNCH,
      test({ status: 'failed', full_title: 'a chai', error: { name: 'AssertionError', code: null, message: 'expected 1 to equal 2', stack: null } }),
      test({ status: 'failed', full_title: 'a node', error: { name: 'AssertionError', code: 'ERR_ASSERTION', message: '1 == 2', stack: null } }),
      test({ status: 'failed', full_title: 'a timeout', error: { name: 'Error', code: 'ERR_MOCHA_TIMEOUT', message: 'Timeout of 2000ms exceeded.', stack: 'Error: Timeout\n    at listOnTimeout (node:internal/timers:1:1)' } }),
      END,
    ].join('\n');
    const report = parseMochaJsonl(lines, root);
    expect(report.tests.map((t) => [t.name, t.status, t.line, 'message' in t ? t.message : null])).toEqual([
      ['a chai', 'failed', 3, 'expected 1 to equal 2'],
      ['a node', 'failed', 3, '1 == 2'],
      // No frame in the test file: the definition line.
      ['a timeout', 'error', 3, 'Error: Timeout of 2000ms exceeded.'],
    ]);
    expect(report.complete).toBe(true);
  });

  it('takes the failure line from a relative (mocha-filtered) or absolute frame in the test file', () => {
    const stack = (frame: string) => ({ name: 'TypeError', code: null, message: 'x', stack: `TypeError: x\n    at helper (/p/lib/h.js:1:1)\n    at Context.<anonymous> (${frame})` });
    const report = parseMochaJsonl([test({ status: 'failed', error: stack('test/a.spec.js:9:5') }), test({ status: 'failed', error: stack('/p/test/a.spec.js:11:5') })].join('\n'), root);
    expect(report.tests.map((t) => t.line)).toEqual([9, 11]);
  });

  it('keeps tests with the same title apart', () => {
    const report = parseMochaJsonl([LAUNCH, test({}), test({}), END].join('\n'), root);
    expect(report.tests).toHaveLength(2);
  });

  it('counts a test reported again for done() called multiple times once, in the mocha process that ran it', () => {
    const twice = test({ status: 'failed', error: { name: 'Error', code: 'ERR_MOCHA_MULTIPLE_DONE', message: 'again', stack: null } });
    const failedFirst = test({ status: 'failed', error: { name: 'Error', code: null, message: 'first', stack: null } });
    expect(parseMochaJsonl([LAUNCH, failedFirst, twice, END].join('\n'), root).tests.map((t) => [t.status, 'message' in t ? t.message : null]))
      .toEqual([['error', 'Error: first\n\nError: again']]);
    // Another definition line is another test; another mocha process (a rerun's second) runs it anew.
    expect(parseMochaJsonl([LAUNCH, test({ line: 9 }), twice, END].join('\n'), root).tests).toHaveLength(2);
    expect(parseMochaJsonl([LAUNCH, test({}), END, LAUNCH, twice, END].join('\n'), root).tests).toHaveLength(2);
  });

  it('makes a failed hook a file-level error', () => {
    const hook = JSON.stringify({ type: 'hook', title_path: ['a', '"before each" hook for "b"'], full_title: 'a "before each" hook for "b"', file: '/p/test/a.spec.js', line: 2, error: { name: 'Error', code: null, message: 'db down', stack: null } });
    const report = parseMochaJsonl([LAUNCH, hook, END].join('\n'), root);
    expect(report.tests).toEqual([{ id: 'test/a.spec.js', name: 'a "before each" hook for "b"', file: 'test/a.spec.js', line: 2, status: 'error', message: 'Error: db down' }]);
  });

  it('is incomplete without an end, naming the last file, and never complete with one of two runs ended', () => {
    const cut = parseMochaJsonl([LAUNCH, '{"type":"file","file":"/p/test/a.spec.js","phase":"run"}', test({})].join('\n'), root);
    expect(cut.complete).toBe(false);
    expect(cut.warnings).toEqual(["mocha's report stops before the end of its run: the last test file seen was test/a.spec.js"]);
    expect(parseMochaJsonl([LAUNCH, END, LAUNCH].join('\n'), root).complete).toBe(false);
    expect(parseMochaJsonl([LAUNCH, END, LAUNCH, END].join('\n'), root).complete).toBe(true);
  });

  it('turns a line that is not JSON into a warning', () => {
    const report = parseMochaJsonl([LAUNCH, 'noise', END].join('\n'), root);
    expect(report.warnings).toEqual(['line 2: not valid JSON, ignored: noise']);
  });
});
