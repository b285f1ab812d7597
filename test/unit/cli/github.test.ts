import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { commandLines } from '../../../src/cli/github.js';

async function filtered(chunks: readonly (string | Buffer)[], all = false): Promise<{ out: string; seen: string[] }> {
  const sink = new PassThrough();
  let out = '';
  sink.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const seen: string[] = [];
  const filter = commandLines(sink, (line) => seen.push(line), all);
  for (const chunk of chunks) await new Promise<void>((resolve) => filter.write(chunk, () => resolve()));
  return { out, seen };
}

describe('commandLines', () => {
  it("passes on whole lines that start with `::`, however the runner's output was cut into chunks", async () => {
    const { out, seen } = await filtered(['plain\n::err', 'or file=a.js::x\r\n  ::indented\n', 'a::b\n:', ':warning::w\n::unfinished']);
    expect(out).toBe('::error file=a.js::x\n::warning::w\n');
    expect(seen).toEqual(['::error file=a.js::x', '::warning::w']);
  });

  it('keeps a character split between chunks whole, and forgets long lines that are no command', async () => {
    const euro = Buffer.from('::notice::€\n');
    const { out } = await filtered([euro.subarray(0, 12), euro.subarray(12), `${'x'.repeat(100_000)}`, '::not a command start\n']);
    expect(out).toBe('::notice::€\n');
  });

  it('with `all` (--stream) passes every byte on, and still sees the commands', async () => {
    const { out, seen } = await filtered(['plain\n::err', 'or::x\n'], true);
    expect([out, seen]).toEqual(['plain\n::error::x\n', ['::error::x']]);
  });
});

describe('commandLines holding error lines', () => {
  it("puts the runner's `::error` lines in `held`, once each, and passes the other commands on", async () => {
    const sink = new PassThrough();
    let out = '';
    sink.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    const held = new Set<string>();
    const filter = commandLines(sink, () => undefined, false, held);
    for (const chunk of ['::error file=a.js,line=1::x\n::group::g\n', '::error file=a.js,line=1::x\n::error file=b.js,line=2::y\n']) {
      await new Promise<void>((resolve) => filter.write(chunk, () => resolve()));
    }
    expect([out, [...held]]).toEqual(['::group::g\n', ['::error file=a.js,line=1::x', '::error file=b.js,line=2::y']]);
  });
});
