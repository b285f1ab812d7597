/** The module graph esbuild's metafile gives, on small projects written for each case. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { GraphError, installedPackages, moduleGraph } from '../../../../src/ecosystems/node/module-graph.js';

/** A temp directory holding `files`, with `app/` as the project; its app path. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-graph-')));
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
  await fs.ensureDir(path.join(dir, 'app'));
  return path.join(dir, 'app');
}

const edges = (imports: ReadonlyMap<string, readonly string[]>): Record<string, readonly string[]> => Object.fromEntries([...imports].sort(([a], [b]) => (a < b ? -1 : 1)));

describe('moduleGraph', () => {
  it('resolves as node and TypeScript do: relative paths, index files, tsconfig paths, package.json imports, JSON, files outside the project', async () => {
    const app = await project({
      'app/package.json': JSON.stringify({ name: 'app', imports: { '#lib/*': './src/*' } }),
      'app/tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
      'app/src/a.ts': "import { b } from './b';\nimport data from './data.json';\nexport const a = () => b() + data.n;\n",
      'app/src/b/index.ts': "import { x } from '../../../shared/x.js';\nexport const b = () => x;\n",
      'app/src/data.json': '{ "n": 1 }\n',
      'app/src/c.js': 'module.exports = 3;\n',
      'app/src/types.ts': 'export type T = string;\n',
      'app/test/a.test.ts': "import { a } from '@app/a';\nimport type { T } from '../src/types';\nconst c = require('#lib/c.js');\nexport const t: T = String(a() + c);\n",
      'shared/x.js': 'export const x = 2;\n',
    });
    const graph = await moduleGraph(app, ['test/a.test.ts']);
    // A type-only import is erased: nothing of it runs.
    expect(edges(graph.imports)).toEqual({
      '../shared/x.js': [], 'src/a.ts': ['src/b/index.ts', 'src/data.json'], 'src/b/index.ts': ['../shared/x.js'], 'src/c.js': [], 'src/data.json': [],
      'test/a.test.ts': ['src/a.ts', 'src/c.js'],
    });
    expect([graph.computed.size, graph.unresolved.size]).toEqual([0, 0]);
  });

  it('leaves installed packages out, and follows a workspace package linked from outside node_modules', async () => {
    const app = await project({
      'app/node_modules/lib/package.json': JSON.stringify({ name: 'lib', main: 'index.js' }),
      'app/node_modules/lib/index.js': 'module.exports = (name) => require(name);\n',
      'packages/ws/package.json': JSON.stringify({ name: '@s/ws', exports: { '.': './main.js' } }),
      'packages/ws/main.js': "module.exports = require('./inner');\n",
      'packages/ws/inner.js': 'module.exports = 1;\n',
      'app/test/a.test.js': "require('lib');\nrequire('lib/index.js');\nrequire('@s/ws');\nrequire('node:fs');\nrequire('path');\n",
    });
    await fs.ensureDir(path.join(app, 'node_modules/@s'));
    await fs.symlink(path.join(app, '../packages/ws'), path.join(app, 'node_modules/@s/ws'));
    expect(installedPackages(app)).toContain('lib');
    expect(installedPackages(app)).not.toContain('@s/ws');
    const graph = await moduleGraph(app, ['test/a.test.js']);
    expect(edges(graph.imports)).toEqual({ '../packages/ws/inner.js': [], '../packages/ws/main.js': ['../packages/ws/inner.js'], 'test/a.test.js': ['../packages/ws/main.js'] });
    // The package's own require(name) is its own.
    expect([...graph.computed, ...graph.unresolved]).toEqual([]);
  });

  it('names each file with an import left to run time: require(x), import(x), an indirect require, a computed path esbuild globs, a require made by createRequire', async () => {
    const app = await project({
      'app/src/req.js': 'const name = process.env.X;\nmodule.exports = () => require(name);\n',
      'app/src/imp.mjs': 'export const load = (where) => import(`${where}`);\n',
      'app/src/indirect.js': 'const r = require;\nmodule.exports = r;\n',
      'app/src/glob.js': "module.exports = (n) => require('./plugins/' + n);\n",
      'app/src/plugins/one.js': 'module.exports = 1;\n',
      'app/src/made.mjs': "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const helper = require('./helper.cjs');\n",
      'app/src/helper.cjs': 'module.exports = 1;\n',
      'app/test/a.test.js': "require('../src/req');\nimport('../src/imp.mjs');\nrequire('../src/indirect');\nrequire('../src/glob');\nimport('../src/made.mjs');\n",
    });
    const graph = await moduleGraph(app, ['test/a.test.js']);
    // A require made by createRequire is not followed, a literal path's neither.
    expect(graph.imports.get('src/made.mjs')).toEqual([]);
    expect(Object.fromEntries(graph.computed)).toEqual({
      'src/req.js': 'require(name)', 'src/imp.mjs': 'import(`${where}`)', 'src/indirect.js': 'require', 'src/glob.js': 'a pattern: ./plugins/**/*', 'src/made.mjs': 'createRequire(...)',
    });
  });

  it('records a bare import no package provides (an alias it cannot read), in a try block too, and reads the rest', async () => {
    const app = await project({
      'app/src/a.js': 'module.exports = 1;\n',
      'app/test/a.test.js': "require('@/a');\nrequire('../src/a');\n",
      'app/test/b.test.js': "try { require('optional-thing'); } catch {}\n",
    });
    const graph = await moduleGraph(app, ['test/a.test.js', 'test/b.test.js']);
    expect(Object.fromEntries(graph.unresolved)).toEqual({ 'test/a.test.js': '@/a', 'test/b.test.js': 'optional-thing' });
    expect(graph.imports.get('test/a.test.js')).toEqual(['src/a.js']);
  });

  it('reads an image as a leaf and JSX in a .js file; fails, saying where, on a missing file or a kind whose imports it cannot read', async () => {
    const app = await project({
      'app/src/logo.png': 'png',
      'app/src/view.vue': '<template></template>\n',
      'app/src/view.js': "export const View = () => <div class='x'>{1}</div>;\n",
      'app/test/a.test.js': "require('../src/logo.png');\nrequire('../src/view.js');\n",
      'app/test/b.test.js': "require('../src/view.vue');\n",
      'app/test/c.test.js': "require('./missing');\n",
    });
    expect((await moduleGraph(app, ['test/a.test.js'])).imports.get('test/a.test.js')).toEqual(['src/logo.png', 'src/view.js']);
    await expect(moduleGraph(app, ['test/b.test.js'])).rejects.toThrow(GraphError);
    await expect(moduleGraph(app, ['test/b.test.js'])).rejects.toThrow(/^test\/b\.test\.js:1: No loader is configured for "\.vue" files/);
    await expect(moduleGraph(app, ['test/c.test.js'])).rejects.toThrow('test/c.test.js:1: Could not resolve "./missing"');
  });
});
