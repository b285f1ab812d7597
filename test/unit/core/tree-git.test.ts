import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitState, gitStateAgain, gitTop, MAX_WATCHED, parseStatus } from '../../../src/core/tree-git.js';
import { changedPaths, dirPrint, fingerprint, type TreeState } from '../../../src/core/tree-state.js';
import { git, gitRepo, write } from '../../support/git-repo.js';

/** No file can have changed after this: only the fingerprints tell changes apart. */
const NEVER = Number.POSITIVE_INFINITY;

/** The first look at the work tree holding `root`. */
async function state(root: string, skip: ReadonlySet<string> = new Set()): Promise<TreeState> {
  const where = await gitTop(root);
  if (where === null) throw new Error(`${root} is not in a git work tree`);
  const got = await gitState(root, where, skip);
  if (got === null) throw new Error('git status failed');
  return got;
}

/** The second look, after `before`. */
async function again(root: string, before: TreeState, sinceMs = NEVER, skip: ReadonlySet<string> = new Set()): Promise<TreeState> {
  if (before.git === null) throw new Error('no git state');
  const got = await gitStateAgain(root, before.git, skip, sinceMs);
  if (got === null) throw new Error('git status failed');
  return got;
}

describe('parseStatus', () => {
  it('reads the branch oid and each kind of entry from git itself, paths with spaces and renames included', () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'old name.txt': 'o\n', 'keep.txt': 'k\n' });
    write(dir, { 'a.txt': 'changed\n', 'new dir/un tracked.txt': 'u\n' });
    git(dir, 'mv', 'old name.txt', 'new name.txt');
    const { oid, entries } = parseStatus(git(dir, 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all') + '\0');
    expect(oid).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(entries.map((e) => [e.line.split(' ').slice(0, 2).join(' '), e.file])).toEqual([
      ['1 .M', 'a.txt'],
      ['2 R.', 'new name.txt'],
      ['?', 'new dir/un tracked.txt'],
    ]);
  });

  it('gives no revision on an unborn HEAD', () => {
    const dir = gitRepo();
    expect(parseStatus(git(dir, 'status', '--porcelain=v2', '--branch', '-z')).oid).toBeNull();
  });
});

describe('gitState', () => {
  it('names the revision, and is clean when only untracked or ignored files differ', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', '.gitignore': 'ignored/\n' });
    const clean = await state(dir);
    expect(clean.git).toMatchObject({ revision: git(dir, 'rev-parse', 'HEAD'), dirty: false, top: dir, untracked: [] });
    expect([...(clean.git?.dirs?.keys() ?? [])].sort()).toEqual(['']);
    expect([...clean.files.keys()]).toEqual([]);
    write(dir, { 'loose.txt': 'x\n', 'ignored/out.txt': 'x\n', '.run-tests/last-test.log': 'log\n' });
    const untracked = await state(dir);
    expect(untracked.git?.dirty).toBe(false);
    // .run-tests/ is run-tests' own, even where git does not ignore it.
    expect([...untracked.files.keys()]).toEqual(['loose.txt']);
  });

  it('is dirty when a tracked file differs from HEAD, staged or not; on an unborn HEAD, when a file is staged', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    write(dir, { 'a.txt': 'changed\n' });
    expect((await state(dir)).git?.dirty).toBe(true);
    git(dir, 'checkout', '--', 'a.txt');
    fs.rmSync(path.join(dir, 'b.txt'));
    git(dir, 'add', '-A');
    expect((await state(dir)).git?.dirty).toBe(true);
    const unborn = gitRepo();
    write(unborn, { 'new.txt': 'n\n' });
    expect((await state(unborn)).git).toMatchObject({ revision: null, dirty: false, top: unborn, untracked: ['new.txt'] });
    git(unborn, 'add', 'new.txt');
    expect((await state(unborn)).git).toMatchObject({ revision: null, dirty: true, top: unborn, untracked: [] });
  });

  it('looks at the whole work tree from a project below its top, paths relative to the project', async () => {
    const dir = gitRepo({ 'app/a.txt': 'a\n', 'lib/l.txt': 'l\n' });
    const root = path.join(dir, 'app');
    const before = await state(root);
    write(dir, { 'lib/l.txt': 'edited\n', 'app/new.txt': 'n\n' });
    expect((await state(root)).git?.dirty).toBe(true);
    expect(changedPaths(before, await again(root, before), NEVER)).toEqual(['../lib/l.txt', 'new.txt']);
  });

  it('is null outside a work tree', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-tree-')));
    expect(await gitTop(dir)).toBeNull();
  });
});

