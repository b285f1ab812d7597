import { describe, expect, it } from '@jest/globals';
import { jest } from '../../../../src/runners/jest/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { HarnessError } from '../../../../src/model/errors.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';

const ROOT = '/p';
const request = (files: Record<string, string>, over: Partial<PlanRequest> = {}): PlanRequest => ({
  root: ROOT,
  facts: factsFromFiles(ROOT, { 'node_modules/jest/package.json': '{"version":"30.5.2"}', ...files }),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths(ROOT, 'ID'),
  env: { PATH: '/bin' },
  reportersDir: '/rt/reporters',
  ...over,
});
const pkg = (test: string): Record<string, string> => ({ 'package.json': JSON.stringify({ scripts: { test }, devDependencies: { jest: '30' } }) });
const HEAD = ['node', '/rt/reporters/jest/launch.cjs', '--package', '/p/node_modules/jest', '--report', '/p/.run-tests/runs/ID/jest-events.jsonl'];
const record = (file: string | null, name: string, id = `${file}::${name}`): FailedTestRecord => ({ test_name: name, file, line: 1, status: 'failed', message: 'm', id });

describe('jest adapter', () => {
  it('runs `kcd-scripts test` as jest, with kcd-scripts\' config unless the project has its own', () => {
    const files = { 'package.json': JSON.stringify({ scripts: { test: 'kcd-scripts test --ci' } }), 'node_modules/kcd-scripts/jest.js': '' };
    expect(jest.detect(factsFromFiles(ROOT, files))).toBe("scripts.test runs jest: the project's own jest, through run-tests' launcher");
    expect(jest.plan(request(files)).argv).toEqual([...HEAD, '--', '--config', '/p/node_modules/kcd-scripts/jest.js', '--rootDir', '/p', '--ci']);
    expect(jest.plan(request({ ...files, 'jest.config.js': '' })).argv).toEqual([...HEAD, '--', '--ci']);
    expect(jest.plan(request({ 'package.json': JSON.stringify({ scripts: { test: 'kcd-scripts test' }, jest: {} }) })).argv).toEqual([...HEAD, '--']);
    expect(() => jest.plan(request({ 'package.json': JSON.stringify({ scripts: { test: 'kcd-scripts test' } }) }))).toThrow(/no node_modules\/kcd-scripts\/jest\.js/);
  });

  it('detects jest through chooseNodeRunner only', () => {
    expect(jest.detect(factsFromFiles(ROOT, pkg('jest')))).toBe("scripts.test runs jest: the project's own jest, through run-tests' launcher");
    expect(jest.detect(factsFromFiles(ROOT, pkg('make test')))).toBe("package.json lists jest in devDependencies: the project's own jest, through run-tests' launcher");
    expect(jest.detect(factsFromFiles(ROOT, { 'package.json': JSON.stringify({ devDependencies: { vitest: '4', jest: '30' } }) }))).toBeNull();
  });

  it('runs the launcher with the script node flags, env and arguments, and reads our reporter', () => {
    const plan = jest.plan(request(pkg('cross-env TZ=UTC node --experimental-vm-modules node_modules/jest/bin/jest.js --ci')));
    expect(plan.argv).toEqual(['node', '--experimental-vm-modules', ...HEAD.slice(1), '--', '--ci']);
    expect(plan.env).toEqual({ PATH: '/bin', TZ: 'UTC' });
    expect(plan.shownEnv).toEqual(['TZ']);
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/jest-events.jsonl', parser: 'jest' }]);
    expect(plan.notes).toBeUndefined();
  });

  it('says so when scripts.test is not a plain jest command', () => {
    const plan = jest.plan(request(pkg('jest --ci | tee out')));
    expect(plan.argv).toEqual([...HEAD, '--']);
    expect(plan.notes).toEqual(['scripts.test is a shell command line ("jest --ci | tee out"); run-tests runs the runner directly instead']);
  });

  it('gives files as absolute paths and --name as an escaped substring or a regex', () => {
    const plain = jest.plan(request(pkg('jest'), { files: ['test/a.test.js'], name: { text: 'adds [1] (x)', regex: false } }));
    expect(plain.argv).toEqual([...HEAD, '--path', '/p/test/a.test.js', '--name', 'adds \\[1\\] \\(x\\)', '--']);
    expect(jest.plan(request(pkg('jest'), { name: { text: '^a|b', regex: true } })).argv).toEqual([...HEAD, '--name', '^a|b', '--']);
  });

  it('reruns failures by their files and an anchored alternation of space-joined names', () => {
    const plan = jest.plan(request(pkg('jest'), { rerun: [record('test/a.test.js', 'math › add (1) › [x]'), record('test/b.test.js', 'top')] }));
    expect(plan.argv).toEqual([...HEAD, '--path', '/p/test/a.test.js', '--path', '/p/test/b.test.js', '--name', '^(?:math add \\(1\\) \\[x\\]|top)$', '--']);
    const name = plan.argv[plan.argv.indexOf('--name') + 1] ?? '';
    expect(new RegExp(name, 'i').test('math add (1) [x]')).toBe(true);
    expect(new RegExp(name, 'i').test('math add (1) [x] and more')).toBe(false);
  });

  it('reruns the failed tests exactly, then a load error file whole in a second jest, into the same report', () => {
    const plan = jest.plan(request(pkg('jest --ci'), { rerun: [record('test/broken.test.js', 'load error: test/broken.test.js', 'test/broken.test.js'), record('test/a.test.js', 'x')] }));
    expect(plan.argv).toEqual([...HEAD, '--path', '/p/test/a.test.js', '--name', '^(?:x)$', '--', '--ci']);
    expect(plan.thenArgv).toEqual([[...HEAD, '--path', '/p/test/broken.test.js', '--', '--ci']]);
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/jest-events.jsonl', parser: 'jest' }]);
  });

  it('is one command when a rerun has only test entries, or only file-level ones', () => {
    expect(jest.plan(request(pkg('jest'), { rerun: [record('test/a.test.js', 'x')] })).thenArgv).toBeUndefined();
    const whole = jest.plan(request(pkg('jest'), { rerun: [record('test/broken.test.js', 'load error: test/broken.test.js', 'test/broken.test.js')] }));
    expect([whole.argv, whole.thenArgv]).toEqual([[...HEAD, '--path', '/p/test/broken.test.js', '--'], undefined]);
  });

  it('is RUNNER_MISSING when no node_modules/jest is found upwards', () => {
    const facts = factsFromFiles(ROOT, pkg('jest'));
    expect(() => jest.plan({ ...request({}), facts })).toThrow(HarnessError);
    try {
      jest.plan({ ...request({}), facts });
    } catch (error) {
      expect((error as HarnessError).code).toBe('RUNNER_MISSING');
    }
  });
});
