import { afterAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { LEFTOVER_WAIT_MS, LeftoverWatch, leakWarning } from '../../../src/process/leftovers.js';
import { Timers } from '../../../src/process/timers.js';
import { ProcessTree } from '../../../src/process/tree.js';
import { groupLeader, isGone, killGroupQuietly, removeTempDirs, scripts, waitFor } from './helpers.js';

afterAll(removeTempDirs);

/** A LeftoverWatch of a real group, with what it wrote and asked for. */
function watchOf(pgid: number, output: { bytes: number; reading: boolean; asked?: number }) {
  const notes: string[] = [];
  const asked = { checks: 0, stops: 0 };
  const timers = new Timers();
  const watch = new LeftoverWatch(new ProcessTree(pgid, null), 0, timers, {
    check: () => asked.checks++,
    reading: () => output.reading,
    outputBytes: () => {
      output.asked = (output.asked ?? 0) + 1;
      return output.bytes;
    },
    note: (line) => notes.push(line),
    stopReading: () => asked.stops++,
  });
  return { watch, notes, asked, timers };
}

describe('leakWarning', () => {
  it('names the first ten leaked processes and counts the rest', () => {
    const leaked = Array.from({ length: 12 }, (_, i) => ({ pid: 100 + i, command: `sleep ${i}` }));
    expect(leakWarning(leaked.slice(0, 2))).toBe('leaked processes: 100 sleep 0, 101 sleep 1; run-tests killed them');
    expect(leakWarning(leaked)).toBe(
      `leaked processes: ${leaked.slice(0, 10).map((p) => `${p.pid} ${p.command}`).join(', ')} and 2 more; run-tests killed them`,
    );
  });
});

describe('LeftoverWatch', () => {
  it('lists what of the group still runs as leaked, with its command line, and says why it is ended', async () => {
    const pid = groupLeader('forever.js');
    try {
      const { watch } = watchOf(pid, { bytes: 0, reading: true });
      expect(watch.leaked).toEqual([]);
      expect(watch.collect()).toBe(`the runner exited but processes it started were still running ${LEFTOVER_WAIT_MS}ms later`);
      expect(watch.leaked).toEqual([{ pid, command: `${process.execPath} ${join(scripts, 'forever.js')}` }]);
    } finally {
      killGroupQuietly(pid);
    }
  });

  it(`asks for a look ${LEFTOVER_WAIT_MS}ms after the runner exited, then stops reading output nobody in the group writes`, async () => {
    const pid = groupLeader('exit-with.js', ['0']);
    await waitFor('exit-with.js to end', () => isGone(pid));
    const { watch, notes, asked, timers } = watchOf(pid, { bytes: 10, reading: true });
    watch.runnerExited();
    expect(watch.waitOver).toBe(false);
    await waitFor('the wait', () => watch.waitOver);
    expect(asked.checks).toBe(1);
    await waitFor('reading to stop', () => asked.stops > 0);
    expect(notes).toEqual([`output pipes still held open by a process outside process group ${pid}; stopped reading`]);
    timers.clear();
  });

  it('looks again while output still comes, and not at all once the run stopped reading', async () => {
    const pid = groupLeader('exit-with.js', ['0']);
    await waitFor('exit-with.js to end', () => isGone(pid));
    const output = { bytes: 10, reading: true, asked: 0 };
    const { watch, notes, asked, timers } = watchOf(pid, output);
    watch.watchPipeHolders();
    output.bytes += 1; // more output before the first look: it looks again
    await waitFor('reading to stop', () => asked.stops > 0);
    expect(output.asked).toBe(4); // when armed, at the first look twice (it grew: armed again), at the second
    expect(notes).toHaveLength(1);
    output.reading = false;
    watch.watchPipeHolders();
    expect(output.asked).toBe(4);
    timers.clear();
  });
});
