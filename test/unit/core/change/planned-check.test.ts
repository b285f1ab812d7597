import { describe, expect, it } from '@jest/globals';
import { plannedCheck } from '../../../../src/core/change/planned-check.js';
import type { TestResult } from '../../../../src/model/results.js';

const test = (name: string, file: string | null): TestResult => ({ id: name, name, file, line: null, status: 'passed' });
const byFile = (t: TestResult) => t.file;

describe('plannedCheck', () => {
  it('is silent when every planned unit ran and nothing else did', () => {
    expect(plannedCheck(new Set(['a.test.js', 'b.test.js']), [test('x', 'a.test.js'), test('y', 'b.test.js')], byFile, false)).toEqual({ outside: [], idle: [] });
  });

  it('names the units that ran outside the plan, and the planned ones that ran no test; a test of no known unit is neither', () => {
    const got = plannedCheck(new Set(['a.test.js', 'b.test.js']), [test('x', 'a.test.js'), test('z', 'c.test.js'), test('w', null)], byFile, false);
    expect(got).toEqual({
      outside: ['--changed: tests ran in 1 unit(s) the plan did not select: c.test.js'],
      idle: ['--changed: 1 planned unit(s) ran no test: b.test.js'],
    });
  });

  it('under --name, a planned unit without a test is expected', () => {
    expect(plannedCheck(new Set(['a.test.js', 'b.test.js']), [test('x', 'a.test.js')], byFile, true)).toEqual({ outside: [], idle: [] });
  });
});
