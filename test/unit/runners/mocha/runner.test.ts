import { describe, expect, it } from '@jest/globals';
import { mocha, rerunSelections } from '../../../../src/runners/mocha/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';

const ROOT = '/p';
const files = (scripts: Record<string, string>) => ({
  'package.json': JSON.stringify({ scripts, devDependencies: { mocha: '^11' } }),
  'node_modules/mocha/package.json': '{"version":"11.8.0"}',
  'node_modules/.bin/mocha': '',
});
const request = (fileMap: Record<string, string>, extra: Partial<PlanRequest> = {}): PlanRequest => ({
  root: ROOT, facts: factsFromFiles(ROOT, fileMap), files: [], name: null, rerun: null,
  artifacts: artifactPaths(ROOT, 'ID'), env: { PATH: '/bin' }, reportersDir: '/rt/reporters', ...extra,
});
const record = (file: string | null, id: string): FailedTestRecord => ({ test_name: id, file, line: 1, status: 'failed', message: 'm', id });

describe('mocha adapter', () => {
  it('detects mocha from package.json', () => {
    expect(mocha.detect(factsFromFiles(ROOT, files({})))).toBe('package.json lists mocha in devDependencies');
    expect(mocha.detect(factsFromFiles(ROOT, { 'package.json': '{"devDependencies":{"jest":"1"}}' }))).toBeNull();
  });

  it("keeps the script's env and arguments before --run-tests, and adds only after it", () => {
    const plan = mocha.plan(request(files({ test: 'NODE_ENV=test mocha --require ./test/setup.js spec/' }), { files: ['spec/a.spec.js'], name: { text: 'a (b)', regex: false } }));
    expect(plan.argv).toEqual([
      'node', '/rt/reporters/mocha/launcher.cjs', '--require', './test/setup.js', 'spec/',
      '--run-tests', '--mocha', '/p/node_modules/mocha', '--bin', '/p/node_modules/.bin/mocha', '--report', '/p/.run-tests/runs/ID/mocha-events.jsonl',
      '--grep', 'a \\(b\\)', './spec/a.spec.js',
    ]);
    expect(plan.env).toEqual({ PATH: '/bin', NODE_ENV: 'test' });
    expect(plan.notes).toEqual([]);
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/mocha-events.jsonl', parser: 'mocha' }]);
  });

  it('is shown as mocha\'s own command: the script\'s arguments (its spec left out for files), the grep, the files', () => {
    const scripted = files({ test: 'NODE_ENV=test mocha --require ./test/setup.js spec/' });
    const shown = (extra: Partial<PlanRequest>) => {
      const plan = mocha.plan(request(scripted, extra));
      return [plan.shownEnv, plan.shownArgv?.(plan.argv)];
    };
    expect(shown({})).toEqual([['NODE_ENV'], ['npx', 'mocha', '--require', './test/setup.js', 'spec/']]);
    expect(shown({ files: ['spec/a.spec.js'], name: { text: 'a (b)', regex: false } }))
      .toEqual([['NODE_ENV'], ['npx', 'mocha', '--require', './test/setup.js', '--grep', 'a \\(b\\)', './spec/a.spec.js']]);
    expect(shown({ name: { text: '--x', regex: false } })?.[1]).toEqual(['npx', 'mocha', '--require', './test/setup.js', 'spec/', '--grep=--x']);
    const flags = files({ test: 'node --enable-source-maps node_modules/.bin/mocha' });
    const plan = mocha.plan(request(flags));
    expect(plan.shownArgv?.(plan.argv)).toEqual(['node', '--enable-source-maps', '/p/node_modules/.bin/mocha']);
  });

  it('says why it does not use the script', () => {
    expect(mocha.plan(request(files({ test: 'mocha | tee log' }))).notes?.[0]).toMatch(/shell command line/);
    expect(mocha.plan(request(files({ test: 'mocha spec && eslint .' }))).notes).toEqual(['scripts.test ("mocha spec && eslint .") runs mocha; run-tests runs only that command, with its arguments: the rest is not run']);
    expect(mocha.plan(request(files({}))).notes).toEqual(['package.json has no scripts.test; run-tests runs mocha with its configuration files']);
  });

  it('fails with RUNNER_MISSING when mocha is not installed', () => {
    expect(() => mocha.plan(request({ 'package.json': '{"devDependencies":{"mocha":"1"}}' }))).toThrow(expect.objectContaining({ code: 'RUNNER_MISSING' }));
  });

  it('reruns tests by an exact grep and file-level errors by whole files, in a second mocha', () => {
    const selections = rerunSelections([
      record('spec/a.spec.js', 'spec/a.spec.js::math adds [1] (x)'),
      record('spec/a.spec.js', 'spec/a.spec.js::math b.c'),
      record('spec/b.spec.js', 'spec/b.spec.js'),
      record('spec/b.spec.js', 'spec/b.spec.js::other'),
    ]);
    expect(selections).toEqual([
      { files: ['spec/a.spec.js'], grep: '^(?:math adds \\[1\\] \\(x\\)|math b\\.c)$' },
      { files: ['spec/b.spec.js'], grep: null },
    ]);
    expect(new RegExp(selections[0]?.grep ?? '').test('math adds [1] (x)')).toBe(true);
    expect(new RegExp(selections[0]?.grep ?? '').test('math adds [1] (x) more')).toBe(false);
    const plan = mocha.plan(request(files({ test: 'mocha' }), { rerun: [record('spec/a.spec.js', 'spec/a.spec.js::t'), record('spec/b.spec.js', 'spec/b.spec.js')] }));
    expect(plan.argv.slice(-3)).toEqual(['--grep', '^(?:t)$', './spec/a.spec.js']);
    expect(plan.thenArgv?.[0]?.slice(-1)).toEqual(['./spec/b.spec.js']);
  });

  it('reruns the whole suite for a failure tied to no file', () => {
    expect(rerunSelections([record(null, '::outside')])).toEqual([{ files: [], grep: null }]);
  });
});
