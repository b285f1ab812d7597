import { afterAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileTail } from '../../../src/process/file-tail.js';
import { POLL_MS } from '../../../src/process/poll.js';
import { hasOpenFd, removeTempDirs, tempDir, waitFor } from './helpers.js';

afterAll(removeTempDirs);

function tailOf(initial: string) {
  const path = join(tempDir(), 'output.txt');
  writeFileSync(path, initial);
  const seen: string[] = [];
  const tail = new FileTail(openSync(path, 'r'), Buffer.byteLength(initial), (bytes) => seen.push(bytes.toString()));
  return { path, tail, seen };
}

describe('FileTail', () => {
  it('hands on what is appended after its start, while the writer writes', async () => {
    const { path, tail, seen } = tailOf('from an earlier command\n');
    appendFileSync(path, 'one\n');
    await waitFor('the first line', () => seen.join('') === 'one\n');
    appendFileSync(path, 'two\n');
    await waitFor('the second line', () => seen.join('') === 'one\ntwo\n');
    await tail.finish();
    expect(seen.join('')).toBe('one\ntwo\n');
    expect(hasOpenFd(path)).toBe(false);
  });

  it('reads nothing while paused, and finish() waits for resume() to hand on the rest', async () => {
    const { path, tail, seen } = tailOf('');
    tail.pause();
    appendFileSync(path, 'held\n');
    await new Promise((resolve) => setTimeout(resolve, 2.5 * POLL_MS)); // two polls
    expect(seen).toEqual([]);
    let finished = false;
    const finishing = tail.finish().then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([finished, seen]).toEqual([false, []]);
    tail.resume();
    await finishing;
    expect(seen.join('')).toBe('held\n');
  });

  it('starts again from the beginning of a file truncated under it, and says so', async () => {
    const path = join(tempDir(), 'output.txt');
    writeFileSync(path, '');
    const seen: string[] = [];
    let truncations = 0;
    const tail = new FileTail(openSync(path, 'r'), 0, (bytes) => seen.push(bytes.toString()), () => truncations++);
    appendFileSync(path, 'a first line, longer than what replaces it\n');
    await waitFor('the first line', () => seen.length === 1);
    writeFileSync(path, 'new\n');
    await waitFor('the new content', () => seen.length === 2);
    await tail.finish();
    expect(seen).toEqual(['a first line, longer than what replaces it\n', 'new\n']);
    expect(truncations).toBe(1);
  });

  it('reads a backlog larger than one read in several, in order', async () => {
    const { path, tail, seen } = tailOf('');
    const big = Array.from({ length: 100_000 }, (_, i) => `line ${i}\n`).join('');
    appendFileSync(path, big);
    await tail.finish();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.join('')).toBe(big);
  });
});
