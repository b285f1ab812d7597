import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bindTree, firstLook, lookAgain, MAX_DRIFT_PATHS } from '../../../src/core/drift.js';
import type { TreeState } from '../../../src/core/tree-state.js';
import { git, gitRepo, write } from '../../support/git-repo.js';

/** No file can have changed after this: only the fingerprints tell changes apart. */
const NEVER = Number.POSITIVE_INFINITY;

async function look(dir: string, skip: ReadonlySet<string> = new Set()): Promise<TreeState | null> {
  const before = await firstLook(dir, skip);
  expect(before).not.toBeNull();
  return before;
}

describe('bindTree', () => {
  it('reports the revision and no drift for a tree the run left alone, dirty or not', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    write(dir, { 'a.txt': 'dirty\n', 'loose.txt': 'x\n' });
    const { fields, warnings } = await bindTree(dir).finish();
    expect(fields).toEqual({ git: { revision: git(dir, 'rev-parse', 'HEAD'), dirty: true }, drift: false, drift_paths: [], drift_paths_more: 0 });
    expect(warnings).toEqual([]);
  });

  it('without git, reports no git field and no drift for a tree left alone', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-drift-')));
    write(dir, { 'test/a.test.js': 'a' });
    expect(await bindTree(dir).finish()).toEqual({ fields: { drift: false, drift_paths: [], drift_paths_more: 0 }, warnings: [] });
  });
});

describe('lookAgain', () => {
  it('names what changed, at most MAX_DRIFT_PATHS of it, and counts the rest', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const before = await look(dir);
    for (let i = 0; i < 24; i += 1) write(dir, { [`new/f${String(i).padStart(2, '0')}.txt`]: 'n\n' });
    write(dir, { 'a.txt': 'edited\n' });
    const { fields, warnings } = await lookAgain(before, dir, new Set(), NEVER);
    const expected = ['a.txt', ...Array.from({ length: 19 }, (_, i) => `new/f${String(i).padStart(2, '0')}.txt`)];
    expect(MAX_DRIFT_PATHS).toBe(20);
    expect(fields).toEqual({ git: { revision: git(dir, 'rev-parse', 'HEAD'), dirty: false }, drift: true, drift_paths: expected, drift_paths_more: 5 });
    expect(warnings).toEqual([`files of the project changed while the tests ran (${expected.join(', ')} and 5 more): the result may not describe the tree as it is now`]);
  });

  it('does not count the files the run itself writes into the project', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const skip = new Set(['out/report.xml']);
    const before = await look(dir, skip);
    write(dir, { 'out/report.xml': '<testsuites/>', 'out/other.xml': '<x/>' });
    expect((await lookAgain(before, dir, skip, NEVER)).fields).toMatchObject({ drift: true, drift_paths: ['out/other.xml'] });
  });

  it('without git, has no git field and compares the files it walked', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-drift-')));
    write(dir, { 'test/a.test.js': 'a', 'test/b.test.js': 'b' });
    const before = await look(dir);
    write(dir, { 'test/b.test.js': 'bb' });
    const { fields, warnings } = await lookAgain(before, dir, new Set(), NEVER);
    expect(fields).toEqual({ drift: true, drift_paths: ['test/b.test.js'], drift_paths_more: 0 });
    expect(warnings).toEqual(['files of the project changed while the tests ran (test/b.test.js): the result may not describe the tree as it is now']);
  });

  it('says the drift is unknown, and claims none, when git cannot list the tree after the run', async () => {
    const dir = gitRepo({ 'a.txt': 'a\n' });
    const before = await look(dir);
    expect(before?.git).not.toBeNull();
    fs.rmSync(path.join(dir, '.git'), { recursive: true });
    expect(await lookAgain(before, dir, new Set(), 0)).toEqual({
      fields: {},
      warnings: ['the project files could not be listed before and after the run: whether they changed during it is unknown'],
    });
  });
});
