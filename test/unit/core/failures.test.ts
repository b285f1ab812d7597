import { describe, expect, it } from '@jest/globals';
import { capFailures, isSameTest, nextFailures, notRun, placeFailures, recordOf, toRecord } from '../../../src/core/failures.js';
import { boundMessage } from '../../../src/parsers/fields.js';
import type { FailedTest, FailedTestRecord, TestResult, TestStatus } from '../../../src/model/results.js';

const record = (id: string, file: string | null = 'test/a_test.rb'): FailedTestRecord =>
  ({ id, test_name: id, file, line: 3, status: 'failed', message: 'm' });
const result = (id: string, status: TestStatus, file = 'test/a_test.rb'): TestResult =>
  status === 'failed' || status === 'error'
    ? { id, name: id, file, line: 4, status, message: 'now' }
    : { id, name: id, file, line: 4, status };

describe('nextFailures', () => {
  it('takes a complete whole-suite run as the whole truth', () => {
    expect(nextFailures([record('A#old')], [result('A#b', 'failed')], true).map((r) => r.id)).toEqual(['A#b']);
  });

  it('keeps earlier failures a narrower run did not reach, and drops those that now pass', () => {
    const next = nextFailures([record('A#old'), record('A#fixed')], [result('A#fixed', 'passed'), result('A#b', 'error')], false);
    expect(next.map((r) => [r.id, r.status])).toEqual([['A#b', 'error'], ['A#old', 'failed']]);
  });

  it('treats a file-level entry (load error) as covered when a test of that file ran', () => {
    const loadError = record('spec/broken_spec.rb', 'spec/broken_spec.rb');
    expect(nextFailures([loadError], [result('x', 'passed', 'spec/broken_spec.rb')], false)).toEqual([]);
    expect(notRun([loadError], [result('x', 'passed', 'spec/other_spec.rb')])).toEqual([loadError]);
  });
});

describe('isSameTest', () => {
  const rec = (file: string | null, id = 'X#t'): FailedTestRecord => ({ ...record(id, file), test_name: 'X#t' });
  const res = (file: string | null, id = 'X#t', name = 'X#t'): TestResult => ({ id, name, file, line: 1, status: 'passed' });

  it('needs the same name, and the same file where both are known', () => {
    expect(isSameTest(rec('a.rb'), res('a.rb', 'other id'))).toBe(true);
    expect(isSameTest(rec('a.rb'), res('a.rb', 'X#t', 'X#u'))).toBe(false);
    expect(isSameTest(rec('a.rb'), res('b.rb'))).toBe(false);
  });

  it('needs the same id where a side has no file', () => {
    expect([isSameTest(rec(null), res('a.rb')), isSameTest(rec('a.rb'), res(null)), isSameTest(rec(null), res(null, 'p2 X#t'))]).toEqual([true, true, false]);
  });

  it('goes by name and id alone for a runner whose file is where a failure happened', () => {
    expect(isSameTest(rec('helper_test.go', 'p X#t'), res('x_test.go', 'p X#t'), 'name-and-id')).toBe(true);
    expect(isSameTest(rec('x_test.go', 'p X#t'), res('x_test.go', 'q X#t'), 'name-and-id')).toBe(false);
  });
});

describe('notRun with an adapter\'s rule', () => {
  it('settles a package-level record by the rule, and leaves the rest to identity', () => {
    const build = { ...record('example.com/m', 'm_test.go'), test_name: 'build failed: example.com/m' };
    const rules = { covers: (r: FailedTestRecord, t: TestResult) => !r.id.includes(' ') && t.id.startsWith(`${r.id} `) };
    expect(notRun([build], [result('example.com/m TestA', 'passed', 'x')], rules)).toEqual([]);
    expect(notRun([build], [result('example.com/other TestA', 'passed', 'x')], rules)).toEqual([build]);
  });
});

describe('placeFailures', () => {
  const unplaced = (id: string): TestResult => ({ id, name: id, file: null, line: null, status: 'failed', message: 'm' });

  it('places failures without a line, with or without a file, and leaves everything else as it was', async () => {
    const lineless: TestResult = { ...unplaced('p --test api t'), file: 'tests/api.rs' };
    const tests = [unplaced('p ExampleA'), result('p TestB', 'failed'), { id: 'p TestC', name: 'TestC', file: null, line: null, status: 'passed' as const }, lineless];
    const asked: string[] = [];
    const placed = await placeFailures(tests, async (failure) => {
      asked.push(failure.id);
      return { file: 'a_test.go', line: 7 };
    });
    expect(asked).toEqual(['p ExampleA', 'p --test api t']);
    expect(placed).toEqual([{ ...tests[0], file: 'a_test.go', line: 7 }, tests[1], tests[2], { ...lineless, file: 'a_test.go', line: 7 }]);
  });

  it('keeps a failure unplaced when its lookup finds nothing or fails', async () => {
    const tests = [unplaced('p ExampleA'), unplaced('p ExampleB')];
    const placed = await placeFailures(tests, async (failure) => {
      if (failure.id === 'p ExampleA') throw new Error('unreadable');
      return null;
    });
    expect(placed).toEqual(tests);
  });

  it('returns the results themselves when there is nothing to place or no lookup', async () => {
    const tests = [result('A#b', 'failed')];
    expect(await placeFailures(tests, async () => ({ file: 'x', line: 1 }))).toBe(tests);
    expect(await placeFailures([unplaced('A#c')], null)).toEqual([unplaced('A#c')]);
  });
});

describe('capFailures', () => {
  const listed = ['A#1', 'A#2', 'A#3'].map((id) => record(id));

  it('lists the first `max` failures and says how many it left out', () => {
    expect(capFailures(listed, 2)).toEqual({ failed_tests: listed.slice(0, 2), truncated: { failed_tests: 1 } });
  });

  it('says nothing of truncation when all fit, or with no cap', () => {
    expect(capFailures(listed, 3)).toEqual({ failed_tests: listed });
    expect(capFailures(listed, null)).toEqual({ failed_tests: listed });
  });

  it('adds the failures left out before (a project of a merged report) to those it leaves out', () => {
    expect(capFailures(listed, 3, 4)).toEqual({ failed_tests: listed, truncated: { failed_tests: 4 } });
    expect(capFailures(listed, 1, 4)).toEqual({ failed_tests: listed.slice(0, 1), truncated: { failed_tests: 6 } });
  });
});

describe('recordOf', () => {
  const long = { ...result('A#long', 'failed'), message: boundMessage(Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n')) } as FailedTest;

  it('says where the full text of a cut message is, and carries the stack, null where the runner gave none', () => {
    const kept = recordOf('/p/.run-tests/runs/x/test.log')({ ...long, stack: [{ file: 'test/a.js', line: 3, function: null }] });
    expect(kept.message).toMatch(/\n… \d+ more lines in \/p\/\.run-tests\/runs\/x\/test\.log$/);
    expect(kept.stack).toEqual([{ file: 'test/a.js', line: 3, function: null }]);
    expect(toRecord(long).message).toMatch(/\n… \d+ more lines$/);
    expect(toRecord(long).stack).toBeNull();
  });
});
