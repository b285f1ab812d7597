import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseVitest } from '../../../../src/runners/vitest/events.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/vitest/', import.meta.url));
const ctx = { root: '<root>' };
const read = (name: string): string => readFileSync(outputs + name, 'utf8');
const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;

describe('parseVitest on recorded reporter output', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).sort();

  it('has the recorded cases', () => {
    expect(cases).toEqual(['exit.jsonl', 'filtered.jsonl', 'hook.jsonl', 'mixed.jsonl', 'rerun.jsonl', 'truncated.jsonl']);
  });

  it.each(cases)('%s matches its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.jsonl$/, '.expected.json'), parseVitest(read(file), ctx));
  });

  it('keeps the timeout message, TypeScript lines and the load error', () => {
    const { tests, complete } = parseVitest(read('mixed.jsonl'), ctx);
    expect(complete).toBe(true);
    expect(tests.find((t) => t.name === 'math > times out')).toMatchObject({ status: 'error', line: 37 });
    expect(tests.find((t) => t.name === 'math > times out' && 'message' in t && (t.message ?? '').startsWith('Error: Test timed out in 50ms.'))).toBeDefined();
    expect(tests.find((t) => t.id === 'test/broken.test.ts')).toMatchObject({ name: 'load error: test/broken.test.ts', line: 3, status: 'error' });
  });

  it('reads the two vitest runs of a rerun appended to one report as one complete report', () => {
    const parsed = parseVitest(read('rerun.jsonl'), ctx);
    expect([parsed.complete, parsed.warnings]).toEqual([true, []]);
    expect(parsed.tests.map((t) => [t.name, t.status])).toEqual([
      ['subtracts wrongly', 'failed'], ['store > when connected > reads', 'skipped'], ['store > counts', 'passed'], ['store > when connected', 'error'],
    ]);
  });

  it('is incomplete when a worker died in a file that never finished', () => {
    const parsed = parseVitest(read('exit.jsonl'), ctx);
    expect(parsed.complete).toBe(false);
    expect(parsed.tests.map((t) => [t.name, t.status])).toContainEqual(['unhandled error', 'error']);
  });
});

describe('parseVitest inline cases', () => {
  const file = '<root>/test/a.test.ts';
  const start = line({ event: 'run_start', schema: 1, runner: 'vitest', runner_version: '4.0.0', pid: 1, files: 1 });
  const end = (over: Record<string, unknown> = {}) => line({ event: 'run_end', pid: 1, totals: { tests: 1, failed: 0, errors: 1 }, interrupted: false, ...over });

  it('reports a suite whose hook failed, and ties the error to the frame in the file; its id is its file\'s', () => {
    const hook = line({ event: 'error', kind: 'hook', name: 'outer > inner', file, line: 4, message: 'TypeError: boom', stack: '    at <root>/src/x.ts:1:1\n    at <root>/test/a.test.ts:6:3' });
    expect(parseVitest(start + line({ event: 'file_start', file }) + hook + line({ event: 'file_end', file }) + end(), ctx)).toEqual({
      // -t cannot select a suite: a rerun runs the file, as for a load error.
      tests: [{ id: 'test/a.test.ts', name: 'outer > inner', file: 'test/a.test.ts', line: 6, status: 'error', outside: true, message: 'TypeError: boom', stack: [{ file: 'src/x.ts', line: 1, function: null }, { file: 'test/a.test.ts', line: 6, function: null }] }],
      complete: true,
      warnings: [],
    });
  });

  it('ties an unhandled error to its first frame in the project, outside node_modules', () => {
    const stack = '    at <root>/node_modules/vitest/x.js:1:1\n    at <root>/src/y.ts:9:2';
    const parsed = parseVitest(start + line({ event: 'error', id: 'unhandled error', name: 'unhandled error', message: 'Error: late', stack }) + end(), ctx);
    // The stack keeps the project's frames only: node_modules is left out.
    expect(parsed.tests).toEqual([{ id: 'unhandled error', name: 'unhandled error', file: 'src/y.ts', line: 9, status: 'error', outside: true, message: 'Error: late', stack: [{ file: 'src/y.ts', line: 9, function: null }] }]);
  });

  it('is incomplete when vitest says the run was interrupted', () => {
    const parsed = parseVitest(start + end({ totals: {}, interrupted: true }), ctx);
    expect(parsed.complete).toBe(false);
    expect(parsed.warnings).toEqual(['vitest reports that the run was interrupted']);
  });
});
