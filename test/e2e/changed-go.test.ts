/** `run-tests plan` and `--changed` for go, whose graph is `go list -deps -test`, on
 * test/fixtures/projects/changed-go: c <- b (which embeds greeting.txt) <- a (whose test
 * reads testdata/) <- x's external test; lone reads ../settings.json at run time. */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import { hasTools, runJson } from './helpers.js';
import { gitFixture, planJson, touch, unitLines } from './changed-support.js';

/** go's own build cache, no network, no toolchain switching, no caller GOFLAGS. */
const goEnv: NodeJS.ProcessEnv = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
const suite = hasTools('go') ? describe : describe.skip;
const M = 'example.com/changed';
const ON_C = ['a: depends on example.com/changed/c', 'b: depends on example.com/changed/c', 'c: same package', 'x: depends on example.com/changed/c'];

/** The one project's plan of the fixture's copy as changed, and the exit code. */
async function planOf(dir: string): Promise<{ exitCode: number | null; units: string[]; whole: string | null; changed: string[] }> {
  const { exitCode, projects } = await planJson(dir);
  expect(projects.map((p) => [p.framework, p.error])).toEqual([['go', null]]);
  const plan = projects[0]?.plan ?? null;
  return { exitCode, units: unitLines(plan), whole: plan?.whole_suite?.reason ?? null, changed: (plan?.changed ?? []).map((c) => `${c.file} ${c.change}`) };
}

suite('run-tests plan and --changed for go (go list -deps -test), go1.19', () => {
  it.concurrent('a package\'s source: its own unit and every package whose tests build it, through imports and external tests', async () => {
    expect(spawnSync('go', ['version'], { encoding: 'utf8' }).stdout).toContain('go version go1.19');
    const dir = await gitFixture('changed-go');
    touch(dir, 'c/c.go');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: ON_C, whole: null, changed: ['c/c.go modified'] });
    // An embedded file is its package's source too; a new package's file its own.
    touch(dir, 'b/greeting.txt', 'hello\n');
    await fs.outputFile(path.join(dir, 'd/d.go'), `package d\n\nimport _ "${M}/a"\n`);
    // Reasons in the order of the changed files.
    expect((await planOf(dir)).units).toEqual([
      `a: depends on ${M}/b; depends on ${M}/c`, `b: same package; depends on ${M}/c`, 'c: same package',
      `d: depends on ${M}/b; depends on ${M}/c; same package`, `x: depends on ${M}/b; depends on ${M}/c`,
    ]);
  });

  it.concurrent('a test file, testdata or a test\'s embed: its package alone', async () => {
    const dir = await gitFixture('changed-go');
    touch(dir, 'x/x_test.go');
    touch(dir, 'a/testdata/want.txt', '\n');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: ['a: same package', 'x: same package'], whole: null, changed: ['a/testdata/want.txt modified', 'x/x_test.go modified'] });
  });

  it.concurrent('go.mod, go.sum, a file read at run time (go has no dynamic import) and go list\'s error: the whole suite, said why', async () => {
    const dir = await gitFixture('changed-go');
    touch(dir, 'go.mod');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: [], whole: 'go.mod changed: it decides how every package builds', changed: ['go.mod modified'] });
    const sum = await gitFixture('changed-go');
    await fs.outputFile(path.join(sum, 'go.sum'), '');
    expect((await planOf(sum)).whole).toBe('go.sum changed: it decides how every package builds');
    const read = await gitFixture('changed-go');
    touch(read, 'settings.json', '{"x": 1}\n');
    expect((await planOf(read)).whole).toBe("settings.json is no file go builds, embeds or keeps in a package's testdata/: a test may read it at run time");
    const broken = await gitFixture('changed-go');
    await fs.outputFile(path.join(broken, 'lone/more.go'), `package lone\n\nimport _ "${M}/missing"\n`);
    expect((await planOf(broken)).whole).toMatch(/^go list failed: lone\/more\.go:3:8: .*example\.com\/changed\/missing/);
  });

  it.concurrent('a deleted file is the whole suite; a clean tree is nothing to run', async () => {
    const dir = await gitFixture('changed-go');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: [], whole: null, changed: [] });
    await fs.remove(path.join(dir, 'lone/lone.go'));
    expect(await planOf(dir)).toEqual({
      exitCode: 0, units: [], whole: 'lone/lone.go was deleted: what loaded it cannot be told from the tree as it is', changed: ['lone/lone.go deleted'],
    });
  });

  it.concurrent('--changed runs exactly the planned packages\' tests', async () => {
    const dir = await gitFixture('changed-go');
    touch(dir, 'b/b.go');
    const { exitCode, report } = await runJson(['--cwd', dir, '--changed'], { env: goEnv });
    expect([exitCode, report.status, report.warnings]).toEqual([0, 'passed', []]);
    expect(report.summary).toEqual({ run: 3, passed: 3, failures: 0, errors: 0, skips: 0 });
    expect(report.command).toBe('go test ./a ./b ./x');
    expect(unitLines(report.plan ?? null)).toEqual([`a: depends on ${M}/b`, 'b: same package', `x: depends on ${M}/b`]);
  });

  it.concurrent('--changed --shard deals out the planned packages only: two shards hold them all, once, and merge', async () => {
    const dir = await gitFixture('changed-go');
    touch(dir, 'c/c.go');
    const shards = [];
    for (const k of [1, 2]) {
      const { exitCode, report } = await runJson(['--cwd', dir, '--changed', '--shard', `${k}/2`], { env: goEnv });
      expect([exitCode, report.status, report.shard?.total_units, report.warnings]).toEqual([0, 'passed', 4, []]);
      shards.push(report);
      await fs.writeJson(path.join(dir, `.run-tests/shard-${k}.json`), report);
    }
    expect(shards.flatMap((r) => r.shard?.units ?? []).sort()).toEqual(['a', 'b', 'c', 'x']);
    expect(shards.map((r) => r.summary.run ?? 0).reduce((a, b) => a + b, 0)).toBe(4);
    const merged = await runJson(['merge', path.join(dir, '.run-tests/shard-1.json'), path.join(dir, '.run-tests/shard-2.json')]);
    expect([merged.exitCode, merged.report.status, merged.report.summary.run]).toEqual([0, 'passed', 4]);
  });
});
