/** --shard's units of the JavaScript runners, listed on temp copies of fixture projects:
 * jest, vitest and mocha list them themselves (through the launchers, with the project's
 * own runner, run-tests' devDependencies), node:test's are node's files. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { readProjectFacts } from '../../../../src/project/facts.js';
import { jest } from '../../../../src/runners/jest/runner.js';
import { vitest } from '../../../../src/runners/vitest/runner.js';
import { mocha } from '../../../../src/runners/mocha/runner.js';
import { nodeTest } from '../../../../src/runners/node-test/runner.js';
import type { Runner, ShardUnit } from '../../../../src/runners/types.js';
import { copyFixture, REPO } from '../../../e2e/helpers.js';

const reportersDir = path.join(REPO, 'reporters');

/** A temp copy of a fixture with run-tests' own node_modules (jest 30, vitest 4, mocha 11). */
async function fixture(name: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  for (const [file, text] of Object.entries(extra)) await fs.outputFile(path.join(dir, file), text);
  return dir;
}

const units = (runner: Runner, root: string, files: readonly string[] = [], runnerArgs?: readonly string[]): Promise<readonly ShardUnit[]> => {
  if (runner.shard === undefined) throw new Error(`${runner.id} has no shard support`);
  return runner.shard.units({ root, facts: readProjectFacts(root), files, env: process.env, reportersDir, ...(runnerArgs ? { runnerArgs } : {}) });
};

/** The units as a person reads them: name and size, the size as the file's. */
const sized = (root: string, names: readonly string[]): ShardUnit[] => names.map((name) => ({ name, bytes: fs.statSync(path.join(root, name)).size }));

