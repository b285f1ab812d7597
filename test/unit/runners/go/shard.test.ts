import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { go } from '../../../../src/runners/go/runner.js';
import type { PlanRequest, ShardSupport } from '../../../../src/runners/types.js';
import { factsFromFiles, readProjectFacts } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import { copyFixture, hasTools } from '../../../e2e/helpers.js';
import { GO_TOOLCHAINS } from '../../../support/go-toolchains.js';

const shard = go.shard as ShardSupport;
const TOOLCHAINS = GO_TOOLCHAINS;
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => fs.remove(dir)));
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-go-shard-')));
  temps.push(dir);
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
  return dir;
}

const unitsOf = async (root: string, env: NodeJS.ProcessEnv, files: string[] = []) =>
  shard.units({ root, facts: readProjectFacts(root), files, env });

const size = (root: string, ...files: string[]): number => files.reduce((sum, f) => sum + fs.statSync(path.join(root, f)).size, 0);

describe.each(TOOLCHAINS)('go --shard units, $version', ({ env }) => {
  if (!hasTools('go')) return void it.skip('needs go', () => undefined);

  it('lists every package, by directory, with the size of its test files', async () => {
    const root = await copyFixture('go-packages');
    temps.push(root);
    expect(await unitsOf(root, env)).toEqual([
      { name: '.', bytes: size(root, 'root_test.go') },
      { name: 'bad', bytes: size(root, 'bad/bad_test.go') },
      { name: 'lib', bytes: size(root, 'lib/a_test.go', 'lib/b_test.go', 'lib/helpers_test.go') },
      { name: 'lib/deep', bytes: size(root, 'lib/deep/deep_test.go') },
    ]);
    // A directory is every package below it; a .go file its package; `.` everything.
    expect((await unitsOf(root, env, ['lib'])).map((u) => u.name)).toEqual(['lib', 'lib/deep']);
    expect((await unitsOf(root, env, ['lib/lib.go', 'bad/'])).map((u) => u.name)).toEqual(['bad', 'lib']);
    expect((await unitsOf(root, env, ['.', 'lib'])).map((u) => u.name)).toEqual(['.', 'bad', 'lib', 'lib/deep']);
  });

  it('leaves out what ./... leaves out: testdata, vendor, _ and . directories, nested modules, build-constrained files', async () => {
    const test = (pkg: string) => `package ${pkg}\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n`;
    const root = await project({
      'go.mod': 'module example.com/w\n\ngo 1.19\n',
      'a/a_test.go': test('a'),
      'a/testdata/t_test.go': test('t'),
      'vendor/v/v_test.go': test('v'),
      '_skip/s_test.go': test('s'),
      '.hidden/h_test.go': test('h'),
      'nested/go.mod': 'module example.com/nested\n\ngo 1.19\n',
      'nested/n_test.go': test('nested'),
      'ignored/i.go': 'package ignored\n',
      'ignored/i_test.go': `//go:build never\n\n${test('ignored')}`,
      'notests/n.go': 'package notests\n',
    });
    // A package without test files runs no test, but go test builds it: a full run reports it when it does not compile.
    expect(await unitsOf(root, env)).toEqual([{ name: 'a', bytes: size(root, 'a/a_test.go') }, { name: 'ignored', bytes: 0 }, { name: 'notests', bytes: 0 }]);
  });

  it('lists the packages go test sees with the build tags given after --', async () => {
    const root = await project({
      'go.mod': 'module example.com/t\n\ngo 1.19\n',
      'plain/p_test.go': 'package plain\n\nimport "testing"\n\nfunc TestP(t *testing.T) {}\n',
      'tagged/t.go': 'package tagged\n',
      'tagged/t_test.go': '//go:build extra\n\npackage tagged\n\nimport "testing"\n\nfunc TestT(t *testing.T) {}\n',
    });
    const tagged = (runnerArgs: string[]) => shard.units({ root, facts: readProjectFacts(root), files: [], env, runnerArgs });
    expect(await tagged([])).toEqual([{ name: 'plain', bytes: size(root, 'plain/p_test.go') }, { name: 'tagged', bytes: 0 }]);
    expect(await tagged(['-tags=extra'])).toEqual([{ name: 'plain', bytes: size(root, 'plain/p_test.go') }, { name: 'tagged', bytes: size(root, 'tagged/t_test.go') }]);
    // A value is never read as a flag, nor a flag's value as an operand.
    expect((await tagged(['-run', '-tags', '-count=1', '-tags', 'extra', '-v']))[1]?.bytes).toBe(size(root, 'tagged/t_test.go'));
    expect((await tagged(['-run', '-tags']))[1]?.bytes).toBe(0);
  });

  it('lists the package of a module without tests, and fails with go\'s words where go cannot load the module', async () => {
    const root = await copyFixture('go-nested-dep');
    temps.push(root);
    expect(await unitsOf(root, env)).toEqual([{ name: '.', bytes: 0 }]);
    await expect(unitsOf(path.join(root, 'inner'), env)).rejects.toMatchObject({
      code: 'RUNNER_FAILED',
      message: expect.stringMatching(/^--shard: listing go's packages \(go list\) failed \(exit 1\):\ngo: example\.com\/runtestsabsent@v1\.0\.0: module lookup disabled by GOPROXY=off/),
    });
  });
});

describe('go --shard selection', () => {
  it('refuses a _test.go file, which selects functions of its package, not a package', async () => {
    const facts = factsFromFiles('/p', { 'go.mod': 'module example.com/m\n', 'lib/a_test.go': '' });
    await expect(shard.units({ root: '/p', facts, files: ['lib/a_test.go'], env: {} })).rejects.toMatchObject({
      code: 'USAGE', message: expect.stringContaining('give its directory (lib)'),
    });
  });

  it('names the package of a test by its import path: a passing one has no file', () => {
    const facts = factsFromFiles('/p', { 'go.mod': 'module example.com/m\n' });
    const test = (id: string, suite: string | undefined, file: string | null = null) => ({ id, name: 'TestA', file, ...(suite === undefined ? {} : { suite }) });
    expect(shard.unitOf?.(test('example.com/m/lib/deep TestA', 'example.com/m/lib/deep'), facts)).toBe('lib/deep');
    expect(shard.unitOf?.(test('example.com/m TestA', 'example.com/m'), facts)).toBe('.');
    // A build failure: the import path alone, as a recorded failure carries it (no suite).
    expect(shard.unitOf?.(test('example.com/m/bad', undefined, 'bad/bad_test.go'), facts)).toBe('bad');
    expect(shard.unitOf?.(test('example.com/m/bad', undefined), facts)).toBe('bad');
    // Outside the module: its file's directory, else unknown.
    expect(shard.unitOf?.(test('other.org/x TestA', 'other.org/x', 'x/x_test.go'), facts)).toBe('x');
    expect(shard.unitOf?.(test('other.org/x TestA', 'other.org/x'), facts)).toBeNull();
    expect(shard.unitOf?.(test('other.org/x TestA', 'other.org/x'), factsFromFiles('/p', {}))).toBeNull();
  });
});

describe('go plan of a part', () => {
  const request = (over: Partial<PlanRequest>): PlanRequest => ({
    root: '/p', facts: factsFromFiles('/p', { 'go.mod': 'module example.com/m\n' }), files: [], name: null, rerun: null,
    artifacts: artifactPaths('/p', 'ID'), env: {}, reportersDir: '/r', ...over,
  });

  it('tests exactly its packages, never the packages below them', () => {
    expect(go.plan(request({ units: ['.', 'lib', 'lib/deep'] })).argv).toEqual(['go', 'test', '-json', '.', './lib', './lib/deep']);
    expect(go.plan(request({ units: ['lib'], name: { text: 'Add', regex: false }, noCache: true })).argv)
      .toEqual(['go', 'test', '-json', '-count=1', '-run', 'Add', './lib']);
  });

  it('reruns failures of its part as --failed-only does', () => {
    const rerun = [{ id: 'example.com/m/lib TestA', test_name: 'TestA', file: null, line: null, status: 'failed' as const, message: 'm' }];
    expect(go.plan(request({ units: ['lib'], rerun })).argv).toEqual(['go', 'test', '-json', '-run', '^TestA$', './lib']);
  });

  it('never runs the whole module for a part without units', () => {
    expect(() => go.plan(request({ units: [] }))).toThrow('--shard: this part holds no go package');
  });
});
