import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJest } from '../../../../src/runners/jest/events.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/jest/', import.meta.url));
const ctx = { root: '<root>' };
const read = (name: string): string => readFileSync(outputs + name, 'utf8');
const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;

describe('parseJest on recorded reporter output', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).sort();

  it('has the recorded cases', () => {
    expect(cases).toEqual(['esm.jsonl', 'exit.jsonl', 'filtered.jsonl', 'hooks.jsonl', 'mixed.jsonl', 'rerun.jsonl', 'truncated.jsonl']);
  });

  it.each(cases)('%s matches its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.jsonl$/, '.expected.json'), parseJest(read(file), ctx));
  });

  it('finds the failing line in the test file, separates assertions from errors, and names the load error', () => {
    const { tests, complete } = parseJest(read('mixed.jsonl'), ctx);
    expect(complete).toBe(true);
    // test.skip reaches a reporter only with its file's results: it comes after the tests that ran.
    expect(tests.filter((t) => t.status !== 'passed').map((t) => [t.status, t.name, t.line])).toEqual([
      ['error', 'load error: test/broken.test.js', 3],
      ['failed', 'math › add › adds negatives', 11],
      ['error', 'math › parses config', 16],
      // No definition lines: the launcher leaves testLocationInResults off (see launch.cjs).
      ['skipped', 'math › is still to do', null],
      ['failed', 'math › fails [with] (brackets) too', 30],
      ['skipped', 'math › is skipped', null],
      ['failed', 'top level fails', 6],
    ]);
  });

  it('names an afterAll that threw for its hook, not as a load error, with the file as its id', () => {
    const { tests } = parseJest(read('hooks.jsonl'), ctx);
    expect(tests.filter((t) => t.id === 'test/hooks.test.js').map((t) => [t.name, t.line, t.status])).toEqual([['"after all" hook in test/hooks.test.js', 11, 'error']]);
  });

  it('reads the two jest runs of a rerun appended to one report as one complete report', () => {
    const parsed = parseJest(read('rerun.jsonl'), ctx);
    expect([parsed.complete, parsed.warnings]).toEqual([true, []]);
    expect(parsed.tests.map((t) => t.name)).toEqual([
      'math › add › adds negatives', 'math › parses config', 'math › fails [with] (brackets) too', 'top level fails', 'load error: test/broken.test.js',
    ]);
  });

  it('is incomplete, naming the file and test, when the process died mid-file', () => {
    const parsed = parseJest(read('exit.jsonl'), ctx);
    expect(parsed.complete).toBe(false);
    expect(parsed.warnings[0]).toContain('test/b_exit.test.js (during "calls process.exit")');
  });
});

const file = '<root>/test/a.test.js';
const start = line({ event: 'run_start', schema: 1, runner: 'jest', runner_version: '30.0.0', pid: 1, files: 1 });
const test = (over: Record<string, unknown>) => line({
  event: 'test_end', name: 'A › x', file, line: 2, status: 'passed', duration_ms: 1, message: null, stack: null, ...over,
});
const end = (over: Record<string, unknown> = {}) => line({ event: 'run_end', pid: 1, totals: { tests: 1, passed: 1, failed: 0, errors: 0, skipped: 0, deselected: 0 }, interrupted: false, ...over });

describe('parseJest inline cases', () => {
  it('makes ids of files and names, and keeps the definition line of a test that did not fail', () => {
    const parsed = parseJest(start + line({ event: 'file_start', file }) + test({}) + line({ event: 'file_end', file }) + end(), ctx);
    expect(parsed).toEqual({ tests: [{ id: 'test/a.test.js::A › x', name: 'A › x', file: 'test/a.test.js', line: 2, durationMs: 1, status: 'passed' }], complete: true, warnings: [] });
  });

  it('is incomplete, naming the file, when a file started and never ended, even when the run ended', () => {
    const parsed = parseJest(start + line({ event: 'file_start', file }) + test({}) + end(), ctx);
    expect([parsed.complete, parsed.warnings]).toEqual([false, [
      'jest stopped while running test/a.test.js and reported no result for it: a test may have called process.exit, or the process crashed or was killed',
    ]]);
  });

  it('is incomplete when a later run of the report did not reach its end, and reads the results of both', () => {
    const second = line({ event: 'run_start', schema: 1, runner: 'jest', pid: 2, files: 1 }) + line({ event: 'file_start', file: '<root>/test/b.test.js' });
    const parsed = parseJest(start + test({}) + end() + second, ctx);
    expect([parsed.complete, parsed.tests.map((t) => t.name)]).toEqual([false, ['A › x']]);
    expect(parsed.warnings).toEqual([
      'jest stopped while running test/b.test.js and reported no result for it: a test may have called process.exit, or the process crashed or was killed',
    ]);
    const both = parseJest(start + test({}) + end() + start.replace('"pid":1', '"pid":2') + test({ name: 'A › y' }) + end({ pid: 2 }), ctx);
    expect([both.complete, both.warnings, both.tests.map((t) => t.name)]).toEqual([true, [], ['A › x', 'A › y']]);
  });

  it('finds the failing line in the stack, colours and all, and is interrupted when jest says so', () => {
    const stack = '\u001b[31mError: expect(received).toBe(expected)\u001b[39m\n    at Object.toBe (<root>/test/a.test.js:7:9)';
    const parsed = parseJest(start + test({ status: 'failed', message: 'expect(received).toBe(expected)', stack }) + end({ interrupted: true }), ctx);
    expect(parsed.tests[0]).toMatchObject({ status: 'failed', line: 7, message: 'expect(received).toBe(expected)' });
    expect([parsed.complete, parsed.warnings]).toEqual([false, ['jest reports that the run was interrupted']]);
  });

  it('says when jest found no test file, and when -t left out every test', () => {
    const none = parseJest(start.replace('"files":1', '"files":0') + end({ totals: { tests: 0 } }), ctx);
    expect(none.warnings).toEqual(['jest found no test file to run: no file matched the selection (or its own test file patterns)']);
    const leftOut = parseJest(start + end({ totals: { tests: 0, deselected: 7 } }), ctx);
    expect(leftOut.warnings).toEqual(['no test matched the name filter: jest left out all 7 tests of the files it ran']);
  });

  it("is never a pass when jest's totals count a failure the events do not show", () => {
    const parsed = parseJest(start + test({}) + end({ totals: { tests: 1, passed: 0, failed: 1 } }), ctx);
    expect(parsed.contradictions).toEqual([{ message: 'the runner counts 1 failed tests, but 0 were reported failing', saysFailed: true }]);
  });
});
