import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { ownerAlive, processStartTime } from '../../../src/process/index.js';

describe('ownerAlive', () => {
  it('knows a live owner by its pid and start time, and a reused pid by another start', () => {
    const start = processStartTime(process.pid);
    expect(start).toEqual(expect.any(Number));
    expect(ownerAlive(process.pid, start)).toBe(true);
    expect(ownerAlive(process.pid, (start ?? 0) + 1)).toBe(false);
    // Without a recorded start (no /proc where the run began) the pid is all there is.
    expect(ownerAlive(process.pid, null)).toBe(true);
  });

  it('takes a pid that is gone for a dead owner', () => {
    const exited = spawnSync('true').pid;
    expect(ownerAlive(exited, null)).toBe(false);
    expect(processStartTime(exited)).toBe(null);
    expect([0, -1, 1.5].map((pid) => ownerAlive(pid, null))).toEqual([false, false, false]);
  });
});