describe('changedPaths through git', () => {
  it('finds a file that was dirty before and is edited again to the same size', async () => {
    const dir = gitRepo({ 'a.txt': 'aaaa\n', 'b.txt': 'b\n' });
    write(dir, { 'a.txt': 'bbbb\n', 'loose.txt': 'x\n' });
    const before = await state(dir);
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual([]);
    write(dir, { 'a.txt': 'cccc\n', 'loose.txt': 'y\n' });
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual(['a.txt', 'loose.txt']);
  });

  it('finds files that became clean, were deleted or created, and leaves the paths it is told to skip', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    write(dir, { 'a.txt': 'dirty\n' });
    const skip = new Set(['report.xml']);
    const before = await state(dir, skip);
    git(dir, 'checkout', '--', 'a.txt');
    fs.rmSync(path.join(dir, 'b.txt'));
    write(dir, { 'c.txt': 'c\n', 'report.xml': '<x/>' });
    expect(changedPaths(before, await again(dir, before, NEVER, skip), NEVER)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('counts a file changed since the runner started even when the first look came after the change', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const startedNs = Date.now() - 10_000;
    write(dir, { 'a.txt': 'early\n' });
    const late = await state(dir);
    expect(changedPaths(late, await again(dir, late), startedNs)).toEqual(['a.txt']);
    expect(changedPaths(late, await again(dir, late), NEVER)).toEqual([]);
  });

  it('finds files created during the run in a new directory or an old one, and not ignored ones, nor deleted untracked ones twice', async () => {
    const dir = gitRepo({ 'src/a.txt': 'a\n', 'test/t.txt': 't\n', '.gitignore': '*.log\n' });
    write(dir, { 'src/loose.txt': 'l\n' });
    const before = await state(dir);
    write(dir, { 'src/deeper/new.txt': 'n\n', 'test/out.log': 'ignored\n', 'test/made.txt': 'm\n' });
    fs.rmSync(path.join(dir, 'src/loose.txt'));
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual(['src/deeper/new.txt', 'src/loose.txt', 'test/made.txt']);
  });

  it('asks again about a directory changed since the run started, though its times were taken after the change', async () => {
    const dir = gitRepo({ 'src/a.txt': 'a\n' });
    const sinceMs = Date.now() - 10_000;
    const before = await state(dir);
    // As if git had listed src/ just before the file came, and its times were taken just after.
    write(dir, { 'src/early.txt': 'e\n' });
    const { git: then } = before;
    if (then === null || then.dirs === null) throw new Error('no directories');
    const late = { ...before, git: { ...then, dirs: new Map([...then.dirs.keys()].map((d) => [d, dirPrint(path.join(dir, d))])) } };
    expect(changedPaths(late, await again(dir, late, sinceMs), sinceMs)).toEqual(['src/early.txt']);
    expect(changedPaths(late, await again(dir, late, NEVER), NEVER)).toEqual([]);
  });

  it('asks again about a tracked file edited between git\'s look and its fingerprint', async () => {
    const dir = gitRepo({ 'src/a.txt': 'a\n' });
    const sinceMs = Date.now() - 10_000;
    const before = await state(dir);
    write(dir, { 'src/a.txt': 'edited\n' });
    const { git: then } = before;
    if (then === null || then.tracked === null) throw new Error('no tracked files');
    const late = { ...before, git: { ...then, tracked: new Map([...then.tracked.keys()].map((f) => [f, fingerprint(path.join(dir, f))])) } };
    expect(changedPaths(late, await again(dir, late, sinceMs), sinceMs)).toEqual(['src/a.txt']);
    expect(changedPaths(late, await again(dir, late, NEVER), NEVER)).toEqual([]);
  });

  it('finds a change staged during the run, which leaves the file as it was', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    write(dir, { 'a.txt': 'edited\n' });
    const before = await state(dir);
    git(dir, 'add', 'a.txt');
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual(['a.txt']);
  });

  it('runs no git after the run when no fingerprint moved', async () => {
    const dir = gitRepo({ 'src/a.txt': 'a\n' });
    write(dir, { 'src/a.txt': 'dirty\n', 'loose.txt': 'l\n' });
    const before = await state(dir);
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      expect(changedPaths(before, await again(dir, before), NEVER)).toEqual([]);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('in a tree of more tracked files than it watches, compares git\'s listings', async () => {
    const files = Object.fromEntries(Array.from({ length: MAX_WATCHED + 1 }, (_, i) => [`f/${i}.txt`, `${i}\n`]));
    const dir = gitRepo(files);
    write(dir, { 'f/0.txt': 'dirty\n' });
    const before = await state(dir);
    expect(before.git?.tracked).toBeNull();
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual([]);
    write(dir, { 'f/0.txt': 'dirty again\n', 'f/1.txt': 'edited\n', 'new/n.txt': 'n\n' });
    expect(changedPaths(before, await again(dir, before), NEVER)).toEqual(['f/0.txt', 'f/1.txt', 'new/n.txt']);
  });
});

