import { afterAll, describe, expect, it } from '@jest/globals';
import { openSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { OutputCopy } from '../../../src/process/output-copy.js';
import { SourceGate } from '../../../src/process/source-gate.js';
import { removeTempDirs, tempDir } from './helpers.js';

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
  await copy.close();
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
      await copy.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n');
  });

  it('holds the runner\'s output at the gate while the file is full, and copies all of it', async () => {
    const file = join(tempDir(), 'copy.txt');
    const gate = new SourceGate();
    const copy = new OutputCopy(openSync(file, 'a'), gate);
    const source = new PassThrough();
    let pauses = 0;
    source.on('pause', () => (pauses += 1));
    gate.add(source);
    copy.attach(source);
    const line = Buffer.alloc(512 * 1024, 'x');
    line[line.length - 1] = 0x0a;
    for (let i = 0; i < 8; i += 1) source.write(line);
    source.end();
    await once(source, 'end');
    await copy.close();
    expect(pauses).toBeGreaterThan(0);
    expect(statSync(file).size).toBe(8 * line.length);
  });
});
