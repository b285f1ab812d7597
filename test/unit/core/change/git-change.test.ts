import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { checkInsideTree, readChange } from '../../../../src/core/change/git-change.js';
import { HarnessError } from '../../../../src/model/errors.js';
import { git, gitRepo, write } from '../../../support/git-repo.js';

const commit = (dir: string, message = 'next') =>
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-am', message);

/** The usage error readChange throws, or a failure when it throws none. */
async function refused(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof HarnessError)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  expect(error.code).toBe('USAGE');
  return error.message;
}

describe('readChange', () => {
  it('gives the working tree and index against HEAD: edited, staged, added, untracked and deleted files, a rename as both', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n', 'old.txt': 'o\n', 'same.txt': 's\n' });
    write(dir, { 'a.txt': 'edited\n', 'b.txt': 'staged\n', 'new/untracked.txt': 'u\n', '.run-tests/runs/x.json': '{}' });
    git(dir, 'add', 'b.txt');
    fs.rmSync(path.join(dir, 'gone.txt'));
    git(dir, 'mv', 'old.txt', 'renamed.txt');
    const change = await readChange(dir, null);
    expect(change.files).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'b.txt', change: 'modified' },
      { path: 'gone.txt', change: 'deleted' },
      { path: 'new/untracked.txt', change: 'added' },
      { path: 'old.txt', change: 'deleted' },
      { path: 'renamed.txt', change: 'added' },
    ]);
    expect([change.base, change.head, change.ref, change.top]).toEqual([git(dir, 'rev-parse', 'HEAD'), git(dir, 'rev-parse', 'HEAD'), null, dir]);
  });

  it('is empty for a clean tree, and its digest follows the content of the change', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const clean = await readChange(dir, null);
    expect(clean.files).toEqual([]);
    write(dir, { 'a.txt': 'one\n' });
    const one = await readChange(dir, null);
    write(dir, { 'a.txt': 'two\n' });
    const two = await readChange(dir, null);
    write(dir, { 'a.txt': 'one\n' });
    const again = await readChange(dir, null);
    expect(one.tree).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect([one.tree === two.tree, one.tree === again.tree, clean.tree === one.tree]).toEqual([false, true, false]);
  });

  it('with a ref: everything since the merge base, commits of the branch and the uncommitted change, not what the ref gained since', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    git(dir, 'branch', '-M', 'main');
    git(dir, 'checkout', '-q', '-b', 'topic');
    write(dir, { 'a.txt': 'topic\n' });
    commit(dir);
    write(dir, { 'b.txt': 'uncommitted\n' });
    git(dir, 'checkout', '-q', 'main', '--', 'c.txt');
    const base = git(dir, 'rev-parse', 'main');
    // main moves on: its own change is not the branch's.
    git(dir, 'stash', '-q');
    git(dir, 'checkout', '-q', 'main');
    write(dir, { 'c.txt': 'main moved\n' });
    commit(dir);
    git(dir, 'checkout', '-q', 'topic');
    git(dir, 'stash', 'pop', '-q');
    const change = await readChange(dir, 'main');
    expect(change.files).toEqual([{ path: 'a.txt', change: 'modified' }, { path: 'b.txt', change: 'modified' }]);
    expect([change.base, change.ref]).toEqual([base, 'main']);
  });

  it('in a repository without a commit, every file is added', async () => {
    const dir = gitRepo();
    write(dir, { 'x.txt': 'x\n', 'staged.txt': 's\n' });
    git(dir, 'add', 'staged.txt');
    const change = await readChange(dir, null);
    expect([change.base, change.head, change.files]).toEqual([null, null, [{ path: 'staged.txt', change: 'added' }, { path: 'x.txt', change: 'added' }]]);
  });

  it('refuses, naming the cause: no work tree, a ref that names no commit, one that reads as an option, no commit to measure from, no merge base', async () => {
    const plain = fs.realpathSync(fs.mkdtempSync(path.join(path.dirname(gitRepo()), 'run-tests-plain-')));
    expect(await refused(readChange(plain, null))).toContain(`${plain} is not in a git work tree`);
    const dir = gitRepo({ 'a.txt': 'a\n' });
    expect(await refused(readChange(dir, 'no-such-branch'))).toContain('"no-such-branch" names no commit');
    expect(await refused(readChange(dir, '--output=/tmp/x'))).toContain('"--output=/tmp/x" is no git ref');
    expect(await refused(readChange(gitRepo(), 'HEAD'))).toContain('names no commit');
    const first = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '--orphan', 'other');
    write(dir, { 'o.txt': 'o\n' });
    git(dir, 'add', '-A');
    commit(dir, 'orphan');
    expect(await refused(readChange(dir, first))).toContain(`${first} and HEAD have no common ancestor`);
  });

  it('in a shallow clone without the merge base, says to fetch more history', async () => {
    const origin = gitRepo({ 'a.txt': 'a\n' });
    git(origin, 'branch', '-M', 'main');
    git(origin, 'checkout', '-q', '-b', 'topic');
    for (const n of [1, 2, 3]) {
      write(origin, { 'a.txt': `topic ${n}\n` });
      commit(origin);
    }
    git(origin, 'checkout', '-q', 'main');
    write(origin, { 'a.txt': 'main\n' });
    commit(origin);
    const clone = fs.realpathSync(fs.mkdtempSync(path.join(path.dirname(origin), 'run-tests-shallow-')));
    git(clone, 'clone', '-q', '--depth', '1', '--no-single-branch', `file://${origin}`, '.');
    git(clone, 'checkout', '-q', 'topic');
    expect(await refused(readChange(clone, 'origin/main'))).toContain('this is a shallow clone');
  });
});

describe('checkInsideTree', () => {
  it('refuses a path outside the work tree and takes one inside', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const change = await readChange(dir, null);
    expect(() => checkInsideTree(change, [path.join(dir, 'a.txt')])).not.toThrow();
    expect(() => checkInsideTree(change, [path.dirname(dir)])).toThrow(`${path.dirname(dir)} is outside the git work tree at ${dir}`);
  });
});
