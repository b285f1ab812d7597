import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Termination } from '../../../src/process/terminate.js';
import { Timers } from '../../../src/process/timers.js';
import { ProcessTree } from '../../../src/process/tree.js';
import { groupLeader, isGone, killGroupQuietly, removeTempDirs, tempDir, waitFor } from './helpers.js';

afterAll(removeTempDirs);

/** A Termination of a real group, with what it wrote and asked for. */
function terminationOf(pgid: number, graceMs: number) {
  const notes: string[] = [];
  // reapPassedAtKill: reapDeadlinePassed() as the SIGKILL went out, not whenever the test
  // gets to ask (a loaded machine may take REAP_DEADLINE_MS to end the group).
  const asked = { checks: 0, kills: 0, reapPassedAtKill: null as boolean | null };
  const timers = new Timers();
  const termination: Termination = new Termination(new ProcessTree(pgid, null), graceMs, timers, {
    note: (line) => notes.push(line),
    check: () => asked.checks++,
    killed: () => {
      asked.kills++;
      asked.reapPassedAtKill = termination.reapDeadlinePassed();
    },
  });
  return { termination, notes, asked, timers };
}

/** ignore-sigterm.js, once its handler is installed. */
async function sigtermIgnorer(): Promise<number> {
  const pidFile = join(tempDir(), 'pid');
  const pid = groupLeader('ignore-sigterm.js', [pidFile]);
  await waitFor('ignore-sigterm.js to start', () => existsSync(pidFile));
  return pid;
}

async function ended<T>(pid: number, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    killGroupQuietly(pid);
  }
}

describe('Termination', () => {
  it('sends SIGTERM once, noted before it goes, and looks at the group until asked to stop', () => {
    const pid = groupLeader('forever.js');
    return ended(pid, async () => {
      const { termination, notes, asked, timers } = terminationOf(pid, 60_000);
      expect(termination.started).toBe(false);
      termination.terminate('the reason');
      termination.terminate('another reason');
      expect(termination.started).toBe(true);
      expect(notes).toEqual([`the reason; sent SIGTERM to process group ${pid}`]);
      await waitFor('forever.js to end', () => isGone(pid));
      await waitFor('a look at the group', () => asked.checks > 0);
      expect([termination.timedOut, termination.interrupted, asked.kills]).toEqual([false, false, 0]);
      timers.clear();
    });
  });

  it('sends SIGKILL after the grace to a group that ignores SIGTERM, once', async () => {
    const pid = await sigtermIgnorer();
    return ended(pid, async () => {
      const { termination, notes, asked, timers } = terminationOf(pid, 200);
      termination.interrupt('SIGTERM');
      termination.interrupt('SIGTERM'); // a second interrupt is forwarded too
      await waitFor('SIGKILL', () => asked.kills > 0);
      await waitFor('ignore-sigterm.js to end', () => isGone(pid));
      expect(notes).toEqual([
        `interrupted; sent SIGTERM to process group ${pid}`,
        `interrupted; sent SIGTERM to process group ${pid}`,
        `process group ${pid} still running 200ms after SIGTERM; sent SIGKILL`,
      ]);
      expect([termination.interrupted, termination.timedOut, asked.reapPassedAtKill]).toEqual([true, false, false]);
      timers.clear();
      expect(asked.kills).toBe(1);
    });
  });

  it('ends the group at the timeout, and not once the timeout is cancelled', () => {
    const pid = groupLeader('forever.js');
    const spared = groupLeader('forever.js');
    return ended(pid, () => ended(spared, async () => {
      const timedOut = terminationOf(pid, 60_000);
      const cancelled = terminationOf(spared, 60_000);
      cancelled.termination.armTimeout(100);
      cancelled.termination.cancelTimeout();
      timedOut.termination.armTimeout(100);
      await waitFor('forever.js to time out', () => isGone(pid));
      expect(timedOut.notes).toEqual([`timed out after 100ms; sent SIGTERM to process group ${pid}`]);
      expect(timedOut.termination.timedOut).toBe(true);
      expect([cancelled.notes, cancelled.termination.timedOut, isGone(spared)]).toEqual([[], false, false]);
      timedOut.timers.clear();
    }));
  });

  it('arms no second SIGKILL after an interrupt that was one', () => {
    const pid = groupLeader('forever.js');
    return ended(pid, async () => {
      const { termination, notes, asked, timers } = terminationOf(pid, 0);
      termination.interrupt('SIGKILL');
      // Asked at once: REAP_DEADLINE_MS (2 s) after the SIGKILL it would be true, and a loaded
      // machine may take that long to end forever.js.
      expect(termination.reapDeadlinePassed()).toBe(false); // SIGKILL went out just now
      await waitFor('forever.js to end', () => isGone(pid));
      // A kill armed at a grace of 0 would have fired before a timer set after it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(notes).toEqual([`interrupted; sent SIGKILL to process group ${pid}`]);
      expect(asked.kills).toBe(0);
      timers.clear();
    });
  });
});
