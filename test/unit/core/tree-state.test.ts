import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { changedPaths, restat, walkState } from '../../../src/core/tree-state.js';
import { write } from '../../support/git-repo.js';

/** No file can have changed after this: only the fingerprints tell changes apart. */
const NEVER = Number.POSITIVE_INFINITY;

describe('without git', () => {
  it('watches the files it walked, not hidden directories, node_modules or __pycache__, nor new files', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-tree-')));
    write(dir, { 'test/a_test.py': 'a', 'src/m.py': 'm', 'gone.py': 'g', '.venv/x.py': 'x', 'node_modules/p/i.js': 'i', 'test/__pycache__/a.pyc': 'c' });
    const before = await walkState(dir, new Set());
    expect([...before.files.keys()].sort()).toEqual(['gone.py', 'src/m.py', 'test/a_test.py']);
    expect(changedPaths(before, restat(dir, before), NEVER)).toEqual([]);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, 'test/a_test.py'), later, later);
    fs.rmSync(path.join(dir, 'gone.py'));
    write(dir, { 'new.py': 'n', '.venv/x.py': 'changed', 'test/__pycache__/a.pyc': 'changed' });
    expect(changedPaths(before, restat(dir, before), NEVER)).toEqual(['gone.py', 'test/a_test.py']);
  });

  it('takes a file that had changed since the runner started, when first seen, for the runner\'s output', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-tree-')));
    write(dir, { 'src/lib.rs': 'old' });
    const started = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Written after the runner started, before the walk reached it (cargo's Cargo.lock).
    write(dir, { 'Cargo.lock': 'v1' });
    const before = await walkState(dir, new Set());
    write(dir, { 'Cargo.lock': 'v2, longer', 'src/lib.rs': 'edited by a test' });
    expect(changedPaths(before, restat(dir, before), started)).toEqual(['src/lib.rs']);
  });
});
