import { describe, expect, it } from '@jest/globals';
import { asCommand, nextArgv, projectOperand, rerunArgv } from '../../../src/core/suggest.js';
import type { FailedTestRecord } from '../../../src/model/results.js';

const failure = (id: string, test_name = id): FailedTestRecord => ({ test_name, file: 'a_test.rb', line: 3, status: 'failed', message: 'x', id });
const caller = { cwd: '/w/repo', cwdGiven: false, runner: null };

describe('projectOperand', () => {
  it.each([
    ['/w/repo', []],
    ['/w/repo/packages/web', ['packages/web']],
    ['/w/repo/-web', ['./-web']],
    ['/w', []],
    ['/elsewhere', []],
  ])('of a project at %s, from /w/repo, is %j', (root, expected) => {
    expect(projectOperand('/w/repo', root)).toEqual(expected);
  });
});

describe('rerunArgv', () => {
  it('carries the id as one word, after the --cwd and --runner given, then the subproject', () => {
    expect(rerunArgv({ cwd: '/w/repo', cwdGiven: true, runner: 'mocha' }, '/w/repo/web', failure('-x y'))).toEqual(['run-tests', '--cwd', '/w/repo', '--runner', 'mocha', '--id=-x y', 'web']);
    expect(rerunArgv(caller, '/w/repo', failure('A#test_b'))).toEqual(['run-tests', '--id=A#test_b']);
  });

  it('is null for a test no command line can carry', () => {
    expect(rerunArgv(caller, '/w/repo', failure('a\0b'))).toBeNull();
    expect(rerunArgv(caller, '/w/repo', failure('ok', 'name\0'))).toBeNull();
  });
});

describe('nextArgv', () => {
  const request = { ...caller, failedOnly: false, ids: [] };
  it('reruns recorded failures, in each project that has them', () => {
    expect(nextArgv({ ...request, cwdGiven: true }, ['/w/repo/a', '/w/repo/b'], { status: 'failed', recordedFailures: true })).toEqual(['run-tests', '--cwd', '/w/repo', '--failed-only', 'a', 'b']);
    expect(nextArgv(request, ['/w/repo', '/w/repo/b'], { status: 'failed', recordedFailures: true })).toEqual(['run-tests', '--failed-only', '.', 'b']);
    expect(nextArgv(request, ['/w/repo'], { status: 'failed', recordedFailures: true })).toEqual(['run-tests', '--failed-only']);
  });

  it('suggests the whole suite after a rerun that passed or had nothing to rerun, and nothing after a full run', () => {
    expect(nextArgv({ ...request, runner: 'go', ids: ['x'] }, ['/w/repo'], { status: 'passed', recordedFailures: false })).toEqual(['run-tests', '--runner', 'go']);
    expect(nextArgv({ ...request, failedOnly: true }, ['/w/repo'], { status: 'nothing_to_rerun', recordedFailures: false })).toEqual(['run-tests']);
    expect(nextArgv({ ...request, failedOnly: true }, ['/w/repo'], { status: 'error', recordedFailures: false })).toBeNull();
    expect(nextArgv(request, ['/w/repo'], { status: 'passed', recordedFailures: false })).toBeNull();
  });

  it('is shell-quoted as a command', () => {
    expect(asCommand(['run-tests', '--cwd', "/w/it's here", '--failed-only'])).toBe("run-tests --cwd '/w/it'\\''s here' --failed-only");
    expect(asCommand(null)).toBeNull();
  });
});
