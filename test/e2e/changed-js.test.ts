/** `run-tests plan` and `--changed` for jest, vitest, mocha and node:test, on
 * test/fixtures/projects/changed-<runner>: the project is app/, where src/a.js <- src/b.js
 * (which imports ../shared/x.js, outside the project) <- test/b.test.js, src/a.js <-
 * test/a.test.js, and test/c.test.js imports src/c.js (through the runner's alias for jest
 * and vitest, which esbuild's graph cannot follow and the runner's own graph does) and
 * src/config.json, and reads test/fixture.txt at run time; a setup file runs before every
 * test file. The graphs are esbuild's metafile, joined with jest --findRelatedTests and
 * vitest's related. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { versionDir } from '../../scripts/runner-versions.js';
import { REPO, runJson } from './helpers.js';
import { git, gitFixture, planJson, touch, unitLines } from './changed-support.js';
import { installedSets } from './runner-versions.js';

interface Case {
  readonly runner: 'jest' | 'vitest' | 'mocha' | 'node-test';
  /** The file run before every test file. */
  readonly setup: string;
  /** The runner's configuration file. */
  readonly config: string;
  /** test/c.test.js's reason when src/c.js changes. */
  readonly onC: string;
  /** A module that loads what it is given, and the line that makes src/a.js import it. */
  readonly plugins: { readonly source: string; readonly importIt: string; readonly call: string };
}

const CJS_PLUGINS = { source: 'module.exports = (name) => require(name);\n', importIt: "require('./plugins');\n", call: 'require(name)' };
const CASES: readonly Case[] = [
  { runner: 'jest', setup: 'test/setup.js', config: 'jest.config.js', onC: 'depends on src/c.js (jest --findRelatedTests)', plugins: CJS_PLUGINS },
  {
    runner: 'vitest', setup: 'test/setup.js', config: 'vitest.config.mjs', onC: 'depends on src/c.js (vitest related)',
    plugins: { source: 'export const load = (name) => import(name);\n', importIt: "import './plugins.js';\n", call: 'import(name)' },
  },
  { runner: 'mocha', setup: 'test/setup.js', config: '.mocharc.json', onC: 'imports src/c.js', plugins: CJS_PLUGINS },
  { runner: 'node-test', setup: 'support/setup.js', config: 'package.json', onC: 'imports src/c.js', plugins: CJS_PLUGINS },
];

const ON_A = ['test/a.test.js: imports src/a.js', 'test/b.test.js: imports src/a.js via src/b.js'];

/** A git copy of the runner's fixture, using this repository's runners (or a set of the
 * version matrix); its project's path. */
async function project(runner: Case['runner'], set?: string): Promise<string> {
  const dir = await gitFixture(`changed-${runner}`);
  await fs.symlink(path.join(set === undefined ? REPO : versionDir(set), 'node_modules'), path.join(dir, 'app/node_modules'));
  return path.join(dir, 'app');
}

/** The project's plan as changed: exit code, units with reasons, the whole suite's reason. */
async function planOf(app: string, runner: string): Promise<{ exitCode: number | null; units: string[]; whole: string | null }> {
  const { exitCode, projects } = await planJson(app);
  expect(projects.map((p) => [p.framework, p.error])).toEqual([[runner, null]]);
  const plan = projects[0]?.plan ?? null;
  return { exitCode, units: unitLines(plan), whole: plan?.whole_suite?.reason ?? null };
}

