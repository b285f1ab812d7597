import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { go } from '../../../../src/runners/go/runner.js';
import type { AffectedUnits, ChangeSupport, ShardSupport } from '../../../../src/runners/types.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import { copyFixture, hasTools } from '../../../e2e/helpers.js';
import { GO_TOOLCHAINS } from '../../../support/go-toolchains.js';

const TOOLCHAINS = GO_TOOLCHAINS;
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => fs.remove(dir)));
});

/** A temp directory holding the files; `root` names the project's directory in it. */
async function project(files: Record<string, string>, root = '.'): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-go-changes-')));
  temps.push(dir);
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
  return path.join(dir, root);
}

/** What the go graph says of `changed`, given every unit shard lists. */
async function affected(root: string, env: NodeJS.ProcessEnv, changed: string[], runnerArgs: string[] = []): Promise<AffectedUnits> {
  const facts = readProjectFacts(root);
  const units = await (go.shard as ShardSupport).units({ root, facts, files: [], env, runnerArgs });
  return (go.changes as ChangeSupport).affected({ root, facts, files: [], env, runnerArgs, units, changed: changed.map((p) => ({ path: p, change: 'modified' })) });
}

const lines = (result: AffectedUnits): string[] | string =>
  result.wholeSuite ?? result.units.map((u) => `${u.unit}: ${u.reasons.join('; ')}`);

const test = (pkg: string, body = '', imports: string[] = []) =>
  `package ${pkg}\n\nimport (\n\t"testing"\n${imports.map((i) => `\t_ "${i}"\n`).join('')})\n\nfunc TestX(t *testing.T) {${body}}\n`;
const M = 'example.com/m';

