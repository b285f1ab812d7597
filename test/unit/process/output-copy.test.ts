import { afterAll, describe, expect, it } from '@jest/globals';
import { openSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { OutputCopy } from '../../../src/process/output-copy.js';
import { removeTempDirs, tempDir, waitFor } from './helpers.js';

afterAll(removeTempDirs);

/** Two sources feeding one copy, written in the given order, then ended. */
async function copyOf(writes: readonly ['out' | 'err', string | Buffer][]): Promise<Buffer> {
  const file = join(tempDir(), 'copy.txt');
  const copy = new OutputCopy(openSync(file, 'a'));
  const sources = { out: new PassThrough(), err: new PassThrough() };
  copy.attach(sources.out);
  copy.attach(sources.err);
  for (const [name, bytes] of writes) {
    sources[name].write(bytes);
    await new Promise((resolve) => setImmediate(resolve)); // one 'data' event per write
  }
  sources.out.end();
  sources.err.end();
  await new Promise((resolve) => setImmediate(resolve));
  copy.close();
  return readFileSync(file);
}

describe('OutputCopy', () => {
  it('keeps each stream\'s lines whole when the other writes in the middle of one', async () => {
    const copy = await copyOf([['out', '{"a":'], ['err', 'main.go:3:2: undef'], ['out', '1}\n{"b":2}\n'], ['err', 'ined: x\n']]);
    expect(copy.toString()).toBe('{"a":1}\n{"b":2}\nmain.go:3:2: undefined: x\n');
  });

  it('copies a character split between two chunks as the bytes it is', async () => {
    const text = Buffer.from('TestÜnïcode ✓ passed\n');
    const at = text.indexOf(Buffer.from('✓')) + 1; // inside the three bytes of ✓
    const copy = await copyOf([['out', text.subarray(0, at)], ['out', text.subarray(at)]]);
    expect(copy.equals(text)).toBe(true);
  });

  it('writes a last line without a newline when its stream ends', async () => {
    const copy = await copyOf([['out', 'done\npartial'], ['err', 'warning\n']]);
    expect(copy.toString()).toBe('done\nwarning\npartial');
  });

  it('appends to what the file held (a second command of one run)', async () => {
    const file = join(tempDir(), 'copy.txt');
    for (const text of ['first\n', 'second\n']) {
      const copy = new OutputCopy(openSync(file, 'a'));
      const source = new PassThrough();
      copy.attach(source);
      source.end(text);
      await new Promise((resolve) => source.once('end', resolve));
      copy.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n');
  });

  it('writes waiting lines at the next poll, and a burst as it comes, without holding it in memory', async () => {
    const file = join(tempDir(), 'copy.txt');
    const copy = new OutputCopy(openSync(file, 'a'));
    const source = new PassThrough();
    copy.attach(source);
    source.write('one line\n');
    await waitFor('the line, with no close', () => statSync(file).size === 'one line\n'.length);
    const line = Buffer.alloc(512 * 1024, 'x');
    line[line.length - 1] = 0x0a;
    for (let i = 0; i < 8; i += 1) source.write(line);
    await new Promise((resolve) => setImmediate(resolve));
    // Each burst of 512 KiB is over the batch: on disk before any poll, and before close.
    expect(statSync(file).size).toBe('one line\n'.length + 8 * line.length);
    source.end();
    await once(source, 'end');
    copy.close();
    expect(statSync(file).size).toBe('one line\n'.length + 8 * line.length);
  });
});