describe.each(CASES)('run-tests plan and --changed for $runner', ({ runner, setup, config, onC, plugins }) => {
  it.concurrent('a source file: exactly the tests that reach it, with the way; one no test reaches: nothing', async () => {
    const app = await project(runner);
    touch(app, 'src/unused.js');
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: [], whole: null });
    touch(app, 'src/a.js');
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: ON_A, whole: null });
  });

  it.concurrent('a file outside the project a test reaches, a module only the runner\'s alias reaches, a JSON module: their tests', async () => {
    const app = await project(runner);
    touch(app, '../shared/x.js');
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: ['test/b.test.js: imports ../shared/x.js via src/b.js'], whole: null });
    touch(app, 'src/c.js');
    touch(app, 'src/config.json', ' ');
    // Reasons in the order of the changed files; the runner's own after the module graph's.
    const onBoth = onC.startsWith('imports') ? `${onC}; imports src/config.json` : `imports src/config.json; ${onC}`;
    expect((await planOf(app, runner)).units).toEqual(['test/b.test.js: imports ../shared/x.js via src/b.js', `test/c.test.js: ${onBoth}`]);
  });

  it.concurrent('a test file: that file', async () => {
    const app = await project(runner);
    touch(app, 'test/a.test.js');
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: ['test/a.test.js: changed test file'], whole: null });
  });

  it.concurrent('a setup file, the config, a lockfile, a file read at run time: the whole suite, said why', async () => {
    const app = await project(runner);
    const whole = async (file: string, line = '\n'): Promise<string | null> => {
      const copy = await project(runner);
      touch(copy, file, line);
      const planned = await planOf(copy, runner);
      expect([planned.exitCode, planned.units]).toEqual([0, []]);
      return planned.whole;
    };
    const [setupWhole, configWhole, lockWhole, readWhole] = await Promise.all([
      whole(setup), whole(config, ' '), whole('package-lock.json', '{}\n'), whole('test/fixture.txt'),
    ]);
    expect(setupWhole).toBe(`${setup} changed: a setup file, loaded before every test file`);
    expect(configWhole).toBe(`${config} changed: a configuration every test runs under`);
    expect(lockWhole).toBe('package-lock.json changed: it decides which packages every test loads');
    expect(readWhole).toBe('test/fixture.txt is no source file the graph knows: a test may read it at run time');
    // A module the setup file imports is the setup's too.
    await fs.outputFile(path.join(app, 'support/helper.js'), runner === 'vitest' ? 'export const h = 1;\n' : 'exports.h = 1;\n');
    touch(app, setup, runner === 'vitest' ? `import '${path.posix.relative(path.posix.dirname(setup), 'support/helper.js')}';\n` : `require('${path.posix.relative(path.posix.dirname(setup), 'support/helper.js').replace(/^(?!\.)/, './')}');\n`);
    git(app, 'add', '-A');
    git(app, 'commit', '-q', '-m', 'helper');
    touch(app, 'support/helper.js');
    expect((await planOf(app, runner)).whole).toBe(`support/helper.js is imported by ${setup}, a setup file, loaded before every test file`);
  });

  it.concurrent('a computed import a test reaches: the whole suite, naming it', async () => {
    const app = await project(runner);
    await fs.outputFile(path.join(app, 'src/plugins.js'), plugins.source);
    touch(app, 'src/a.js', plugins.importIt);
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: [], whole: `src/plugins.js imports a computed path (${plugins.call})` });
  });

  it.concurrent('a deleted file: the whole suite; a clean tree: nothing to run', async () => {
    const app = await project(runner);
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: [], whole: null });
    await fs.remove(path.join(app, 'src/unused.js'));
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: [], whole: 'src/unused.js was deleted: what loaded it cannot be told from the tree as it is' });
  });

  it.concurrent('--changed runs exactly the planned test files', async () => {
    const app = await project(runner);
    touch(app, 'src/a.js');
    const { exitCode, report } = await runJson(['--changed'], { cwd: app });
    expect([exitCode, report.status, report.warnings]).toEqual([0, 'passed', []]);
    expect(report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    expect(Object.keys(report.unit_durations ?? {}).sort()).toEqual(['test/a.test.js', 'test/b.test.js']);
    expect(unitLines(report.plan ?? null)).toEqual(ON_A);
  });
});

/** The older jest and vitest majors of the version matrix relate files as the ones in
 * node_modules (jest 30, vitest 4) do above. */
const sets = [...installedSets('jest'), ...installedSets('vitest')].filter((set) => set !== 'jest-30' && set !== 'vitest-4');

describe.each(sets.length > 0 ? sets : ['none installed'])('run-tests plan on %s', (set) => {
  const found = CASES.find((c) => set.startsWith(`${c.runner}-`));
  (found === undefined ? it.skip : it.concurrent)('relates a source file through the runner\'s own graph, and its setup file is the whole suite', async () => {
    const { runner, onC, setup } = found as Case;
    const app = await project(runner, set);
    touch(app, 'src/a.js');
    touch(app, 'src/c.js');
    expect(await planOf(app, runner)).toEqual({ exitCode: 0, units: [...ON_A, `test/c.test.js: ${onC}`], whole: null });
    touch(app, setup);
    expect((await planOf(app, runner)).whole).toBe(`${setup} changed: a setup file, loaded before every test file`);
  });
});
