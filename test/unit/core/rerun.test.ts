import { describe, expect, it } from '@jest/globals';
import type { Runner, Invocation, PlanRequest } from '../../../src/runners/types.js';
import { planRerun, selectRerun, tooLarge, uncarriable } from '../../../src/core/rerun.js';
import type { LastFailures } from '../../../src/store/last-failures.js';
import type { FailedTestRecord } from '../../../src/model/results.js';

const record = (id: string, file: string | null = 'test/a_test.rb'): FailedTestRecord =>
  ({ id, test_name: id, file, line: 1, status: 'failed', message: 'm' });

describe('selectRerun', () => {
  const last = (failed: FailedTestRecord[], status?: 'passed' | 'error'): LastFailures => ({
    version: 2, created_at: 'x', framework: 'minitest', project_root: '/p', failed_tests: failed,
    ...(status === undefined ? {} : { last_run: { status } }),
  });

  it('selects every recorded failure, or those in the files given', () => {
    const a = record('A#a', 'test/a_test.rb');
    const b = record('B#b', 'test/models/b_test.rb');
    expect(selectRerun(last([a, b], 'error'), [], 'f')).toEqual({ selected: [a, b], runnable: [a, b], warnings: [] });
    expect(selectRerun(last([a, b], 'error'), ['test/models'], 'f')?.runnable).toEqual([b]);
  });

  it('keeps a failure no command line can carry selected, and says it will not run', () => {
    const a = record('A#a');
    const nul = record('A#\0');
    expect(selectRerun(last([a, nul]), [], 'f')).toEqual({ selected: [a, nul], runnable: [a], warnings: ['not rerun: "A#\\u0000", whose recorded id holds a NUL byte, which no command line can carry'] });
    expect(() => selectRerun(last([nul]), [], 'f')).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
  });

  it('finds nothing to rerun only after a run that passed or failed (or in a version 1 file)', () => {
    expect(selectRerun(last([], 'passed'), [], 'f')).toBeNull();
    expect(selectRerun(last([]), [], 'f')).toBeNull();
    expect(() => selectRerun(last([], 'error'), [], 'f')).toThrow(expect.objectContaining({ code: 'FAILURES_MISSING', message: expect.stringMatching(/^the last run ended as error/) }));
  });
});

describe('uncarriable', () => {
  it('finds the records with a NUL byte in their id, name or file', () => {
    const nul = [record('A#b\0c'), { ...record('A#d'), test_name: 'A#d\0' }, record('A#e', 'test/\0.rb')];
    expect(uncarriable([record('A#ok'), ...nul])).toEqual(nul);
  });
});

describe('tooLarge', () => {
  const invocation = (argv: string[], env: NodeJS.ProcessEnv = {}, thenArgv: string[][] = []): Pick<Invocation, 'argv' | 'thenArgv' | 'env'> => ({ argv, env, thenArgv });

  it('accepts ordinary commands', () => {
    expect(tooLarge(invocation(['rspec', './spec/a_spec.rb[1:2]'], { PATH: '/usr/bin' }))).toBeNull();
  });

  it('refuses one argument or variable over 120 KiB, in any of the commands', () => {
    const long = 'x'.repeat(121 * 1024);
    expect(tooLarge(invocation(['go', 'test', '-run', long]))).toMatch(/one of its arguments would be 123904 bytes long/);
    expect(tooLarge(invocation(['rake', 'test'], { RUN_TESTS_MINITEST_FILTER: long }))).toMatch(/123930 bytes long/);
    expect(tooLarge(invocation(['go'], {}, [['go', long]]))).not.toBeNull();
  });

  it('refuses many arguments that together pass 1 MiB', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `tests/test_a.py::test_${'n'.repeat(400)}_${i}`);
    expect(tooLarge(invocation(['pytest', ...ids]))).toMatch(/its arguments and environment would take \d+ bytes/);
    expect(tooLarge(invocation(['pytest', ...ids.slice(0, 1000)]))).toBeNull();
  });
});

describe('planRerun', () => {
  /** An adapter that, like minitest, puts all selected names into one variable. */
  const planned: PlanRequest[] = [];
  const adapter: Runner = {
    id: 'fake', markers: [], lookingFor: '', installHint: '', detect: () => null,
    plan(request) {
      planned.push(request);
      const filter = request.rerun?.map((t) => t.id).join('|') ?? '';
      return { argv: ['run', ...request.files], env: { FILTER: filter }, cwd: '/p', reports: [] };
    },
  };
  const request = (rerun: FailedTestRecord[], files: string[] = []) =>
    ({ root: '/p', files, name: { text: 'x', regex: false }, rerun } as unknown as PlanRequest);
  const many = (n: number, file: (i: number) => string | null) => Array.from({ length: n }, (_, i) => record(`LongNamedTest#test_${'x'.repeat(100)}_${i}`, file(i)));

  it('keeps the exact selection while it fits', () => {
    planned.length = 0;
    const { invocation, warnings } = planRerun(adapter, request([record('A#b')]));
    expect([invocation.env.FILTER, warnings, planned.length]).toEqual(['A#b', [], 1]);
  });

  it('runs the files of the failures whole when the selection does not fit', () => {
    planned.length = 0;
    const { invocation, warnings } = planRerun(adapter, request(many(2500, (i) => `test/t${i % 2}_test.rb`)));
    expect(invocation.argv).toEqual(['run', 'test/t0_test.rb', 'test/t1_test.rb']);
    expect(planned[1]).toMatchObject({ rerun: null, name: null, files: ['test/t0_test.rb', 'test/t1_test.rb'] });
    expect(warnings).toEqual([expect.stringMatching(/^the exact rerun of 2500 tests is too large for one command line \(one of its arguments would be \d+ bytes long\): their 2 file\(s\) ran whole instead$/)]);
  });

  it('runs the files given, or the whole project, when some failure has no file', () => {
    planned.length = 0;
    const { invocation, warnings } = planRerun(adapter, request(many(2500, (i) => (i === 0 ? null : 'test/a_test.rb')), ['test']));
    expect([invocation.argv, planned.length]).toEqual([['run', 'test'], 2]);
    expect(warnings).toEqual([expect.stringMatching(/and so are their files: the files given ran instead$/)]);
  });
});