describe('jest units', () => {
  it('are the files jest --listTests lists, sorted, with their sizes, for the whole suite and for a selection', async () => {
    const dir = await fixture('jest-mixed', { 'test/data.test.js': "test('data', () => {});\n", 'test/a.test.js': "test('a', () => {});\n", 'test/helper.js': '' });
    expect(jest.shard?.selects).toBe('files');
    expect(await units(jest, dir)).toEqual(sized(dir, ['test/a.test.js', 'test/broken.test.js', 'test/data.test.js', 'test/math.test.js', 'test/second.test.js']));
    expect(await units(jest, dir, ['test/a.test.js', 'test/second.test.js'])).toEqual(sized(dir, ['test/a.test.js', 'test/second.test.js']));
    expect(await units(jest, dir, ['test'])).toHaveLength(5);
  });

  it("follow the script's operands and config: what `npm test` runs", async () => {
    const dir = await fixture('jest-mixed', { 'other/x.test.js': "test('x', () => {});\n" });
    expect((await units(jest, dir)).map((u) => u.name)).toContain('other/x.test.js');
    await fs.writeJson(path.join(dir, 'package.json'), { name: 'x', scripts: { test: 'jest test/m' }, devDependencies: { jest: '30' } });
    expect((await units(jest, dir)).map((u) => u.name)).toEqual(['test/math.test.js']);
    expect((await units(jest, dir, [], ['--testPathIgnorePatterns', 'math'])).map((u) => u.name)).toEqual([]);
  });

  it('are a RUNNER_FAILED HarnessError quoting the end of what jest said when it cannot list them', async () => {
    const dir = await fixture('jest-mixed', { 'jest.config.js': "throw new Error('config broke');\n" });
    await expect(units(jest, dir)).rejects.toMatchObject({ code: 'RUNNER_FAILED', message: expect.stringMatching(/^--shard: listing jest's test files failed \(exit 1\):\n[^]*jest\.config\.js:1:7\)/) });
  });
});

describe("jest's and vitest's own --shard", () => {
  it('is refused (exit 2), in the script or after --, before the runner starts', async () => {
    const dir = await fixture('jest-mixed');
    await expect(units(jest, dir, [], ['--shard=1/2'])).rejects.toMatchObject({ code: 'USAGE', message: "--shard: jest's own --shard=1/2 (in scripts.test or after --) would split each part again; run-tests deals the files out itself, run it without" });
    await fs.writeJson(path.join(dir, 'package.json'), { scripts: { test: 'vitest run --shard 1/3' } });
    await expect(units(vitest, dir)).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/^--shard: vitest's own --shard \(in scripts.test/) });
  });
});

describe('vitest units', () => {
  it('are the files vitest lists, and a path selects exactly that file', async () => {
    const dir = await fixture('vitest-mixed', { 'test/sub/test/math.test.ts': "import { test } from 'vitest';\ntest('m', () => {});\n" });
    expect(vitest.shard?.selects).toBe('files');
    expect(await units(vitest, dir)).toEqual(sized(dir, ['test/broken.test.ts', 'test/math.test.ts', 'test/second.test.ts', 'test/sub/test/math.test.ts']));
    // vitest's own filter `test/math.test.ts` would also take test/sub/test/math.test.ts.
    expect((await units(vitest, dir, ['test/math.test.ts'])).map((u) => u.name)).toEqual(['test/math.test.ts']);
    expect((await units(vitest, dir, ['test/sub'])).map((u) => u.name)).toEqual(['test/sub/test/math.test.ts']);
  });
});

describe('mocha units', () => {
  it("are the spec files mocha's collect-files finds: the script's spec, a selection's directory as its test files", async () => {
    const dir = await fixture('mocha-mixed', { 'spec/deep/more.spec.js': '', 'spec/notes.txt': '', 'test/other.spec.js': '' });
    expect(mocha.shard?.selects).toBe('files');
    // `mocha --require ./test/setup.js spec/`: spec/'s top level only (no --recursive), never the --require file.
    expect(await units(mocha, dir)).toEqual(sized(dir, ['spec/math.spec.js', 'spec/setup.spec.js']));
    expect((await units(mocha, dir, ['spec'])).map((u) => u.name)).toEqual(['spec/deep/more.spec.js', 'spec/math.spec.js', 'spec/setup.spec.js']);
    expect((await units(mocha, dir, ['spec/math.spec.js'])).map((u) => u.name)).toEqual(['spec/math.spec.js']);
  });

  it('read .mocharc (spec, extension, ignore, recursive) as mocha does', async () => {
    const dir = await fixture('js-operands');
    const project = path.join(dir, 'packages/mocha');
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'));
    await fs.outputJson(path.join(project, '.mocharc.json'), { spec: 'tests', recursive: true, extension: ['js', 'ts'], ignore: ['**/skip.spec.js'] });
    for (const file of ['tests/a.spec.ts', 'tests/skip.spec.js', 'tests/b.spec.mjs']) await fs.outputFile(path.join(project, file), '');
    expect((await units(mocha, project)).map((u) => u.name)).toEqual(['tests/a.spec.ts', 'tests/deep/deeper/deep.spec.js']);
  });
});

describe('node:test units', () => {
  it("are node 20's own files without a selection: its search from the root (dot directories too, node_modules not)", async () => {
    const dir = await fixture('node-test-dirs', { '.hidden/x.test.js': '', 'lib/test/helper.js': '', 'lib/test.cjs': '', 'lib/.test.js': '', 'lib/notatest.js': '', 'node_modules2/y_test.mjs': '' });
    expect(nodeTest.shard?.selects).toBe('files');
    expect(await units(nodeTest, dir)).toEqual(sized(dir, ['.hidden/x.test.js', '__tests__/a.test.js', 'lib/test.cjs', 'lib/test/helper.js', 'node_modules2/y_test.mjs', 'tests/unit/b.test.mjs']));
  });

  it("are the script's operands, their globs expanded, and a selection's files", async () => {
    const dir = await fixture('node-test-script-glob');
    expect((await units(nodeTest, dir)).map((u) => u.name)).toEqual(['checks/a.js', 'checks/b.js']);
    expect((await units(nodeTest, dir, ['checks/deep/c.js', 'test'])).map((u) => u.name)).toEqual(['checks/deep/c.js', 'test/old.test.js']);
  });

  it('are a HarnessError for an operand node would not find', async () => {
    const dir = await fixture('node-test-dirs');
    await fs.writeJson(path.join(dir, 'package.json'), { scripts: { test: 'node --test missing.test.js' } });
    await expect(units(nodeTest, dir)).rejects.toMatchObject({ code: 'USAGE', message: `--shard: node --test would not find missing.test.js (in ${dir})` });
  });
});

describe('units in npm workspaces', () => {
  it('are listed by the runner hoisted to the root, relative to the package', async () => {
    const dir = await fixture('js-workspace');
    expect((await units(jest, path.join(dir, 'packages/a'))).map((u) => u.name)).toEqual(['test/a.test.js']);
    expect((await units(vitest, path.join(dir, 'packages/b'))).map((u) => u.name)).toEqual(['test/b.test.js']);
  });

  it('include files named like options, which each runner lists as files', async () => {
    const dir = await fixture('js-operands');
    const names = async (runner: Runner, pkg: string, files: readonly string[] = []): Promise<string[]> => (await units(runner, path.join(dir, 'packages', pkg), files)).map((u) => u.name);
    expect(await names(jest, 'jest')).toEqual(['--dry-run.test.js', 'tests/deep/deeper/deep.test.js']);
    expect(await names(vitest, 'vitest')).toEqual(['-x.test.js', 'tests/deep/deeper/deep.test.js']);
    expect(await names(nodeTest, 'node')).toEqual(['--test-only.test.js', 'tests/deep/deeper/deep.test.js']);
    expect(await names(mocha, 'mocha', ['tests'])).toEqual(['tests/deep/deeper/deep.spec.js']);
  });
});
