import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { findProjectRoot, selectProjects } from '../../../src/detect/roots.js';

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

  it('uses the project enclosing cwd when no file is given, or cwd itself', () => {
    expect(selectProjects(path.join(mono, 'packages/a/test'), [])).toEqual([{ root: path.join(mono, 'packages/a'), files: [] }]);
    expect(findProjectRoot(path.join(mono, 'docs'))).toBeNull();
    expect(selectProjects(path.join(mono, 'docs'), [])).toEqual([{ root: path.join(mono, 'docs'), files: [] }]);
  });
});
