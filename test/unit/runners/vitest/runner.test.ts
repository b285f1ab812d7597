import { describe, expect, it } from '@jest/globals';
import { vitest } from '../../../../src/runners/vitest/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';

const ROOT = '/p';
const request = (files: Record<string, string>, over: Partial<PlanRequest> = {}): PlanRequest => ({
  root: ROOT,
  facts: factsFromFiles(ROOT, { 'node_modules/vitest/package.json': '{"version":"4.1.12"}', ...files }),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths(ROOT, 'ID'),
  env: {},
  reportersDir: '/rt/reporters',
  ...over,
});
const pkg = (test: string, deps: Record<string, string> = { vitest: '4' }): Record<string, string> => ({ 'package.json': JSON.stringify({ scripts: { test }, devDependencies: deps }) });
const HEAD = ['node', '/rt/reporters/vitest/launch.mjs', '--package', '/p/node_modules/vitest', '--report', '/p/.run-tests/runs/ID/vitest-events.jsonl'];

describe('vitest adapter', () => {
  it('detects vitest before jest by dependency, and what scripts.test runs before either', () => {
    expect(vitest.detect(factsFromFiles(ROOT, pkg('make test', { jest: '30', vitest: '4' })))).toBe("package.json lists vitest in devDependencies: the project's own vitest (`vitest run`), through run-tests' launcher");
    expect(vitest.detect(factsFromFiles(ROOT, pkg('jest', { jest: '30', vitest: '4' })))).toBeNull();
    expect(vitest.detect(factsFromFiles(ROOT, pkg('vitest run', { jest: '30', vitest: '4' })))).toBe("scripts.test runs vitest: the project's own vitest (`vitest run`), through run-tests' launcher");
    expect(vitest.detect(factsFromFiles(ROOT, pkg('jest', { jest: '30' })))).toBeNull();
  });

  it('keeps the script arguments and environment', () => {
    const plan = vitest.plan(request(pkg('GREETING=hello vitest run --pool threads')));
    expect(plan.argv).toEqual([...HEAD, '--', 'run', '--pool', 'threads']);
    expect(plan.env).toEqual({ GREETING: 'hello' });
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/vitest-events.jsonl', parser: 'vitest' }]);
  });

  it('is shown as vitest\'s own command: run once, the script\'s arguments, the paths, -t', () => {
    const shown = (files: Record<string, string>, over: Partial<PlanRequest> = {}) => {
      const plan = vitest.plan(request({ ...files, 'node_modules/.bin/vitest': '', 'test/unit/x.test.ts': '' }, over));
      return [plan.argv, ...(plan.thenArgv ?? [])].map((argv) => plan.shownArgv?.(argv));
    };
    expect(shown(pkg('vitest --pool threads'))).toEqual([['npx', 'vitest', 'run', '--pool', 'threads']]);
    expect(shown(pkg('vitest watch'))).toEqual([['npx', 'vitest', 'run']]);
    expect(shown(pkg('vitest run'), { files: ['test/unit', '-x.test.ts'], name: { text: 'a (b)', regex: false } }))
      .toEqual([['npx', 'vitest', 'run', 'test/unit/', './-x.test.ts', '-t', 'a \\(b\\)']]);
    expect(shown(pkg('vitest run'), { name: { text: '-x', regex: false } })).toEqual([['npx', 'vitest', 'run', '--testNamePattern=-x']]);
    expect(shown(pkg('node --expose-gc node_modules/vitest/vitest.mjs run'))).toEqual([['node', '--expose-gc', '/p/node_modules/vitest/vitest.mjs', 'run']]);
  });

  it('notes a script that runs another runner, and drops its arguments', () => {
    const plan = vitest.plan(request(pkg('jest --ci')));
    expect(plan.argv).toEqual([...HEAD, '--']);
    expect(plan.notes).toEqual(['scripts.test runs jest, not vitest; run-tests runs vitest without the script\'s arguments']);
  });

  it('reruns failures by files and exact names split on " > "', () => {
    const rerun: FailedTestRecord[] = [{ test_name: 'math > fails [with] (brackets) too', file: 'test/m.test.ts', line: 3, status: 'failed', message: 'm', id: 'test/m.test.ts::math > fails [with] (brackets) too' }];
    expect(vitest.plan(request(pkg('vitest'), { rerun })).argv)
      .toEqual([...HEAD, '--path', '/p/test/m.test.ts', '--name', '^(?:math fails \\[with\\] \\(brackets\\) too)$', '--']);
  });

  it('reruns a failed hook\'s file whole in a second vitest, after the exact selection', () => {
    const rerun: FailedTestRecord[] = [
      { test_name: 'store > when connected', file: 'test/hook.test.ts', line: 8, status: 'error', message: 'm', id: 'test/hook.test.ts' },
      { test_name: 'subtracts wrongly', file: 'test/other.test.ts', line: 4, status: 'failed', message: 'm', id: 'test/other.test.ts::subtracts wrongly' },
    ];
    const plan = vitest.plan(request(pkg('vitest run'), { rerun }));
    expect(plan.argv).toEqual([...HEAD, '--path', '/p/test/other.test.ts', '--name', '^(?:subtracts wrongly)$', '--', 'run']);
    expect(plan.thenArgv).toEqual([[...HEAD, '--path', '/p/test/hook.test.ts', '--', 'run']]);
  });
});
