import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selfOwner } from '../../../src/store/owner.js';
import { abandonedRuns, newRunId } from '../../../src/store/runs.js';

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

describe('abandonedRuns', () => {
  it('finds the runs without an end whose owner is gone, and no other', () => {
    const dir = artifactsDir();
    const me = selfOwner();
    const gone = { pid: spawnSync('true').pid, pid_start: 12345 };
    const [running, ended, died, reused, halfWritten] = Array.from({ length: 5 }, () => newRunId());
    recordRun(dir, running ?? '', me);
    recordRun(dir, ended ?? '', gone, true);
    recordRun(dir, died ?? '', gone);
    // The owner's pid now names another process (this one): a reused pid is not the owner.
    recordRun(dir, reused ?? '', { pid: process.pid, pid_start: (me.pid_start ?? 0) + 1 });
    recordRun(dir, `.${newRunId()}.new`, gone);
    fs.mkdirSync(path.join(dir, 'runs', halfWritten ?? ''));
    fs.writeFileSync(path.join(dir, 'runs', halfWritten ?? '', 'run.json'), '{"run_id": "half');
    const found = abandonedRuns(dir).map((run) => run.info.run_id).sort();
    expect(found).toEqual([died, reused]);
    expect(abandonedRuns(dir).find((r) => r.info.run_id === died)?.info).toEqual({
      run_id: died, pid: gone.pid, pid_start: 12345, started_at: '2026-12-01T17:00:00.000Z', project_root: dir, framework: 'jest',
      command: 'jest --ci', log: path.join(dir, 'last-test.log'), reports: [{ path: path.join(dir, 'events.jsonl'), parser: 'jest', hints: null }],
    });
  });

  it('finds nothing where no run recorded a directory', () => {
    expect(abandonedRuns(artifactsDir())).toEqual([]);
    expect(abandonedRuns(path.join(artifactsDir(), 'missing'))).toEqual([]);
  });
});
