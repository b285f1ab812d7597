/** reporters/python/import_graph.py, run by python3 on small projects: each kind of
 * import resolves to the files it can load, and what cannot be known is said. */
import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readImportGraph, type GraphInput } from '../../../src/ecosystems/python-imports.js';
import { REPO } from '../../e2e/helpers.js';

function project(files: Readonly<Record<string, string>>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-graph-')));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

const graph = (root: string, input: Partial<GraphInput>, env: NodeJS.ProcessEnv = {}) =>
  readImportGraph({ root, env: { ...process.env, ...env }, reportersDir: path.join(REPO, 'reporters'), python: 'python3' },
    { roots: ['.', 'src'], entries: [], parse: [], plugins: [], entry_points: [], ...input });

const IMPORTS = {
  'src/pkg/__init__.py': '',
  'src/pkg/a.py': 'from . import b\nfrom .sub.c import thing\n',
  'src/pkg/b.py': 'def later():\n    import importlib\n    return importlib.import_module("pkg.lazy")\n',
  'src/pkg/lazy.py': '',
  'src/pkg/plug.py': '',
  'src/pkg/opt.py': '',
  'src/pkg/sub/__init__.py': 'from .d import *\n',
  'src/pkg/sub/c.py': 'thing = 1\n',
  'src/pkg/sub/d.py': '',
  'src/pkg/unused.py': 'import pkg.a\n',
  'nsp/mod.py': 'import os, json, collections.abc\n',
  'third_party/vendored.py': '',
  'lib/libmod.py': '',
  'other/libmod.py': '',
  'tests/helpers.py': '',
  'tests/test_abs.py': 'import pkg.a\nimport json\nfrom pkg import sub\nimport helpers\nimport nsp.mod\nimport vendored\nimport libmod\nimport not_anywhere\n',
  'tests/test_star.py': 'from pkg.sub import *\n',
  'tests/test_plugins.py': 'import pytest\n\npytest_plugins = ["pkg.plug"]\npytest.importorskip("pkg.opt")\n',
  'tests/inner/__init__.py': '',
  'tests/inner/sibling.py': 'from .. import inner\n',
  'tests/inner/test_rel.py': '# -*- coding: latin-1 -*-\nfrom . import sibling\nNAME = "\xe9"\n',
};

describe('import_graph.py', () => {
  it('resolves absolute, relative, submodule, star, namespace, lazy and plugin imports to the project files they load', async () => {
    const root = project(IMPORTS);
    const entries = ['tests/test_abs.py', 'tests/test_star.py', 'tests/test_plugins.py', 'tests/inner/test_rel.py'];
    expect(await graph(root, { entries }, { PYTHONPATH: path.join(root, 'lib') })).toEqual({
      modules: {
        'lib/libmod.py': [],
        'nsp/mod.py': [],
        'src/pkg/__init__.py': [],
        'src/pkg/a.py': ['src/pkg/__init__.py', 'src/pkg/b.py', 'src/pkg/sub/__init__.py', 'src/pkg/sub/c.py'],
        'src/pkg/b.py': ['src/pkg/__init__.py', 'src/pkg/lazy.py'],
        'src/pkg/lazy.py': [],
        'src/pkg/opt.py': [],
        'src/pkg/plug.py': [],
        'src/pkg/sub/__init__.py': ['src/pkg/sub/d.py'],
        'src/pkg/sub/c.py': [],
        'src/pkg/sub/d.py': [],
        'tests/helpers.py': [],
        'tests/inner/__init__.py': [],
        'tests/inner/sibling.py': ['tests/inner/__init__.py'],
        // Its own package's __init__.py, as `tests.inner.test_rel` is imported.
        'tests/inner/test_rel.py': ['tests/inner/__init__.py', 'tests/inner/sibling.py'],
        // helpers: the test file's own directory is on sys.path (rootdir-based import);
        // vendored: found nowhere on the path, so wherever the project holds it; libmod:
        // where python finds it (PYTHONPATH), not other/libmod.py; stdlib is no dependency.
        'tests/test_abs.py': ['nsp/mod.py', 'src/pkg/__init__.py', 'src/pkg/a.py', 'src/pkg/sub/__init__.py', 'tests/helpers.py', 'third_party/vendored.py', 'lib/libmod.py'].sort(),
        'tests/test_plugins.py': ['src/pkg/__init__.py', 'src/pkg/opt.py', 'src/pkg/plug.py'],
        'tests/test_star.py': ['src/pkg/__init__.py', 'src/pkg/sub/__init__.py', 'src/pkg/sub/c.py', 'src/pkg/sub/d.py'],
        'third_party/vendored.py': [],
      },
      problems: [],
      preloaded: [],
    });
  }, 30_000);

  it('says which modules import a name they compute, run code they build or start python, or do not parse', async () => {
    const root = project({
      'tests/test_exec.py': 'exec(open("x.py").read())\n',
      'tests/test_runpy.py': 'from runpy import run_path\n',
      'tests/test_dyn.py': 'import importlib\n\ndef load(name):\n    return importlib.import_module(name)\n',
      'tests/test_dunder.py': 'mod = __import__(NAME)\n',
      'tests/test_loader.py': 'import importlib.util\nspec = importlib.util.spec_from_file_location("m", PATH)\n',
      'tests/test_cli.py': 'import sys\n\nCOMMAND = [sys.executable, "tools/cli.py"]\n',
      // Python started on a literal module or code: its imports are this module's.
      'tests/test_python.py': 'import sys\n\nA = [sys.executable, "-I", "-m", "pkg.cli", "--help"]\nB = (sys.executable, "-sS", "-c", "import pkg.lazy; print(1)")\n',
      'pkg/__init__.py': '',
      'pkg/cli.py': '',
      'pkg/lazy.py': '',
      'tests/test_shell.py': 'import os, sys\n\nos.system(f"{sys.executable} -m pkg.cli")\n',
      'tests/test_spawn.py': 'import os, sys\n\nos.execv(sys.executable, ARGS)\n',
      'tests/test_both.py': 'import subprocess, sys\n\nPYTHON = sys.executable\nsubprocess.run(ARGS)\n',
      // Only naming the interpreter (boltons' ecoutils reports it; packaging's _musllinux
      // reads its ELF header, and runs another program) starts no python.
      'tests/test_names.py': 'import subprocess, sys\n\nINFO = {"bin": sys.executable}\nsubprocess.run([LD])\nread(sys.executable)\n',
      'tests/test_plugins.py': 'pytest_plugins = PLUGINS\n',
      'tests/test_syntax.py': 'def broken(:\n',
      'tests/test_fine.py': 'import importlib\nimportlib.import_module(".x", __package__)\n',
      'src/never.py': 'if True\n',
    });
    const entries = ['test_exec', 'test_runpy', 'test_dyn', 'test_dunder', 'test_loader', 'test_cli', 'test_shell', 'test_spawn', 'test_both', 'test_names', 'test_plugins', 'test_syntax', 'test_fine'].map((t) => `tests/${t}.py`);
    const { problems, modules } = await graph(root, { entries: [...entries, 'tests/test_python.py'], parse: ['src/never.py', 'tests/test_fine.py'] });
    expect(modules['tests/test_python.py']).toEqual(['pkg/__init__.py', 'pkg/cli.py', 'pkg/lazy.py']);
    expect(problems).toEqual([
      { file: 'src/never.py', reason: "cannot be parsed (SyntaxError: expected ':', line 1)" },
      { file: 'tests/test_both.py', reason: 'starts python itself (a name for sys.executable, and a process)' },
      { file: 'tests/test_cli.py', reason: 'starts python itself ([sys.executable, "tools/cli.py"])' },
      { file: 'tests/test_dunder.py', reason: 'imports a computed name (__import__(NAME))' },
      { file: 'tests/test_dyn.py', reason: 'imports a computed name (importlib.import_module(name))' },
      { file: 'tests/test_exec.py', reason: 'runs code it builds (exec(open("x.py").read()))' },
      { file: 'tests/test_loader.py', reason: 'loads a module by its path or name (importlib.util.spec_from_file_location("m", PATH))' },
      { file: 'tests/test_plugins.py', reason: 'names its pytest_plugins by a computed value (pytest_plugins = PLUGINS)' },
      { file: 'tests/test_runpy.py', reason: 'imports runpy, which runs modules by name or path' },
      { file: 'tests/test_shell.py', reason: 'starts python itself (sys.executable in a command line)' },
      { file: 'tests/test_spawn.py', reason: 'starts python itself (os.execv(sys.executable, ARGS))' },
      { file: 'tests/test_syntax.py', reason: 'cannot be parsed (SyntaxError: invalid syntax, line 1)' },
    ]);
  }, 30_000);

  it('where a module reached changes sys.path, a name resolves wherever the project holds it', async () => {
    const root = project({
      'shadow.py': '',
      'lib2/shadow.py': '',
      'tests/test_plain.py': 'import shadow\n',
      'tests/test_path.py': 'import sys\nsys.path.insert(0, "lib2")\nimport shadow\n',
    });
    expect((await graph(root, { entries: ['tests/test_plain.py'] })).modules['tests/test_plain.py']).toEqual(['shadow.py']);
    expect((await graph(root, { entries: ['tests/test_path.py'] })).modules['tests/test_path.py']).toEqual(['lib2/shadow.py', 'shadow.py']);
  }, 30_000);

  it('names what loads before every test: -p plugins, pytest11 entry points, sitecustomize.py on the path', async () => {
    const root = project({
      'src/pkg/__init__.py': '',
      'src/pkg/plug.py': 'from pkg import helper\n',
      'src/pkg/helper.py': '',
      'src/pkg/entry.py': '',
      'src/sitecustomize.py': '',
      'site/fake-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: fake\nVersion: 1.0\n',
      'site/fake-1.0.dist-info/entry_points.txt': '[pytest11]\nfake = pkg.entry\n',
      'tests/test_a.py': '',
    });
    const { modules, preloaded } = await graph(root, { entries: ['tests/test_a.py'], plugins: ['pkg.plug', 'not_a_module'], entry_points: ['pytest11'] }, { PYTHONPATH: path.join(root, 'site') });
    expect(preloaded).toEqual([
      { file: 'src/pkg/__init__.py', why: 'the pytest plugin -p pkg.plug' },
      { file: 'src/pkg/entry.py', why: 'an entry point of group pytest11 (fake)' },
      { file: 'src/pkg/plug.py', why: 'the pytest plugin -p pkg.plug' },
      { file: 'src/sitecustomize.py', why: 'Python imports sitecustomize.py as it starts' },
    ]);
    expect(modules['src/pkg/plug.py']).toEqual(['src/pkg/__init__.py', 'src/pkg/helper.py']);
  }, 30_000);

  it('a python that fails is a RUNNER_FAILED error with what it said', async () => {
    const root = project({ 'tests/test_a.py': '' });
    await expect(readImportGraph({ root, env: process.env, reportersDir: path.join(root, 'nowhere'), python: 'python3' }, { roots: ['.'], entries: ['tests/test_a.py'], parse: [], plugins: [], entry_points: [] }))
      .rejects.toMatchObject({ code: 'RUNNER_FAILED', message: expect.stringMatching(/^the import graph \(reporters\/python\/import_graph\.py\) failed \(exit 2\):\n.*No such file/s) });
  }, 30_000);
});
