import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { git } from '../support/git-repo.js';
import { copyFixture, hasTools, runJson } from './helpers.js';

const suite = hasTools('node', 'git') ? describe : describe.skip;

/** The fixture as a git work tree with everything committed. */
async function committed(): Promise<string> {
  const dir = await copyFixture('node-test-drift');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'start');
  return dir;
}

const edited = (paths: string[]) => `files of the project changed while the tests ran (${paths.join(', ')}): the result may not describe the tree as it is now`;

suite('the report bound to its tree', () => {
  it('names the revision, clean or dirty, and no drift for a run that changes nothing', async () => {
    const dir = await committed();
    const clean = await runJson(['--cwd', dir, 'test/calm.test.js']);
    expect([clean.exitCode, clean.report.status, clean.report.summary.passed]).toEqual([0, 'passed', 1]);
    expect(clean.report).toMatchObject({ git: { revision: git(dir, 'rev-parse', 'HEAD'), dirty: false }, drift: false, drift_paths: [], drift_paths_more: 0, warnings: [] });
    await fs.appendFile(path.join(dir, 'src/data.txt'), 'uncommitted\n');
    await fs.writeFile(path.join(dir, 'notes.txt'), 'untracked\n');
    const dirty = await runJson(['--cwd', dir, 'test/calm.test.js']);
    expect(dirty.report).toMatchObject({ status: 'passed', git: { revision: git(dir, 'rev-parse', 'HEAD'), dirty: true }, drift: false, drift_paths: [], warnings: [] });
  });

  it('says which files a test changed during the run, tracked and untracked, with a warning', async () => {
    const dir = await committed();
    const { exitCode, report } = await runJson(['--cwd', dir, 'test/edit.test.js']);
    expect([exitCode, report.status, report.summary.passed]).toEqual([0, 'passed', 1]);
    // calm.test.js only had its mtime moved: git sees the same content, so no change.
    expect(report).toMatchObject({ git: { revision: git(dir, 'rev-parse', 'HEAD'), dirty: false }, drift: true, drift_paths: ['made-during-run.txt', 'src/data.txt'], drift_paths_more: 0 });
    expect(report.warnings).toEqual([edited(['made-during-run.txt', 'src/data.txt'])]);
  });

  it('without git, has no git field and compares the files\' sizes and times', async () => {
    const dir = await copyFixture('node-test-drift');
    const calm = await runJson(['--cwd', dir, 'test/calm.test.js']);
    expect(calm.report).toMatchObject({ status: 'passed', drift: false, drift_paths: [] });
    expect('git' in calm.report).toBe(false);
    const { report } = await runJson(['--cwd', dir, 'test/edit.test.js']);
    // A file the run created is not told apart from a runner's output without git.
    expect(report).toMatchObject({ status: 'passed', drift: true, drift_paths: ['src/data.txt', 'test/calm.test.js'], drift_paths_more: 0 });
    expect(report.warnings).toEqual([edited(['src/data.txt', 'test/calm.test.js'])]);
    expect('git' in report).toBe(false);
  });

  it('leaves the fields out of a report where no runner ran', async () => {
    const dir = await committed();
    await runJson(['--cwd', dir, 'test/calm.test.js']);
    const { report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(report.status).toBe('nothing_to_rerun');
    expect(['git', 'drift', 'drift_paths', 'drift_paths_more'].filter((key) => key in report)).toEqual([]);
  });

  it('merges the projects\' drift for files from several projects, paths from where run-tests ran', async () => {
    const root = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-drift-merged-')));
    await copyFixture('node-test-drift', path.join(root, 'one'));
    await copyFixture('node-test-drift', path.join(root, 'two'));
    const { report } = await runJson(['--cwd', root, 'one/test/edit.test.js', 'two/test/calm.test.js']);
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.status, p.drift, p.drift_paths])).toEqual([
      ['one', 'passed', true, ['src/data.txt', 'test/calm.test.js']],
      ['two', 'passed', false, []],
    ]);
    expect(report).toMatchObject({ status: 'passed', drift: true, drift_paths: ['one/src/data.txt', 'one/test/calm.test.js'], drift_paths_more: 0 });
    expect(report.warnings).toEqual([`one: ${edited(['src/data.txt', 'test/calm.test.js'])}`]);
  });
});

