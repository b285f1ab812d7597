import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactPaths } from '../../../src/store/artifacts.js';
import { ownerAlive, selfOwner } from '../../../src/store/owner.js';
import { beginRun, isRunId, listRuns, newRunId, pruneRuns, runDir, type RunInfo } from '../../../src/store/runs.js';

const root = mkdtempSync(join(tmpdir(), 'run-tests-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited (and been reaped). */
const gonePid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

const info = (project: string, id: string, pid: number, pid_start: number | null): RunInfo => ({
  run_id: id, pid, pid_start, started_at: '2026-12-01T16:45:11.123Z', project_root: project, framework: 'minitest',
  command: 'bundle exec rake test', log: join(project, '.run-tests/runs', id, 'test.log'), reports: [],
});

/** A project with runs: `done` ones have a report; the others are owned by `owner`. */
function project(name: string, runs: readonly { id: string; done: boolean; pid?: number; pid_start?: number | null }[]): string {
  const dir = join(root, name);
  for (const run of runs) {
    const artifacts = artifactPaths(dir, run.id);
    mkdirSync(join(artifacts.dir, 'runs'), { recursive: true });
    beginRun(artifacts, info(dir, run.id, run.pid ?? process.pid, run.pid_start ?? null));
    if (run.done) writeFileSync(artifacts.report, '{}\n');
  }
  return dir;
}

const id = (n: number) => `20261201-164511.${String(n).padStart(3, '0')}-0000000${n % 10}`;

describe('run ids', () => {
  it('sort by time, and count up within one millisecond of one process', () => {
    const at = Date.UTC(2026, 11, 1, 16, 45, 11, 123);
    const same = Array.from({ length: 1000 }, () => newRunId(at));
    expect(new Set(same).size).toBe(1000);
    expect([...same].sort()).toEqual(same);
    expect(same[0]).toMatch(/^20261201-164511\.123-[0-9a-f]{8}$/);
    const later = newRunId(at + 1);
    expect(later.startsWith('20261201-164511.124-')).toBe(true);
    expect(newRunId(at + 1000 * 3600 * 24 * 400).startsWith('20280105-')).toBe(true);
    expect(same.every(isRunId)).toBe(true);
    expect(['20261201-164511.123-3F9A0C1D', '../x', '20261201-164511.123-3f9a0c1', ''].some(isRunId)).toBe(false);
  });
});

describe('run directories', () => {
  it('are created whole, with run.json, and listed newest first', () => {
    const dir = project('listed', [{ id: id(1), done: true }, { id: id(3), done: false }, { id: id(2), done: true }]);
    expect(readdirSync(join(dir, '.run-tests/runs')).sort()).toEqual([id(1), id(2), id(3)]);
    const runs = listRuns(join(dir, '.run-tests'));
    expect(runs.map((r) => [r.id, r.info?.run_id, r.report === null])).toEqual([[id(3), id(3), true], [id(2), id(2), false], [id(1), id(1), false]]);
    expect(runs[0]?.dir).toBe(runDir(join(dir, '.run-tests'), id(3)));
  });

  it('ignore names that are not run ids', () => {
    const dir = project('ignored', [{ id: id(1), done: true }]);
    mkdirSync(join(dir, '.run-tests/runs', `.${id(2)}.new`));
    mkdirSync(join(dir, '.run-tests/runs', 'notes'));
    expect(listRuns(join(dir, '.run-tests')).map((r) => r.id)).toEqual([id(1)]);
  });
});

describe('pruneRuns', () => {
  it('keeps the newest n, the current run among them', () => {
    const dir = project('prune', [1, 2, 3, 4, 5].map((n) => ({ id: id(n), done: true })));
    // The current run is not the newest: another started after it.
    pruneRuns(join(dir, '.run-tests'), 2, id(4));
    expect(readdirSync(join(dir, '.run-tests/runs')).sort()).toEqual([id(4), id(5)]);
    pruneRuns(join(dir, '.run-tests'), 1, id(4));
    expect(readdirSync(join(dir, '.run-tests/runs')).sort()).toEqual([id(4)]);
  });

  it('never removes a run in progress of a live owner; removes one whose owner is gone', () => {
    const me = selfOwner();
    const dir = project('in-progress', [
      { id: id(1), done: false, pid: me.pid, pid_start: me.pid_start },
      { id: id(2), done: false, pid: gonePid() },
      { id: id(3), done: false, pid: me.pid, pid_start: (me.pid_start ?? 0) + 1 }, // a reused pid
      { id: id(4), done: true },
      { id: id(5), done: true },
    ]);
    pruneRuns(join(dir, '.run-tests'), 1, id(5));
    expect(readdirSync(join(dir, '.run-tests/runs')).sort()).toEqual([id(1), id(5)]);
  });

  it('keeps everything when there are fewer runs than n', () => {
    const dir = project('few', [{ id: id(1), done: true }, { id: id(2), done: true }]);
    pruneRuns(join(dir, '.run-tests'), 20, id(2));
    expect(readdirSync(join(dir, '.run-tests/runs')).sort()).toEqual([id(1), id(2)]);
    expect(existsSync(join(dir, '.run-tests/runs', id(1), 'run.json'))).toBe(true);
  });
});

describe('ownerAlive', () => {
  it('is true for this process and false for one that exited or a pid reused since', () => {
    const me = selfOwner();
    expect(me.pid_start).toEqual(expect.any(Number));
    expect(ownerAlive(me)).toBe(true);
    expect(ownerAlive({ pid: me.pid, pid_start: null })).toBe(true);
    expect(ownerAlive({ pid: me.pid, pid_start: (me.pid_start ?? 0) + 1 })).toBe(false);
    expect(ownerAlive({ pid: gonePid(), pid_start: null })).toBe(false);
  });
});