describe.each(TOOLCHAINS)('go changes, $version', ({ env }) => {
  if (!hasTools('go')) return void it.skip('needs go', () => undefined);

  it('selects a package\'s unit and each unit whose test build holds it; a test-only file only its own', async () => {
    const root = await project({
      'go.mod': `module ${M}\n\ngo 1.19\n`,
      'c/c.go': 'package c\n',
      'c/c_test.go': test('c'),
      // No test files: a unit go test builds.
      'b/b.go': `package b\n\nimport _ "${M}/c"\n`,
      // Tests only, reaching c through an internal test's import of b.
      't/t_test.go': test('t', '', [`${M}/b`]),
      // An external test package, and a file embedded by its test only.
      'x/x.go': 'package x\n',
      'x/x_test.go': `package x_test\n\nimport (\n\t_ "embed"\n\t"testing"\n\n\t_ "${M}/b"\n)\n\n//go:embed fixture.txt\nvar fixture string\n\nfunc TestX(t *testing.T) {}\n`,
      'x/fixture.txt': 'f\n',
      'x/testdata/deep/z.json': '{}\n',
      'y/y.go': 'package y\n',
      'y/y_test.go': test('y'),
      'y/notes.md': 'n\n',
    });
    expect(lines(await affected(root, env, ['c/c.go']))).toEqual([`b: depends on ${M}/c`, 'c: same package', `t: depends on ${M}/c`, `x: depends on ${M}/c`]);
    expect(lines(await affected(root, env, ['c/c_test.go']))).toEqual(['c: same package']);
    expect(lines(await affected(root, env, ['x/fixture.txt', 'x/testdata/deep/z.json', 'x/x_test.go']))).toEqual(['x: same package']);
    expect(lines(await affected(root, env, ['y/y.go', 'b/b.go']))).toEqual([`t: depends on ${M}/b`, `x: depends on ${M}/b`, 'y: same package', 'b: same package']
      .sort());
    expect(lines(await affected(root, env, ['y/y.go', 'y/notes.md']))).toBe("y/notes.md is no file go builds, embeds or keeps in a package's testdata/: a test may read it at run time");
  });

  it('places embedded files and constrained-away files in their package; selects nothing for what no build holds', async () => {
    const root = await project({
      'go.mod': `module ${M}\n\ngo 1.19\n`,
      'a/a.go': 'package a\n\nimport _ "embed"\n\n//go:embed static/page.html testdata/built.txt\nvar page string\n',
      'a/static/page.html': '<p>\n',
      'a/testdata/built.txt': 'b\n',
      // The same file embedded by the package below it too.
      'a/static/s.go': 'package static\n\nimport _ "embed"\n\n//go:embed page.html\nvar page string\n',
      'a/static/s_test.go': test('static'),
      'a/other_linux_only.go': '//go:build never\n\npackage a\n',
      'a/testdata/gen.go': 'package gen\n',
      'user/u_test.go': test('user', '', [`${M}/a`]),
      '_skip/s.go': 'package skip\n',
      '.hidden/h.go': 'package hidden\n',
      'ignored/i.go': '//go:build never\n\npackage ignored\n',
      'nested/go.mod': 'module example.com/nested\n\ngo 1.19\n',
      'nested/n.go': 'package nested\n',
      'nested/README.md': 'r\n',
    }, '.');
    const users = ['a: same package', `user: depends on ${M}/a`];
    expect(lines(await affected(root, env, ['a/static/page.html']))).toEqual(['a: same package', 'a/static: same package', `user: depends on ${M}/a`]);
    // testdata/ a package embeds is built into it.
    expect(lines(await affected(root, env, ['a/testdata/built.txt']))).toEqual(users);
    // A constrained-away file may be built once its constraint changes.
    expect(lines(await affected(root, env, ['a/other_linux_only.go']))).toEqual(users);
    expect(lines(await affected(root, env, ['a/testdata/gen.go']))).toEqual(['a: same package']);
    expect(lines(await affected(root, env, ['_skip/s.go', '.hidden/h.go', 'ignored/i.go', 'nested/n.go', 'nested/README.md', '../elsewhere/notes.txt']))).toEqual([]);
  });

  it('is the whole suite for a cgo package\'s C header, which any package\'s cgo may include', async () => {
    const root = await project({
      'go.mod': `module ${M}\n\ngo 1.19\n`,
      'c/c.go': 'package c\n\n// #include "c.h"\nimport "C"\n',
      'c/c.h': '#define C 1\n',
      'c/c.c': 'int c(void) { return C; }\n',
      'c/c_test.go': test('c'),
    });
    const cgo = { ...env, CGO_ENABLED: '1' };
    expect(lines(await affected(root, cgo, ['c/c.c']))).toEqual(['c: same package']);
    expect(lines(await affected(root, cgo, ['c/c.h']))).toBe("c/c.h is a C header: any package's cgo may include it");
  });

  it('is the whole suite for go.mod, go.sum, go.work above or in the project, vendor/modules.txt, and go list\'s error', async () => {
    const root = await project({
      'go.work': 'go 1.19\n\nuse ./p\n',
      'p/go.mod': `module ${M}\n\ngo 1.19\n`,
      'p/a/a.go': 'package a\n',
      'p/a/a_test.go': test('a'),
    }, 'p');
    expect(lines(await affected(root, env, ['a/a.go', 'go.mod']))).toBe('go.mod changed: it decides how every package builds');
    expect(lines(await affected(root, env, ['go.sum']))).toBe('go.sum changed: it decides how every package builds');
    expect(lines(await affected(root, env, ['../go.work']))).toBe('../go.work changed: it decides which modules every package builds with');
    expect(lines(await affected(root, env, ['vendor/modules.txt']))).toBe('vendor/modules.txt changed: it decides which vendored packages every package builds with');
    // Another project's files beside it are no file of this module's.
    expect(lines(await affected(root, env, ['../q/go.mod', '../q/q.go']))).toEqual([]);
    await fs.outputFile(path.join(root, 'a/b.go'), 'package a\n\nimport _ "example.com/m/missing"\n');
    expect(lines(await affected(root, env, ['a/a.go']))).toMatch(/^go list failed: a\/b\.go:3:8: .*example\.com\/m\/missing/);
  });

  it('is the whole suite, with go\'s first error line, where go cannot load the module', async () => {
    const root = path.join(await copyFixture('go-nested-dep'), 'inner');
    temps.push(path.dirname(root));
    const request = { root, facts: readProjectFacts(root), files: [], env, units: [], changed: [{ path: 'inner_test.go', change: 'modified' as const }] };
    expect(lines(await (go.changes as ChangeSupport).affected(request))).toBe('go list failed: go: example.com/runtestsabsent@v1.0.0: module lookup disabled by GOPROXY=off');
  });

  it('places the files of a module replaced by a directory outside the project as its own', async () => {
    const root = await project({
      'lib/go.mod': 'module example.com/lib\n\ngo 1.19\n',
      'lib/l.go': 'package lib\n',
      'lib/README.md': 'r\n',
      'main/go.mod': `module ${M}\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n`,
      'main/m_test.go': test('m', '', ['example.com/lib']),
      'main/other/o_test.go': test('other'),
    }, 'main');
    expect(lines(await affected(root, env, ['../lib/l.go']))).toEqual(['.: depends on example.com/lib']);
    expect(lines(await affected(root, env, ['../lib/README.md']))).toBe("../lib/README.md is no file go builds, embeds or keeps in a package's testdata/: a test may read it at run time");
    expect(lines(await affected(root, env, ['../lib/go.mod']))).toBe('../lib/go.mod changed: it decides how every package builds');
  });

  it('reads the test builds with the build tags given after --', async () => {
    const root = await project({
      'go.mod': `module ${M}\n\ngo 1.19\n`,
      'c/c.go': 'package c\n',
      'tagged/t.go': 'package tagged\n',
      'tagged/t_test.go': `//go:build extra\n\n${test('tagged', '', [`${M}/c`])}`,
    });
    expect(lines(await affected(root, env, ['c/c.go']))).toEqual(['c: same package']);
    expect(lines(await affected(root, env, ['c/c.go'], ['-tags', 'extra', '-mod=mod']))).toEqual(['c: same package', `tagged: depends on ${M}/c`]);
  });
});
