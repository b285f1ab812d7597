import { describe, expect, it } from '@jest/globals';
import { minitestSelectedByName } from '../../../src/ecosystems/ruby.js';
import { rspec } from '../../../src/runners/rspec/runner.js';
import { checkName } from '../../../src/core/name-check.js';
import type { TestResult } from '../../../src/model/results.js';

const test = (name: string): TestResult => ({ id: name, name, file: null, line: null, status: 'passed' });
const minitestLike = { selectedByName: minitestSelectedByName };

describe('checkName', () => {
  it('says nothing without --name, for a regex, or for a runner that cannot tell', () => {
    expect(checkName(null, minitestLike, [test('A#test_b')], 'passed')).toEqual({ warnings: [], dropped: false });
    expect(checkName({ text: '/x/', regex: true }, minitestLike, [test('A#test_b')], 'passed').dropped).toBe(false);
    expect(checkName({ text: 'x', regex: false }, {}, [test('A#test_b')], 'passed').dropped).toBe(false);
  });

  it('says a --name that ran nothing matched nothing', () => {
    expect(checkName({ text: 'x y', regex: false }, {}, [], 'no_tests').warnings).toEqual(['no test matched --name "x y"']);
    // Once: a runner's report that already said so (jest, vitest: what the filter left out) is enough.
    expect(checkName({ text: 'x y', regex: false }, {}, [], 'no_tests', ['no test matched the name filter: jest left out all 7 tests of the files it ran']).warnings).toEqual([]);
  });

  it('flags tests the runner\'s filter does not select', () => {
    const tests = [test('A#test_b'), test('A#test_c'), test('Sum adds')];
    expect(checkName({ text: 'test_b', regex: false }, minitestLike, tests, 'passed')).toEqual({
      warnings: ['the runner ran 2 tests that do not match --name "test_b" (e.g. "A#test_c"): it may have dropped the filter'],
      dropped: true,
    });
  });

  it('matches as minitest does: a substring of Class#name, a space also matching _, regexp characters literal', () => {
    expect(minitestSelectedByName('divides [integers] (rounding', test('CalcTest#test_divides_[integers]_(rounding_down)'))).toBe(true);
    expect(minitestSelectedByName('Calc', test('CalcTest#test_x'))).toBe(true);
    expect(minitestSelectedByName('a.b', test('CalcTest#test_axb'))).toBe(false);
  });

  it('matches as rspec --example does: a substring of the full description', () => {
    expect(rspec.selectedByName?.('adds [1]', test('Calc adds [1] (x)'))).toBe(true);
    expect(rspec.selectedByName?.('adds_1', test('Calc adds 1'))).toBe(false);
  });
});
