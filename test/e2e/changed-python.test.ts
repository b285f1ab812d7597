/** `run-tests plan` and `--changed` on pytest (7 and 9) and unittest: the import graph of
 * the test modules (reporters/python/import_graph.py) selects exactly the test files a
 * change can reach, with why, and what it cannot place is the whole suite, said why.
 * Each case edits its own git copy of the fixture, so the cases run concurrently. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { PYTESTS } from './pytest-versions.js';
import { copyFixture, hasTools, runCli, runJson } from './helpers.js';
import { git, gitFixture, planJson, touch, unitLines, type Plan } from './changed-support.js';

const suite = hasTools('python3', 'pytest-3') ? describe : describe.skip;

/** The one project's plan of `dir` as it is: its exit code, unit lines and whole-suite reason. */
async function planOf(dir: string, env: NodeJS.ProcessEnv = {}): Promise<{ exitCode: number | null; units: string[]; whole: string | null; plan: Plan | null }> {
  const result = Object.keys(env).length === 0 ? await planJson(dir) : await planWith(dir, env);
  expect(result.projects.map((p) => p.error)).toEqual([null]);
  const plan = result.projects[0]?.plan ?? null;
  return { exitCode: result.exitCode, units: unitLines(plan), whole: plan?.whole_suite?.reason ?? null, plan };
}

async function planWith(dir: string, env: NodeJS.ProcessEnv): Promise<Awaited<ReturnType<typeof planJson>>> {
  const result = await runCli(['plan', '--json'], { cwd: dir, env });
  return { exitCode: result.exitCode, projects: (JSON.parse(result.stdout) as Awaited<ReturnType<typeof planJson>>).projects, stderr: result.stderr };
}

const write = (dir: string, file: string, text: string): Promise<void> => fs.outputFile(path.join(dir, file), text);

interface Case {
  readonly name: string;
  readonly edit: (dir: string) => Promise<void> | void;
  readonly units?: readonly string[];
  readonly whole?: string;
}

const NOTHING = { units: [] } as const;

