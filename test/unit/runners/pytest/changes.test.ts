import { describe, expect, it } from '@jest/globals';
import { iniSection, pytestGraphOptions, pytestOptions } from '../../../../src/runners/pytest/changes.js';
import { factsFromFiles } from '../../../../src/project/facts.js';

const options = (files: Record<string, string>) => pytestOptions(factsFromFiles('/p', files));

describe('pytestOptions: addopts and pythonpath where pytest reads them', () => {
  it.each([
    [{ 'pytest.ini': '[pytest]\naddopts = -p myplug --strict-markers\npythonpath = src lib\n' }],
    [{ '.pytest.ini': '[pytest]\naddopts =\n    -p myplug\n    --strict-markers\npythonpath =\n    src\n    lib\n' }],
    [{ 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-p myplug --strict-markers"\npythonpath = ["src", "lib"]\n' }],
    [{ 'pyproject.toml': '[tool.pytest]\naddopts = ["-p", "myplug", "--strict-markers"]\npythonpath = ["src", "lib"]\n' }],
    [{ 'tox.ini': '[tox]\nenvlist = py3\n\n[pytest]\n# comment\naddopts: -p myplug --strict-markers\npythonpath = src lib\n' }],
    [{ 'setup.cfg': '[metadata]\nname = x\n\n[tool:pytest]\naddopts = -p myplug --strict-markers\npythonpath = src lib\n[other]\npythonpath = no\n' }],
  ])('%j', (files) => {
    expect(options(files)).toEqual({ addopts: ['-p', 'myplug', '--strict-markers'], pythonpath: ['src', 'lib'] });
  });

  it('pytest.ini wins even without a section; a file without a pytest section is none', () => {
    expect(options({ 'pytest.ini': '', 'tox.ini': '[pytest]\npythonpath = src\n' })).toEqual({ addopts: [], pythonpath: [] });
    expect(options({ 'tox.ini': '[tox]\n', 'setup.cfg': '[tool:pytest]\npythonpath = lib\n' })).toEqual({ addopts: [], pythonpath: ['lib'] });
    expect(options({ 'pyproject.toml': '[project]\nname = "x"\n' })).toEqual({});
  });

  it('iniSection reads continuation lines and says when the section is missing', () => {
    expect(iniSection('[a]\nk = 1\n  2\nj: x\n', 'a')).toEqual(new Map([['k', '1\n2'], ['j', 'x']]));
    expect(iniSection('[b]\nk = 1\n', 'a')).toBeNull();
  });
});

describe('pytestGraphOptions', () => {
  it('roots: the root, src/, pythonpath, PYTHONPATH; plugins: -p in addopts, PYTEST_ADDOPTS and the arguments, PYTEST_PLUGINS; no:x is none', () => {
    const facts = factsFromFiles('/p', { 'pytest.ini': '[pytest]\naddopts = -p one -p no:cacheprovider\npythonpath = lib\n', 'src/x.py': '' }, ['.venv/bin/python']);
    expect(pytestGraphOptions({ root: '/p', facts, env: { PYTHONPATH: '/p/extra:/shared', PYTEST_ADDOPTS: '-ptwo', PYTEST_PLUGINS: 'four, five' }, runnerArgs: ['-p=three'] })).toEqual({
      python: '/p/.venv/bin/python',
      roots: ['.', 'src', 'lib', 'extra', '../shared'],
      conftests: true,
      plugins: ['one', 'two', 'three', 'four', 'five'],
      entryPoints: ['pytest11'],
    });
  });
});
