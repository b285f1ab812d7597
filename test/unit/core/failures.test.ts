import { describe, expect, it } from '@jest/globals';
import { nextFailures, notRun } from '../../../src/core/failures.js';
import type { FailedTestRecord, TestResult } from '../../../src/core/types.js';

const record = (id: string, file: string | null = 'test/a_test.rb'): FailedTestRecord =>
  ({ id, test_name: id, file, line: 3, status: 'failed', message: 'm' });
const result = (id: string, status: TestResult['status'], file = 'test/a_test.rb'): TestResult =>
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
