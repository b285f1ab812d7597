import { describe, expect, it } from '@jest/globals';
import { nodeTest, rerunSelections, splitNodeArgs } from '../../../../src/runners/node-test/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';
import { nodeTestId } from '../../../../src/runners/node-test/id.js';

const ROOT = '/p';
const pkg = (scripts: Record<string, string>) => ({ 'package.json': JSON.stringify({ scripts }), 'test/a.test.js': '' });
const request = (fileMap: Record<string, string>, extra: Partial<PlanRequest> = {}): PlanRequest => ({
  root: ROOT, facts: factsFromFiles(ROOT, fileMap), files: [], name: null, rerun: null,
  artifacts: artifactPaths(ROOT, 'ID'), env: { PATH: '/bin', NODE_TEST_CONTEXT: 'child-v8' }, reportersDir: '/rt/reporters', ...extra,
});
const record = (file: string | null, id: string): FailedTestRecord => ({ test_name: id, file, line: 1, status: 'failed', message: 'm', id });
const OURS = ['--test-reporter=file:///rt/reporters/node-test/reporter.mjs', '--test-reporter-destination=/p/.run-tests/runs/ID/node-test-events.jsonl'];

describe('node-test adapter', () => {
  it('detects node --test from scripts.test or from test files alone', () => {
    expect(nodeTest.detect(factsFromFiles(ROOT, pkg({ test: 'node --test' })))).toBe('scripts.test runs node --test');
    expect(nodeTest.detect(factsFromFiles(ROOT, { 'package.json': '{}', 'test/a.test.js': '' }))).toMatch(/test files found/);
  });

  it('runs the same node with the spec reporter for the log and ours for the report', () => {
    const plan = nodeTest.plan(request(pkg({ test: 'FOO=1 node --test --test-concurrency=1 test/' })));
    expect(plan.argv).toEqual([process.execPath, '--test-concurrency=1', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', ...OURS, 'test/']);
    expect(plan.env).toEqual({ PATH: '/bin', FOO: '1' });
    // Shown as the script has it: run-tests' reporters left out.
    expect([plan.shownEnv, plan.shownArgv?.(plan.argv)]).toEqual([['FOO'], ['node', '--test-concurrency=1', '--test', 'test/']]);
    const tap = nodeTest.plan(request(pkg({ test: 'node --test --test-reporter=tap' })));
    expect(tap.shownArgv?.(tap.argv)).toEqual(['node', '--test', '--test-reporter=tap', '--test-reporter-destination=stdout']);
  });

  it("keeps the script's own reporters for the log, and replaces its name pattern when selecting", () => {
    expect(splitNodeArgs(['--test-reporter', 'tap', '--test-name-pattern=x', '--enable-source-maps'])).toEqual({
      flags: ['--enable-source-maps'], reporters: [['--test-reporter=tap', '--test-reporter-destination=stdout']], patterns: ['--test-name-pattern=x'],
    });
    const plan = nodeTest.plan(request(pkg({ test: 'node --test --test-name-pattern=unit' }), { name: { text: 'a [b]', regex: false }, files: ['test/a.test.js'] }));
    expect(plan.argv.slice(-2)).toEqual(['--test-name-pattern=a \\[b\\]', './test/a.test.js']);
    expect(plan.notes).toEqual(["the script's --test-name-pattern is replaced by run-tests' selection"]);
  });

  it('reruns the outermost test of each failure by its exact name, and file-level errors by whole files', () => {
    const selections = rerunSelections([
      record('test/a.test.js', nodeTestId('test/a.test.js', ['math'], ['adds [1] (x)'])),
      record('test/a.test.js', nodeTestId('test/a.test.js', [], ['parent', 'child'])),
      record('test/b.test.js', 'test/b.test.js'),
    ]);
    expect(selections).toEqual([
      { files: ['test/a.test.js'], pattern: '^(?:adds \\[1\\] \\(x\\)|parent)$' },
      { files: ['test/b.test.js'], pattern: null },
    ]);
    const plan = nodeTest.plan(request(pkg({ test: 'node --test' }), { rerun: [record('test/a.test.js', nodeTestId('test/a.test.js', [], ['t']))] }));
    expect(plan.argv.slice(-2)).toEqual(['--test-name-pattern=^(?:t)$', './test/a.test.js']);
  });
});
