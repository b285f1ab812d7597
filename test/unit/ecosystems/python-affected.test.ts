import { describe, expect, it } from '@jest/globals';
import { affectedByImports, conftestsOf, wholeSuiteFile, type ImportGraph } from '../../../src/ecosystems/python-affected.js';

const PYTEST = { roots: ['.', 'src', '../shared'], conftests: true };
const UNITTEST = { roots: ['.', 'src'], conftests: false };

describe('wholeSuiteFile', () => {
  it.each([
    ['pyproject.toml', PYTEST, 'pyproject.toml changed: it configures the project and how its tests run'],
    ['pytest.ini', PYTEST, 'pytest.ini changed: it configures the project and how its tests run'],
    ['sub/setup.cfg', PYTEST, 'sub/setup.cfg changed: it configures the project and how its tests run'],
    ['tox.ini', UNITTEST, 'tox.ini changed: it configures the project and how its tests run'],
    ['setup.py', UNITTEST, 'setup.py changed: it configures the project and how its tests run'],
    ['noxfile.py', UNITTEST, 'noxfile.py changed: it configures the project and how its tests run'],
    ['requirements-dev.txt', PYTEST, 'requirements-dev.txt changed: it sets the packages the tests run with'],
    ['poetry.lock', UNITTEST, 'poetry.lock changed: it sets the packages the tests run with'],
    ['tests/data/cart.json', PYTEST, 'tests/data/cart.json is no Python module: the tests may read it at run time, which the import graph cannot place'],
    ['Makefile', UNITTEST, 'Makefile is no Python module: the tests may read it at run time, which the import graph cannot place'],
    ['src/shop/types.pyi', PYTEST, 'src/shop/types.pyi is no Python module: the tests may read it at run time, which the import graph cannot place'],
    ['conftest.py', PYTEST, 'conftest.py changed: pytest loads it for every test'],
    ['../conftest.py', PYTEST, '../conftest.py changed: pytest reads it from a directory above the project'],
    ['../../pytest.ini', PYTEST, '../../pytest.ini changed: pytest reads it from a directory above the project'],
    ['../shared/money.py', PYTEST, '../shared/money.py changed: it is on the tests\' import path (../shared), outside the project'],
  ])('%s is the whole suite', (file, change, reason) => {
    expect(wholeSuiteFile(file, change)).toBe(reason);
  });

  it.each([
    ['src/shop/cart.py', PYTEST],
    ['tests/conftest.py', PYTEST],
    // unittest has no conftest.py: a module like any other.
    ['conftest.py', UNITTEST],
    // Another project's files, off the import path; unittest reads nothing above the project.
    ['../other/x.py', PYTEST],
    ['../other/notes.txt', PYTEST],
    ['../conftest.py', UNITTEST],
    ['../sub/conftest.py', PYTEST],
    // Written by the runs themselves: no change to what the tests load.
    ['src/shop/__pycache__/cart.cpython-311.pyc', PYTEST],
    ['.pytest_cache/v/cache/lastfailed', PYTEST],
  ])('%s is left to the graph', (file, change) => {
    expect(wholeSuiteFile(file, change)).toBeNull();
  });
});

describe('conftestsOf', () => {
  it('finds the conftest.py in each unit\'s directory and above it, once each', () => {
    const present = new Set(['conftest.py', 'tests/conftest.py', 'tests/unit/conftest.py', 'docs/conftest.py']);
    expect(conftestsOf(['tests/unit/test_a.py', 'tests/unit/deep/test_b.py', 'tests/test_c.py', 'other/test_d.py'], (f) => present.has(f)))
      .toEqual(['conftest.py', 'tests/conftest.py', 'tests/unit/conftest.py']);
    expect(conftestsOf(['test_top.py'], () => false)).toEqual([]);
  });
});

/** test_cart -> shop/cart -> shop/prices; test_prices -> shop/prices; test_tax (below
 * tests/unit/conftest.py, which imports tests/unit/fixtures.py) -> shop/tax. */
const GRAPH: ImportGraph = {
  modules: {
    'tests/test_cart.py': ['src/shop/__init__.py', 'src/shop/cart.py', 'tests/helpers.py'],
    'tests/test_prices.py': ['src/shop/__init__.py', 'src/shop/prices.py'],
    'tests/unit/test_tax.py': ['src/shop/__init__.py', 'src/shop/tax.py'],
    'tests/unit/conftest.py': ['tests/unit/fixtures.py'],
    'tests/unit/fixtures.py': [],
    'tests/helpers.py': ['tests/test_prices.py'],
    'src/shop/__init__.py': [],
    'src/shop/cart.py': ['src/shop/__init__.py', 'src/shop/prices.py'],
    'src/shop/prices.py': [],
    'src/shop/tax.py': [],
  },
  problems: [],
  preloaded: [],
};
const UNITS = ['tests/test_cart.py', 'tests/test_prices.py', 'tests/unit/test_tax.py'];
const plan = (changed: string[], graph: ImportGraph = GRAPH, conftests = true) => affectedByImports({ changed, units: UNITS, roots: ['.', 'src'], conftests }, graph);

