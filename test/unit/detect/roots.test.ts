import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { everyProject, findProjectRoot, selectProjects } from '../../../src/detect/roots.js';
import { subprojects } from '../../../src/detect/subprojects.js';
import { projectsBelow } from '../../../src/core/unrun.js';

describe('selectProjects', () => {
  const mono = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-roots-')));
  for (const file of ['packages/a/Gemfile', 'packages/a/test/x_test.rb', 'services/b/Rakefile', 'services/b/test/y_test.rb', 'docs/readme.txt']) {
    fs.outputFileSync(path.join(mono, file), '');
  }

  it('groups files by their nearest enclosing project', () => {
    const files = ['packages/a/test/x_test.rb', 'services/b/test/y_test.rb', 'packages/a/Gemfile'].map((f) => path.join(mono, f));
    expect(selectProjects(mono, files)).toEqual([
      { root: path.join(mono, 'packages/a'), files: ['test/x_test.rb', 'Gemfile'] },
      { root: path.join(mono, 'services/b'), files: ['test/y_test.rb'] },
    ]);
  });

  it('runs a whole subproject when its directory is given', () => {
    expect(selectProjects(mono, [path.join(mono, 'packages/a')])).toEqual([{ root: path.join(mono, 'packages/a'), files: [] }]);
  });

  it("runs the workspaces of a root whose npm test runs theirs, with the root's reason", () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-workspaces-')));
    const write = (file: string, json: object) => fs.outputFileSync(path.join(root, file), JSON.stringify(json));
    write('package.json', { workspaces: ['packages/*', 'tools/**', '!tools/old'], scripts: { test: 'npm run build && npm test -ws' } });
    write('packages/b/package.json', { scripts: { test: 'jest' } });
    write('packages/a/package.json', { scripts: { test: 'mocha' } });
    write('packages/c/package.json', {});
    write('tools/deep/er/package.json', { scripts: { test: 'node --test' } });
    write('tools/old/package.json', { scripts: { test: 'node --test' } });
    write('packages/a/node_modules/d/package.json', { scripts: { test: 'x' } });
    const reason = 'scripts.test runs the tests of its workspaces ("npm test -ws"): each ran in its own directory (packages/a, packages/b, tools/deep/er); without scripts.test, not run: packages/c';
    expect(selectProjects(root, [])).toEqual(['packages/a', 'packages/b', 'tools/deep/er'].map((d) => ({ root: path.join(root, d), files: [], reason })));
    expect(selectProjects(root, [path.join(root, 'packages/a')])).toEqual([{ root: path.join(root, 'packages/a'), files: [] }]);
    // A root that runs a runner of its own runs itself; the projects below are named (jest's run leaves out mocha's).
    write('package.json', { workspaces: ['packages/*'], scripts: { test: 'jest && npm test --workspaces' } });
    expect(selectProjects(root, [])).toEqual([{ root, files: [] }]);
    expect(subprojects(root)).toEqual([
      { root: path.join(root, 'packages/a'), runner: 'mocha' }, { root: path.join(root, 'packages/b'), runner: 'jest' }, { root: path.join(root, 'tools/old'), runner: 'node-test' },
    ]);
  });

  it('expands workspace globs with picomatch: `**`, `*-web`, and a negation, in yarn\'s `{ packages }` too', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-workspace-globs-')));
    const write = (file: string, json: object) => fs.outputFileSync(path.join(root, file), JSON.stringify(json));
    write('package.json', { workspaces: { packages: ['apps/*-web', 'packages/**', '!packages/private'] }, scripts: { test: 'npm test --workspaces' } });
    for (const dir of ['apps/shop-web', 'apps/admin-cli', 'packages/ui', 'packages/lib/core', 'packages/private']) write(`${dir}/package.json`, { scripts: { test: 'jest' } });
    expect(selectProjects(root, []).map((p) => path.relative(root, p.root))).toEqual(['apps/shop-web', 'packages/lib/core', 'packages/ui']);
  });

  it('uses the project enclosing cwd when no file is given, or cwd itself', () => {
    expect(selectProjects(path.join(mono, 'packages/a/test'), [])).toEqual([{ root: path.join(mono, 'packages/a'), files: [] }]);
    expect(findProjectRoot(path.join(mono, 'docs'))).toBeNull();
    expect(selectProjects(path.join(mono, 'docs'), [])).toEqual([{ root: path.join(mono, 'docs'), files: [] }]);
  });
});

