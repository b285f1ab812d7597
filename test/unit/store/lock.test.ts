import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../src/store/lock.js';
import { selfOwner } from '../../../src/store/owner.js';

const dir = mkdtempSync(join(tmpdir(), 'run-tests-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gonePid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('acquireLock', () => {
  it('creates the lock with its owner, and release removes it', async () => {
    const file = join(dir, 'plain.lock');
    const lock = await acquireLock(file, 1000);
    expect(lock).not.toBeNull();
    const holding = JSON.parse(readFileSync(file, 'utf8'));
    expect(holding).toEqual({ ...selfOwner(), token: expect.stringMatching(/^[0-9a-f]{16}$/) });
    lock?.release();
    expect(existsSync(file)).toBe(false);
    // Nothing is left beside it.
    expect(readdirSync(dir).filter((n) => n.startsWith('plain'))).toEqual([]);
  });

  it('waits for a live holder, and gets the lock once it is released', async () => {
    const file = join(dir, 'held.lock');
    const first = await acquireLock(file, 1000);
    const order: string[] = [];
    const second = acquireLock(file, 60_000).then((lock) => {
      order.push('second');
      return lock;
    });
    // Still waiting after several of its polls (5, 10, 20 ms apart) while the first holds it.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(order).toEqual([]);
    order.push('released');
    first?.release();
    const lock = await second;
    expect(order).toEqual(['released', 'second']);
    expect(lock).not.toBeNull();
    lock?.release();
  });

  it('gives up at the deadline while a live process holds it', async () => {
    const file = join(dir, 'busy.lock');
    const held = await acquireLock(file, 0);
    expect(await acquireLock(file, 0)).toBeNull();
    held?.release();
  });

  it('takes over a lock whose owner is gone, or whose pid now belongs to another process', async () => {
    for (const holding of [
      { pid: gonePid(), pid_start: null, token: 'gone' },
      { pid: process.pid, pid_start: (selfOwner().pid_start ?? 0) + 1, token: 'reused' },
      'not json',
    ]) {
      const file = join(dir, 'stale.lock');
      writeFileSync(file, typeof holding === 'string' ? holding : JSON.stringify(holding));
      const lock = await acquireLock(file, 0);
      expect(lock).not.toBeNull();
      expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
      lock?.release();
      expect(readdirSync(dir).filter((n) => n.startsWith('stale'))).toEqual([]);
    }
  });

  it('leaves a lock alone on release once another holds it', async () => {
    const file = join(dir, 'taken.lock');
    const lock = await acquireLock(file, 0);
    writeFileSync(file, JSON.stringify({ ...selfOwner(), token: 'other' }));
    lock?.release();
    expect(JSON.parse(readFileSync(file, 'utf8')).token).toBe('other');
  });
});