suite('run-tests plan and --changed on the Python runners', () => {
  describe('pytest (changed-pytest: pythonpath = src, tests/ without __init__.py, tests/unit/conftest.py)', () => {
    describe.each(PYTESTS.map(([label, env]) => ({ label, env })))('$label', ({ env }) => {
      it('a changed source module: the test files that reach it, with the module each imports on the way; --changed runs exactly them', async () => {
        const dir = await gitFixture('changed-pytest');
        touch(dir, 'src/shop/prices.py', '# cheaper\n');
        const planned = await planOf(dir, env);
        expect([planned.exitCode, planned.whole, planned.units]).toEqual([0, null, [
          'tests/test_cart.py: imports src/shop/prices.py via src/shop/cart.py',
          'tests/test_prices.py: imports src/shop/prices.py',
        ]]);
        const { exitCode, report } = await runJson(['--changed'], { cwd: dir, env });
        expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 3, passed: 3, failures: 0, errors: 0, skips: 0 }]);
        expect(report.plan?.units.map((u) => u.unit)).toEqual(['tests/test_cart.py', 'tests/test_prices.py']);
      }, 60_000);
    });

    const cases: readonly Case[] = [
      { name: 'a changed test file: that file', edit: (dir) => touch(dir, 'tests/test_prices.py'), units: ['tests/test_prices.py: changed test file'] },
      { name: 'a helper on the test file\'s own sys.path entry, and a package\'s __init__.py', edit: (dir) => { touch(dir, 'tests/helpers.py'); touch(dir, 'src/shop/__init__.py'); }, units: [
        'tests/test_cart.py: imports src/shop/__init__.py; imports tests/helpers.py',
        'tests/test_prices.py: imports src/shop/__init__.py',
        'tests/unit/test_tax.py: imports src/shop/__init__.py',
      ] },
      { name: 'a conftest.py: the test files below it, and what it imports', edit: async (dir) => {
        await write(dir, 'tests/unit/rates.py', 'RATE = 2\n');
        await write(dir, 'tests/unit/conftest.py', 'import pytest\n\nfrom rates import RATE\n\n\n@pytest.fixture\ndef rate():\n    return RATE\n');
      }, units: ['tests/unit/test_tax.py: conftest.py above it changed; imports tests/unit/rates.py via tests/unit/conftest.py'] },
      { name: 'a module no test imports: nothing to run', edit: (dir) => touch(dir, 'src/shop/unused.py'), ...NOTHING },
      { name: 'nothing changed: nothing to run', edit: () => undefined, ...NOTHING },
      { name: 'the root conftest.py: the whole suite', edit: (dir) => write(dir, 'conftest.py', ''), whole: 'conftest.py changed: pytest loads it for every test' },
      { name: 'pyproject.toml: the whole suite', edit: (dir) => touch(dir, 'pyproject.toml', '# more\n'), whole: 'pyproject.toml changed: it configures the project and how its tests run' },
      { name: 'a requirements file: the whole suite', edit: (dir) => write(dir, 'requirements-dev.txt', 'pytest\n'), whole: 'requirements-dev.txt changed: it sets the packages the tests run with' },
      { name: 'a data file: the whole suite', edit: (dir) => write(dir, 'tests/data/prices.json', '{}\n'), whole: 'tests/data/prices.json is no Python module: the tests may read it at run time, which the import graph cannot place' },
      { name: 'a deleted module: the whole suite', edit: (dir) => fs.remove(path.join(dir, 'src/shop/unused.py')), whole: 'src/shop/unused.py was deleted: what loaded it cannot be told from the tree as it is' },
      { name: 'a computed import in a module a test reaches: the whole suite', edit: (dir) => write(dir, 'src/shop/tax.py', 'import importlib\n\n\ndef with_tax(amount, rate):\n    return importlib.import_module("shop." + "prices") and amount * rate\n'),
        whole: 'src/shop/tax.py imports a computed name (importlib.import_module("shop." + "prices")): the import graph cannot tell what it loads' },
      { name: 'a module that does not parse: the whole suite', edit: (dir) => touch(dir, 'src/shop/unused.py', 'def broken(:\n'),
        whole: 'src/shop/unused.py cannot be parsed (SyntaxError: invalid syntax, line 3): the import graph cannot tell what it loads' },
    ];

    it('a change above the project: a conftest.py there is the whole suite, another file is not the project\'s', async () => {
      const top = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-changed-python-')));
      const dir = await copyFixture('changed-pytest', path.join(top, 'app'));
      git(top, 'init', '-q', '-b', 'main');
      git(top, 'add', '-A');
      git(top, 'commit', '-q', '-m', 'fixture');
      await write(top, 'notes.txt', 'elsewhere\n');
      expect(await planOf(dir)).toMatchObject({ exitCode: 0, units: [], whole: null });
      await write(top, 'conftest.py', '');
      expect(await planOf(dir)).toMatchObject({ exitCode: 0, units: [], whole: '../conftest.py changed: pytest reads it from a directory above the project' });
    }, 60_000);

    it.concurrent.each(cases)('$name', async ({ edit, units, whole }) => {
      const dir = await gitFixture('changed-pytest');
      await edit(dir);
      const planned = await planOf(dir);
      expect([planned.exitCode, planned.whole, planned.units]).toEqual([0, whole ?? null, units ?? []]);
    }, 60_000);
  });

  describe('unittest (changed-unittest: PYTHONPATH=src, discover -s tests -t .)', () => {
    it('a changed source module: the test files that reach it, through tests/support.py too; --changed runs exactly them', async () => {
      const dir = await gitFixture('changed-unittest');
      touch(dir, 'src/inventory/codes.py', '# shorter\n');
      const planned = await planOf(dir);
      expect([planned.exitCode, planned.whole, planned.units]).toEqual([0, null, [
        'tests/test_codes.py: imports src/inventory/codes.py',
        'tests/test_store.py: imports src/inventory/codes.py via tests/support.py',
      ]]);
      touch(dir, 'src/inventory/report.py');
      // Python writing its bytecode cache, as it does unless told not to.
      const { exitCode, report } = await runJson(['--changed'], { cwd: dir, env: { PYTHONDONTWRITEBYTECODE: undefined } });
      expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 3, passed: 3, failures: 0, errors: 0, skips: 0 }]);
      expect(report.plan?.changed.map((c) => c.file)).toEqual(['src/inventory/codes.py', 'src/inventory/report.py']);
      expect(report.plan?.units.map((u) => u.unit)).toEqual(['tests/test_codes.py', 'tests/test_store.py']);
      // The run wrote __pycache__/ beside the modules (no .gitignore here): no change to plan.
      expect(fs.existsSync(path.join(dir, 'tests/__pycache__'))).toBe(true);
      expect((await planOf(dir)).units).toEqual(planned.units);
    }, 60_000);

    const cases: readonly Case[] = [
      { name: 'a changed test file: that file', edit: (dir) => touch(dir, 'tests/test_codes.py'), units: ['tests/test_codes.py: changed test file'] },
      { name: 'a helper module and the test package\'s __init__.py', edit: (dir) => { touch(dir, 'tests/support.py'); touch(dir, 'tests/__init__.py'); }, units: [
        'tests/test_codes.py: imports tests/__init__.py',
        'tests/test_store.py: imports tests/__init__.py; imports tests/support.py',
      ] },
      { name: 'a module no test imports: nothing to run', edit: (dir) => touch(dir, 'src/inventory/report.py'), ...NOTHING },
      { name: 'nothing changed: nothing to run', edit: () => undefined, ...NOTHING },
      { name: 'the Makefile that gives unittest its arguments: the whole suite', edit: (dir) => touch(dir, 'Makefile', '# more\n'),
        whole: 'Makefile is no Python module: the tests may read it at run time, which the import graph cannot place' },
      { name: 'a deleted module: the whole suite', edit: (dir) => fs.remove(path.join(dir, 'src/inventory/report.py')), whole: 'src/inventory/report.py was deleted: what loaded it cannot be told from the tree as it is' },
      { name: 'exec in a module a test reaches: the whole suite', edit: (dir) => touch(dir, 'tests/support.py', '\nexec("X = 1")\n'),
        whole: 'tests/support.py runs code it builds (exec("X = 1")): the import graph cannot tell what it loads' },
    ];

    it.concurrent.each(cases)('$name', async ({ edit, units, whole }) => {
      const dir = await gitFixture('changed-unittest');
      await edit(dir);
      const planned = await planOf(dir);
      expect([planned.exitCode, planned.whole, planned.units]).toEqual([0, whole ?? null, units ?? []]);
    }, 60_000);
  });
});