describe('subprojects', () => {
  it('finds the projects two levels below, each with its runner, not inside each other nor in dependencies or fixtures', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-subprojects-')));
    const files: Record<string, string> = {
      'go.mod': 'module example.com/m\n',
      'web/package.json': JSON.stringify({ scripts: { test: 'node --test' } }),
      'web/test/a.test.js': '',
      'web/inner/go.mod': 'module example.com/inner\n',
      'services/calc/Rakefile': '',
      'services/empty/package.json': '{}',
      'deep/a/b/go.mod': 'module example.com/deep\n',
      'node_modules/x/go.mod': 'module example.com/x\n',
      'test/fixtures/go.mod': 'module example.com/f\n',
      '.hidden/go.mod': 'module example.com/h\n',
    };
    for (const [file, text] of Object.entries(files)) fs.outputFileSync(path.join(root, file), text);
    expect(subprojects(root)).toEqual([
      { root: path.join(root, 'services/calc'), runner: 'minitest' },
      { root: path.join(root, 'web'), runner: 'node-test' },
    ]);
    expect(selectProjects(root, [])).toEqual([{ root, files: [] }]);
    expect(projectsBelow({ root, files: [] })).toEqual(subprojects(root));
    // Files of a project name no projects below it; nor does a workspace its root ran for it.
    expect(projectsBelow({ root, files: ['go.mod'] })).toEqual([]);
    expect(projectsBelow({ root, files: [], reason: 'a workspace' })).toEqual([]);
  });
});

describe('everyProject (--all-projects)', () => {
  const temp = (): string => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-every-')));
  const reason = (dir: string): string => `--all-projects: each project found below ${dir} ran in its own root`;

  it('finds the directory itself when it is a project, then the projects below it in name order, each once', () => {
    const root = temp();
    fs.outputFileSync(path.join(root, 'Rakefile'), '');
    fs.outputFileSync(path.join(root, 'web/package.json'), '{"scripts":{"test":"jest"}}');
    fs.outputFileSync(path.join(root, 'web/packages/inner/package.json'), '{"scripts":{"test":"jest"}}');
    fs.outputFileSync(path.join(root, 'api/go.mod'), 'module x\n');
    fs.outputFileSync(path.join(root, 'node_modules/dep/package.json'), '{"scripts":{"test":"jest"}}');
    fs.outputFileSync(path.join(root, 'docs/notes.txt'), '');
    expect(everyProject(root)).toEqual(['.', 'api', 'web'].map((d) => ({ root: path.join(root, d), files: [], reason: reason(root) })));
  });

  it('gives the workspaces of a root whose tests are theirs, each once, before the other projects below', () => {
    const root = temp();
    const write = (file: string, json: object) => fs.outputFileSync(path.join(root, file), JSON.stringify(json));
    write('package.json', { workspaces: ['packages/*'], scripts: { test: 'npm test --workspaces' } });
    write('packages/b/package.json', { scripts: { test: 'mocha' } });
    write('packages/a/package.json', { scripts: { test: 'node --test' } });
    fs.outputFileSync(path.join(root, 'api/go.mod'), 'module x\n');
    expect(everyProject(root)).toEqual(['packages/a', 'packages/b', 'api'].map((d) => ({ root: path.join(root, d), files: [], reason: reason(root) })));
  });

  it('leaves out a directory that is no project, and gives the directory itself when it finds none', () => {
    const root = temp();
    fs.outputFileSync(path.join(root, 'one/Gemfile'), '');
    fs.outputFileSync(path.join(root, 'two/deeper/Cargo.toml'), '[package]\nname = "x"\n');
    expect(everyProject(root).map((s) => path.relative(root, s.root))).toEqual(['one', 'two/deeper']);
    const empty = temp();
    expect(everyProject(empty)).toEqual([{ root: empty, files: [] }]);
  });
});
