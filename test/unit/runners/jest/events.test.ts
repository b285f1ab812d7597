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
    expect(tests.filter((t) => t.status !== 'passed').map((t) => [t.status, t.name, t.line])).toEqual([
      ['error', 'load error: test/broken.test.js', 3],
      ['failed', 'math › add › adds negatives', 11],
      ['error', 'math › parses config', 16],
      // No definition lines: the launcher leaves testLocationInResults off (see launch.cjs).
      ['skipped', 'math › is skipped', null],
      ['skipped', 'math › is still to do', null],
      ['failed', 'math › fails [with] (brackets) too', 30],
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
const start = line({ type: 'start', version: 1, pid: 1, files: 1 });
const test = (over: Record<string, unknown>) => line({
  type: 'test', file, ancestors: ['A'], title: 'x', status: 'passed', location: { line: 2, column: 3 }, duration: 1, failure_messages: [], assertion: false, ...over,
});
const end = line({ type: 'end', success: true, suites: 1, runtime_error_suites: 0, tests: 1, interrupted: false });

describe('parseJest inline cases', () => {
  it('lets the file record replace the streamed test records', () => {
    const fileRecord = line({ type: 'file', file, exec_error: null, failure_message: null, tests: [{ ancestors: ['A'], title: 'x', status: 'passed', location: { line: 2 } }] });
    const parsed = parseJest(start + line({ type: 'file_start', file }) + test({}) + fileRecord + end, ctx);
    expect(parsed).toEqual({ tests: [{ id: 'test/a.test.js::A › x', name: 'A › x', file: 'test/a.test.js', line: 2, status: 'passed' }], complete: true, warnings: [] });
  });

  it('keeps going past garbage, warns on a version mismatch and on records after the end', () => {
    const parsed = parseJest(line({ type: 'start', version: 9 }) + 'not json\n' + test({}) + end + test({ title: 'late' }), ctx);
    expect(parsed.tests).toHaveLength(2);
    expect(parsed.complete).toBe(false);
    expect(parsed.warnings).toEqual([
      'jest report format version 9, expected 1',
      'jest report line 2: not valid JSON, ignored',
      'the jest report has records after its end record',
    ]);
  });

  it('is incomplete when a later run of the report did not reach its end, and reads the results of both', () => {
    const second = line({ type: 'start', version: 1, pid: 2, files: 1 }) + line({ type: 'file_start', file: '<root>/test/b.test.js' });
    const parsed = parseJest(start + test({}) + end + second, ctx);
    expect([parsed.complete, parsed.tests.map((t) => t.name)]).toEqual([false, ['A › x']]);
    expect(parsed.warnings).toEqual([
      'jest stopped while running test/b.test.js and reported no result for it: a test may have called process.exit, or the process crashed or was killed',
      'the jest report has no end record: the run did not reach its end',
    ]);
    const both = parseJest(start + test({}) + end + start + test({ title: 'y' }) + end, ctx);
    expect([both.complete, both.warnings, both.tests.map((t) => t.name)]).toEqual([true, [], ['A › x', 'A › y']]);
  });

  it('strips ANSI colours and stack frames from messages, and is interrupted when jest says so', () => {
    const message = '\u001b[31mError: expect(received).toBe(expected)\u001b[39m\n\nExpected: 1\n    at Object.toBe (<root>/test/a.test.js:7:9)';
    const parsed = parseJest(start + test({ status: 'failed', failure_messages: [message], assertion: true }) + line({ type: 'end', interrupted: true }), ctx);
    expect(parsed.tests[0]).toMatchObject({ status: 'failed', line: 7, message: 'expect(received).toBe(expected)\n\nExpected: 1' });
    expect(parsed.complete).toBe(false);
  });
});
