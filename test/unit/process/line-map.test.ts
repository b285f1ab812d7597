import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { mapLines } from '../../../src/process/line-map.js';

const collected = (stream: PassThrough): string[] => {
  const out: string[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  return out;
};

describe('mapLines', () => {
  it('maps whole lines only, across chunks and split characters, and the last unfinished one at the end', async () => {
    const target = new PassThrough();
    const out = collected(target);
    const mapped = mapLines(target, (line) => (line === 'drop' ? '' : `<${line}>\n`));
    const euro = Buffer.from('€');
    for (const chunk of [Buffer.from('a\nb'), Buffer.from('c\ndrop\n'), euro.subarray(0, 1), Buffer.concat([euro.subarray(1), Buffer.from('\nlast')])]) mapped.write(chunk);
    await new Promise<void>((resolve) => mapped.end(resolve));
    expect(out.join('')).toBe('<a>\n<bc>\n<€>\n<last>\n');
  });

  it('waits for a target that does not drain, and ends when the target fails', async () => {
    const target = new PassThrough({ highWaterMark: 1 });
    const mapped = mapLines(target, (line) => `${line}\n`);
    let written = false;
    mapped.write(Buffer.from('x'.repeat(100) + '\n'), () => { written = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    target.read();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(true);
    target.destroy(new Error('EPIPE'));
    await new Promise((resolve) => mapped.once('error', resolve));
    expect(mapped.destroyed).toBe(true);
  });
});
