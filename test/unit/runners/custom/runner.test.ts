import { describe, expect, it } from '@jest/globals';
import { CAPTURED_TAP, customRunner } from '../../../../src/runners/custom/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { HarnessError } from '../../../../src/model/errors.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';

const request = (over: Partial<PlanRequest> = {}): PlanRequest => ({
  root: '/p',
  facts: factsFromFiles('/p', { 'package.json': '{}' }),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths('/p', 'ID'),
  env: { PATH: '/bin', CI: '1' },
  reportersDir: '/pkg/reporters',
  ...over,
});

const junit = customRunner({ argv: ['pytest', '-q', '--junitxml=out/r.xml'], report: { format: 'junit', path: '/p/out/r.xml' } });
const tapStdout = customRunner({ argv: ['node', '--test', '--test-reporter=tap'], report: { format: 'tap', path: '-' } });

describe('customRunner', () => {
  it('is never detected and says what to check when the command is missing', () => {
    expect(junit.id).toBe('custom');
    expect(junit.detect(factsFromFiles('/p', { 'package.json': '{}', 'pytest.ini': '' }))).toBeNull();
    expect(junit.markers).toEqual([]);
    expect(junit.installHint).toBe('check the --command');
  });

  it('runs the command as given, in the root, with the caller\'s environment, reading the file report', () => {
    const env = { PATH: '/bin', CI: '1' };
    expect(junit.plan(request({ env }))).toEqual({
      argv: ['pytest', '-q', '--junitxml=out/r.xml'],
      env,
      cwd: '/p',
      reports: [{ path: '/p/out/r.xml', parser: 'junit' }],
    });
  });

  it('reads TAP on stdout from a copy of the output in the artifacts directory', () => {
    const plan = tapStdout.plan(request());
    expect(plan.reports).toEqual([{ path: `/p/.run-tests/runs/ID/${CAPTURED_TAP}`, parser: 'tap' }]);
    expect(plan.captureOutput).toBe('/p/.run-tests/runs/ID/custom-report.tap');
  });

  it('appends the files given to the command', () => {
    expect(junit.plan(request({ files: ['tests/test_a.py', 'tests/b dir'] })).argv).toEqual(['pytest', '-q', '--junitxml=out/r.xml', 'tests/test_a.py', 'tests/b dir']);
    expect(junit.plan(request({ files: ['--evil', '-x.py'] })).argv).toEqual(['pytest', '-q', '--junitxml=out/r.xml', './--evil', './-x.py']);
  });

  it('refuses --name and --failed-only, whose meaning it cannot know', () => {
    const attempt = (over: Partial<PlanRequest>) => {
      try {
        junit.plan(request(over));
      } catch (error) {
        expect(error).toBeInstanceOf(HarnessError);
        return `${(error as HarnessError).code}: ${(error as HarnessError).message}`;
      }
      return 'no error';
    };
    expect(attempt({ name: { text: 'adds', regex: false } })).toBe('USAGE: --name "adds" cannot select tests of a --command: run-tests does not know its filter syntax; put the filter in the command');
    expect(attempt({ rerun: [{ id: 'a', test_name: 'a', file: null, line: null, status: 'failed', message: 'm' }] })).toBe(
      'USAGE: --failed-only cannot rerun tests of a --command: run-tests does not know how to select them; put the selection in the command',
    );
  });
});
