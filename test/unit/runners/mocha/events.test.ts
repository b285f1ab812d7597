import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseMochaJsonl } from '../../../../src/runners/mocha/events.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/mocha');
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const root = { root: '/p' };

const START = '{"event":"run_start","schema":1,"runner":"mocha","runner_version":"11.8.0","pid":1}';
const END = '{"event":"run_end","pid":1,"totals":{"passed":0,"failed":1,"skipped":0}}';
const test = (fields: Record<string, unknown>): string => JSON.stringify({
  event: 'test_end', status: 'passed', name: 'a b', path: ['a', 'b'], file: '/p/test/a.spec.js', line: 3, duration_ms: 1, ...fields,
});
const failed = (message: string, stack: string | null, fields: Record<string, unknown> = {}) => test({ status: 'failed', message, stack, ...fields });

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
  it('names a test by its file and full title, and places a failure at its frame in the test file (relative, as mocha filters it, or absolute)', () => {
    const stack = (frame: string) => `TypeError: x\n    at helper (/p/lib/h.js:1:1)\n    at Context.<anonymous> (${frame})`;
    const report = parseMochaJsonl([START, failed('x', stack('test/a.spec.js:9:5')), failed('x', stack('/p/test/a.spec.js:11:5'), { status: 'error' }), failed('timeout', null), END].join('\n'), root);
    expect(report.tests.map((t) => [t.id, t.status, t.line])).toEqual([
      ['test/a.spec.js::a b', 'failed', 9],
      ['test/a.spec.js::a b', 'error', 11],
      // No frame in the test file: the definition line.
      ['test/a.spec.js::a b', 'failed', 3],
    ]);
  });

  it('keeps tests with the same title apart', () => {
    const report = parseMochaJsonl([START, test({}), test({}), END].join('\n'), root);
    expect(report.tests).toHaveLength(2);
  });

  it('counts a test reported again for done() called multiple times once, in the mocha process that ran it', () => {
    const twice = test({ status: 'error', message: 'Error: again', again: true });
    const failedFirst = test({ status: 'error', message: 'Error: first' });
    expect(parseMochaJsonl([START, failedFirst, twice, END].join('\n'), root).tests.map((t) => [t.status, 'message' in t ? t.message : null]))
      .toEqual([['error', 'Error: first\n\nError: again']]);
    expect(parseMochaJsonl([START, test({}), twice, END].join('\n'), root).tests.map((t) => [t.status, 'message' in t ? t.message : null]))
      .toEqual([['error', 'Error: again']]);
    // Another definition line is another test; another mocha process (a rerun's second) runs it anew.
    expect(parseMochaJsonl([START, test({ line: 9 }), twice, END].join('\n'), root).tests).toHaveLength(2);
    expect(parseMochaJsonl([START, test({}), END, START, twice, END].join('\n'), root).tests).toHaveLength(2);
  });

  it('makes a failed hook a file-level error, an assertion in it a failure', () => {
    const hook = (message: string, stack: string) => JSON.stringify({ event: 'error', kind: 'hook', name: 'a "before each" hook for "b"', file: '/p/test/a.spec.js', line: 2, message, stack });
    const report = parseMochaJsonl([START, hook('Error: db down', 'Error: db down\n    at x (/p/lib/db.js:1:1)'), hook('1 == 2', 'AssertionError [ERR_ASSERTION]: 1 == 2\n    at Context.<anonymous> (test/a.spec.js:4:3)'), END].join('\n'), root);
    expect(report.tests).toEqual([
      { id: 'test/a.spec.js', name: 'a "before each" hook for "b"', file: 'test/a.spec.js', line: 2, status: 'error', outside: true, message: 'Error: db down', stack: [{ file: 'lib/db.js', line: 1, function: 'x' }] },
      // mocha shortens its frames to the working directory: a relative path is the project's.
      { id: 'test/a.spec.js', name: 'a "before each" hook for "b"', file: 'test/a.spec.js', line: 4, status: 'failed', outside: true, message: '1 == 2', stack: [{ file: 'test/a.spec.js', line: 4, function: 'Context.<anonymous>' }] },
    ]);
  });

  it('names a file that failed to load, at its line, and is incomplete after it', () => {
    const load = JSON.stringify({ event: 'error', kind: 'load', file: '/p/test/b.spec.js', message: 'SyntaxError: x', stack: '/p/test/b.spec.js:7\n  oops(\n\nSyntaxError: x' });
    const report = parseMochaJsonl([START, load, '{"event":"run_end","pid":1,"interrupted":true,"warnings":[]}'].join('\n'), root);
    expect([report.tests, report.complete, report.warnings]).toEqual([
      // A syntax error's stack names its place in a header, in no frame: a stack without project frames.
      [{ id: 'test/b.spec.js', name: 'load error: test/b.spec.js', file: 'test/b.spec.js', line: 7, status: 'error', outside: true, message: 'SyntaxError: x', stack: [] }], false, [],
    ]);
  });

  it('says where a process that exited early stopped, in the launcher\'s words first', () => {
    const exit = '{"event":"run_end","pid":1,"interrupted":true,"warnings":["mocha exited with code 1 before its run ended, in test/a.spec.js, during \\"a c\\""]}';
    const report = parseMochaJsonl([START, test({}), '{"event":"test_start","name":"a c","file":"/p/test/a.spec.js"}', exit].join('\n'), root);
    expect([report.complete, report.warnings]).toEqual([false, ['mocha exited with code 1 before its run ended, in test/a.spec.js, during "a c"', 'the run stopped while "a c" was running']]);
  });

  it('is incomplete without a run_end, naming the running test, and never complete with one of two runs ended', () => {
    const cut = parseMochaJsonl([START, '{"event":"test_start","name":"a b","file":"/p/test/a.spec.js"}'].join('\n'), root);
    expect([cut.complete, cut.warnings]).toEqual([false, ['the run stopped while "a b" was running']]);
    const second = START.replace('"pid":1', '"pid":2');
    expect(parseMochaJsonl([START, END, second].join('\n'), root).complete).toBe(false);
    expect(parseMochaJsonl([START, END, second, END.replace('"pid":1', '"pid":2')].join('\n'), root).complete).toBe(true);
  });

  it("is never a pass when mocha counts more failures than it reported", () => {
    const report = parseMochaJsonl([START, test({}), END].join('\n'), root);
    expect(report.contradictions).toEqual([{ message: 'the runner counts 1 failed tests, but 0 were reported failing', saysFailed: true }]);
  });

  it('turns a line that is not JSON into a warning', () => {
    const report = parseMochaJsonl([START, failed('x', null), 'noise', END].join('\n'), root);
    expect(report.warnings).toEqual(['line 3: not valid JSON, ignored: noise']);
  });
});
