/** What a JavaScript plan selects from the module graph and a runner's facts (given here,
 * as a runner's listing would give them), on small projects written for each case. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { nodeChanges, type RunnerFacts } from '../../../../src/ecosystems/node/changes.js';
import { configEntries, configNamed, wholeSuiteByName } from '../../../../src/ecosystems/node/change-names.js';
import { preloadedFiles } from '../../../../src/ecosystems/node/preloads.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import type { AffectedUnits, ChangedFile } from '../../../../src/runners/types.js';

const FILES: Record<string, string> = {
  'app/package.json': '{ "name": "app" }\n',
  'app/src/a.js': 'module.exports = 1;\n',
  'app/src/b.js': "module.exports = require('./a');\n",
  'app/src/c.js': "module.exports = require('./b');\n",
  'app/src/alias.js': "module.exports = require('@/a');\n",
  'app/test/a.test.js': "require('../src/a');\n",
  'app/test/c.test.js': "require('../src/c');\n",
  'app/test/t.test.js': "require('./a.test.js');\n",
  'app/test/setup.js': "require('../src/setup-helper');\n",
  'app/src/setup-helper.js': 'module.exports = 0;\n',
  'app/jest.config.js': "module.exports = require('./config/base');\n",
  'app/config/base.js': 'module.exports = {};\n',
  'app/test/__snapshots__/a.test.js.snap': '',
};
const UNITS = ['test/a.test.js', 'test/c.test.js', 'test/t.test.js'];

async function project(extra: Record<string, string> = {}): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-changes-')));
  for (const [file, text] of Object.entries({ ...FILES, ...extra })) await fs.outputFile(path.join(dir, file), text);
  return path.join(dir, 'app');
}

const NO_FACTS: RunnerFacts = { setup: [], related: null };

async function plan(root: string, changed: readonly (string | ChangedFile)[], options: { runner?: 'jest' | 'mocha'; facts?: RunnerFacts } = {}): Promise<AffectedUnits> {
  const support = nodeChanges({ runner: options.runner ?? 'jest', resolvesAliases: options.runner !== 'mocha', facts: async () => options.facts ?? NO_FACTS });
  return support.affected({
    root, facts: readProjectFacts(root), files: [], env: {},
    changed: changed.map((file) => (typeof file === 'string' ? { path: file, change: 'modified' } : file)),
    units: UNITS.map((name) => ({ name, bytes: 1 })),
  });
}

const lines = (affected: AffectedUnits): string[] | string =>
  affected.wholeSuite ?? affected.units.map((u) => `${u.unit}: ${u.reasons.join('; ')}`).sort();

describe('nodeChanges', () => {
  it('selects every unit that reaches a changed file, with the files between; a test another test imports too', async () => {
    const root = await project();
    expect(lines(await plan(root, ['src/a.js']))).toEqual([
      'test/a.test.js: imports src/a.js', 'test/c.test.js: imports src/a.js via src/c.js, src/b.js', 'test/t.test.js: imports src/a.js via test/a.test.js',
    ]);
    expect(lines(await plan(root, ['test/a.test.js']))).toEqual(['test/t.test.js: imports test/a.test.js']);
    // Reached by no test: nothing; a snapshot: its test file.
    expect(lines(await plan(root, ['src/alias.js', 'src/new.ts', 'test/__snapshots__/a.test.js.snap']))).toEqual(['test/a.test.js: its snapshot file changed']);
    expect(lines(await plan(root, ['test/__snapshots__/gone.test.js.snap']))).toBe('test/__snapshots__/gone.test.js.snap is the snapshot of no test file the suite lists (test/gone.test.js)');
  });

  it('joins the runner\'s own graph: by file, or for all the files together, each unit the module graph did not select for it', async () => {
    const root = await project();
    const byFile: RunnerFacts = { setup: [], related: { tool: 'jest --findRelatedTests', byFile: new Map([['src/alias.js', ['test/c.test.js']], ['src/a.js', ['test/a.test.js', 'elsewhere.test.js']]]), together: [] } };
    expect(lines(await plan(root, ['src/a.js', 'src/alias.js'], { facts: byFile }))).toEqual([
      'test/a.test.js: imports src/a.js', 'test/c.test.js: imports src/a.js via src/c.js, src/b.js; depends on src/alias.js (jest --findRelatedTests)',
      'test/t.test.js: imports src/a.js via test/a.test.js',
    ]);
    const together: RunnerFacts = { setup: [], related: { tool: 'jest --findRelatedTests', byFile: null, together: ['test/t.test.js', 'test/c.test.js'] } };
    expect(lines(await plan(root, ['src/alias.js', 'src/new.js'], { facts: together }))).toEqual([
      'test/c.test.js: depends on one of src/alias.js, src/new.js (jest --findRelatedTests)', 'test/t.test.js: depends on one of src/alias.js, src/new.js (jest --findRelatedTests)',
    ]);
  });

  it('is the whole suite for a setup file and what it imports, a module config and what it imports, and the runner\'s own rule', async () => {
    const root = await project();
    const facts: RunnerFacts = { setup: ['test/setup.js'], related: null };
    expect(lines(await plan(root, ['test/setup.js'], { facts }))).toBe('test/setup.js changed: a setup file, loaded before every test file');
    expect(lines(await plan(root, ['src/setup-helper.js'], { facts }))).toBe('src/setup-helper.js is imported by test/setup.js, a setup file, loaded before every test file');
    expect(lines(await plan(root, ['config/base.js']))).toBe('config/base.js is imported by jest.config.js, a configuration every test runs under');
    expect(lines(await plan(root, ['src/a.js'], { facts: { ...NO_FACTS, wholeSuite: 'vitest says so' } }))).toBe('vitest says so');
  });

  it('is the whole suite for a computed import anywhere a test or setup file reaches, for an alias where the runner resolves none, and for a file the graph does not hold', async () => {
    const root = await project({ 'app/src/setup-helper.js': 'module.exports = (n) => require(n);\n', 'app/data/table.csv': 'a,b\n' });
    expect(lines(await plan(root, ['src/a.js']))).toEqual(expect.arrayContaining(['test/a.test.js: imports src/a.js']));
    expect(lines(await plan(root, ['src/a.js'], { facts: { setup: ['test/setup.js'], related: null } }))).toBe('src/setup-helper.js imports a computed path (require(n))');
    const aliased = await project({ 'app/test/c.test.js': "require('@/c');\n" });
    expect(lines(await plan(aliased, ['src/a.js'], { runner: 'mocha' }))).toBe('test/c.test.js imports @/c, which resolves to no installed package: an alias the graph cannot follow');
    expect(lines(await plan(aliased, ['src/a.js'], { runner: 'jest' }))).toEqual(['test/a.test.js: imports src/a.js', 'test/t.test.js: imports src/a.js via test/a.test.js']);
    expect(lines(await plan(root, ['data/table.csv']))).toBe('data/table.csv is no source file the graph knows: a test may read it at run time');
    const broken = await project({ 'app/test/a.test.js': "require('./missing');\n" });
    expect(lines(await plan(broken, ['src/a.js']))).toBe('esbuild could not read the module graph: test/a.test.js:1: Could not resolve "./missing"');
  });

  it('outside the project: a file a test reaches selects it; above the project a lockfile is the whole suite; a sibling\'s file or a deleted one nothing', async () => {
    const root = await project({ 'shared/x.js': 'module.exports = 2;\n', 'app/src/a.js': "module.exports = require('../../shared/x.js');\n", 'other/README.md': '' });
    expect(lines(await plan(root, ['../shared/x.js', '../other/README.md', { path: '../other/gone.js', change: 'deleted' }]))).toEqual([
      'test/a.test.js: imports ../shared/x.js via src/a.js', 'test/c.test.js: imports ../shared/x.js via src/c.js, src/b.js, src/a.js', 'test/t.test.js: imports ../shared/x.js via test/a.test.js, src/a.js',
    ]);
    expect(lines(await plan(root, ['../package-lock.json']))).toBe('../package-lock.json changed: it decides which packages every test loads');
    expect(lines(await plan(root, ['../other/package-lock.json']))).toEqual([]);
  });
});

describe('wholeSuiteByName', () => {
  it.each([
    ['package.json', 'package.json changed: a configuration every test runs under'],
    ['packages/x/package.json', 'packages/x/package.json changed: a configuration every test runs under'],
    ['yarn.lock', 'yarn.lock changed: it decides which packages every test loads'],
    ['pnpm-lock.yaml', 'pnpm-lock.yaml changed: it decides which packages every test loads'],
    ['tsconfig.build.json', 'tsconfig.build.json changed: a configuration every test runs under'],
    ['.babelrc', '.babelrc changed: a configuration every test runs under'],
    ['babel.config.cjs', 'babel.config.cjs changed: a configuration every test runs under'],
    ['vite.config.ts', 'vite.config.ts changed: a configuration every test runs under'],
    ['.mocharc.yml', '.mocharc.yml changed: a configuration every test runs under'],
    ['src/__mocks__/fs.js', 'src/__mocks__/fs.js is a manual mock: jest may load it in place of any module'],
    ['config/unit.js', 'config/unit.js changed: a configuration every test runs under'],
    ['src/a.js', null],
    ['src/package.ts', null],
  ])('%s', (file, reason) => {
    expect(wholeSuiteByName(file, 'jest', ['config/unit.js'])).toBe(reason);
  });

  it('a manual mock is the whole suite for jest and vitest only; the script\'s --config (and jest\'s -c, not mocha\'s --colors) is configuration', async () => {
    expect(wholeSuiteByName('__mocks__/x.js', 'mocha', [])).toBeNull();
    const root = await project({ 'app/package.json': JSON.stringify({ scripts: { test: 'jest -c config/unit.js' } }), 'app/config/unit.js': '', 'app/vitest.config.mts': '' });
    const facts = readProjectFacts(root);
    expect(configNamed(facts, 'jest', ['--config=more.json'])).toEqual(['config/unit.js', 'more.json']);
    expect(configNamed(facts, 'mocha', ['-c', '--config', './m.js'])).toEqual(['m.js']);
    expect(configEntries(facts, ['config/unit.js', 'more.json'])).toEqual(['jest.config.js', 'vitest.config.mts', 'config/unit.js']);
  });
});

describe('preloadedFiles', () => {
  it('are the project\'s files node --require, --import and --loader name, in the flags and NODE_OPTIONS; a package\'s are not', async () => {
    const root = await project({ 'app/setup.cjs': '', 'app/hooks.mjs': '', 'app/node_modules/reg/package.json': '{ "name": "reg", "main": "i.js" }', 'app/node_modules/reg/i.js': '' });
    expect(preloadedFiles(root, ['--require=./setup.cjs', '--import', 'reg', '-r', './missing.js'], { NODE_OPTIONS: "--loader './hooks.mjs' --max-old-space-size=99" }))
      .toEqual(['setup.cjs', 'missing.js', 'hooks.mjs']);
  });
});
