import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findAbandonedRuns } from '../../../src/store/abandoned.js';
import { selfOwner } from '../../../src/store/owner.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function artifactsDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-abandoned-'));
  dirs.push(dir);
  return dir;
}

/** A run directory as `runs` writes it: run.json, and report.json once the run ended. */
function recordRun(dir: string, id: string, owner: { pid: number; pid_start: number | null }, ended = false): void {
  const runDir = path.join(dir, 'runs', id);
  fs.mkdirSync(runDir, { recursive: true });
  fs.writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({
    run_id: id, ...owner, started_at: '2026-12-01T17:00:00.000Z', project_root: dir, framework: 'jest',
    command: 'jest --ci', log: path.join(dir, 'last-test.log'), reports: [{ path: path.join(dir, 'events.jsonl'), parser: 'jest', hints: null }],
  }));
  if (ended) fs.writeFileSync(path.join(runDir, 'report.json'), '{}');
}

describe('findAbandonedRuns', () => {
  it('finds the runs without an end whose owner is gone, and no other', () => {
    const dir = artifactsDir();
    const me = selfOwner();
    const gone = { pid: spawnSync('true').pid, pid_start: 12345 };
    recordRun(dir, 'running', me);
    recordRun(dir, 'ended', gone, true);
    recordRun(dir, 'died', gone);
    // The owner's pid now names another process (this one): a reused pid is not the owner.
    recordRun(dir, 'reused', { pid: process.pid, pid_start: (me.pid_start ?? 0) + 1 });
    recordRun(dir, '.being-built.new', gone);
    fs.mkdirSync(path.join(dir, 'runs', 'half-written'));
    fs.writeFileSync(path.join(dir, 'runs', 'half-written', 'run.json'), '{"run_id": "half');
    const found = findAbandonedRuns(dir).map((run) => run.record.run_id).sort();
    expect(found).toEqual(['died', 'reused']);
    expect(findAbandonedRuns(dir).find((r) => r.record.run_id === 'died')?.record).toEqual({
      run_id: 'died', pid: gone.pid, pid_start: 12345, started_at: '2026-12-01T17:00:00.000Z', project_root: dir, framework: 'jest',
      command: 'jest --ci', log: path.join(dir, 'last-test.log'), reports: [{ path: path.join(dir, 'events.jsonl'), parser: 'jest', hints: null }],
    });
  });

  it('finds nothing where no run recorded a directory', () => {
    expect(findAbandonedRuns(artifactsDir())).toEqual([]);
    expect(findAbandonedRuns(path.join(artifactsDir(), 'missing'))).toEqual([]);
  });
});