describe('affectedByImports', () => {
  it('selects every unit that reaches a changed module, saying the module it imports on the way', () => {
    expect(plan(['src/shop/prices.py'])).toEqual({ units: [
      { unit: 'tests/test_cart.py', reasons: ['imports src/shop/prices.py via src/shop/cart.py'] },
      { unit: 'tests/test_prices.py', reasons: ['imports src/shop/prices.py'] },
    ] });
  });

  it('a package\'s __init__.py is a dependency of every module inside it', () => {
    expect(plan(['src/shop/__init__.py'])).toEqual({ units: UNITS.map((unit) => ({ unit, reasons: ['imports src/shop/__init__.py'] })) });
  });

  it('a changed test file is the core\'s to select; a unit importing it is selected here', () => {
    expect(plan(['tests/test_prices.py'])).toEqual({ units: [{ unit: 'tests/test_cart.py', reasons: ['imports tests/test_prices.py via tests/helpers.py'] }] });
  });

  it('reasons of several changed files add up, each once', () => {
    expect(plan(['src/shop/tax.py', 'tests/helpers.py', 'src/shop/cart.py'])).toEqual({ units: [
      { unit: 'tests/test_cart.py', reasons: ['imports tests/helpers.py', 'imports src/shop/cart.py'] },
      { unit: 'tests/unit/test_tax.py', reasons: ['imports src/shop/tax.py'] },
    ] });
  });

  it('a changed conftest.py selects the units below it; what it imports selects them too', () => {
    expect(plan(['tests/unit/conftest.py'])).toEqual({ units: [{ unit: 'tests/unit/test_tax.py', reasons: ['conftest.py above it changed'] }] });
    expect(plan(['tests/unit/fixtures.py'])).toEqual({ units: [{ unit: 'tests/unit/test_tax.py', reasons: ['imports tests/unit/fixtures.py via tests/unit/conftest.py'] }] });
    // A unit that imports the module itself says that way alone.
    const graph = { ...GRAPH, modules: { ...GRAPH.modules, 'tests/unit/conftest.py': ['src/shop/tax.py'] } };
    expect(plan(['src/shop/tax.py'], graph)).toEqual({ units: [{ unit: 'tests/unit/test_tax.py', reasons: ['imports src/shop/tax.py'] }] });
    // unittest: no conftest.py rule; no unit imports it.
    expect(plan(['tests/unit/conftest.py'], GRAPH, false)).toEqual({ units: [] });
  });

  it('a module no test reaches, or one outside the project, selects nothing', () => {
    expect(plan(['src/shop/unused.py', '../other/x.py'])).toEqual({ units: [] });
  });

  it('a module the root conftest.py reaches is the whole suite', () => {
    const graph = { ...GRAPH, modules: { ...GRAPH.modules, 'conftest.py': ['src/shop/tax.py'] } };
    expect(plan(['src/shop/tax.py'], graph)).toEqual({ wholeSuite: 'src/shop/tax.py changed: conftest.py imports it, which pytest loads for every test' });
  });

  it('a module a plugin or sitecustomize.py reaches is the whole suite, saying which loads it', () => {
    const graph = { ...GRAPH, modules: { ...GRAPH.modules, 'src/sitecustomize.py': ['src/shop/tax.py'] }, preloaded: [{ file: 'src/sitecustomize.py', why: 'Python imports sitecustomize.py as it starts' }] };
    expect(plan(['src/shop/tax.py'], graph)).toEqual({ wholeSuite: 'src/shop/tax.py changed: it is loaded before every test via src/sitecustomize.py (Python imports sitecustomize.py as it starts)' });
    expect(plan(['src/sitecustomize.py'], graph)).toEqual({ wholeSuite: 'src/sitecustomize.py changed: it is loaded before every test (Python imports sitecustomize.py as it starts)' });
  });

  it('a module whose imports cannot be known is the whole suite, whatever changed', () => {
    const graph = { ...GRAPH, problems: [{ file: 'src/shop/tax.py', reason: 'imports a computed name (importlib.import_module(name))' }] };
    expect(plan(['src/shop/unused.py'], graph)).toEqual({ wholeSuite: 'src/shop/tax.py imports a computed name (importlib.import_module(name)): the import graph cannot tell what it loads' });
  });

  it('is linear: a chain of 20,000 modules is planned at once', () => {
    const modules: Record<string, string[]> = {};
    for (let i = 0; i < 20_000; i += 1) modules[`m${i}.py`] = i === 0 ? [] : [`m${i - 1}.py`];
    const units = ['m19999.py'];
    const started = Date.now();
    const planned = affectedByImports({ changed: ['m0.py'], units, roots: ['.'], conftests: true }, { modules, problems: [], preloaded: [] });
    expect(planned).toEqual({ units: [{ unit: 'm19999.py', reasons: ['imports m0.py via m19998.py'] }] });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
