import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { startProcess } from '../../../src/process/index.js';
import { formatSize } from '../../../src/process/log.js';
import { TailRing } from '../../../src/process/tail-ring.js';
import { nodeScript, readLog, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

const MIB = 1024 * 1024;

/** What numbered-lines.js prints for `count`. */
const numberedLines = (count: number): string =>
  Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(6, '0')}\n`).join('');

const marker = (dropped: number, cap: string): string => `run-tests: ${dropped} bytes of output dropped here (--max-log ${cap})\n`;

describe('startProcess: log cap', () => {
  it('keeps the first and the last half of the cap around a marker', async () => {
    const options = nodeScript('numbered-lines.js', ['1000'], { maxLogBytes: 1000 });
    await startProcess(options).done;
    const full = numberedLines(1000);
    // 500 is not a multiple of the 12-byte line: the head ends mid-line, so a newline precedes the marker.
    expect(readLog(options.logPath)).toBe(`${full.slice(0, 500)}\n${marker(full.length - 1000, '1000')}${full.slice(-500)}`);
  });

  it('writes everything, with no marker, when the output fits', async () => {
    const full = numberedLines(100);
    const options = nodeScript('numbered-lines.js', ['100'], { maxLogBytes: full.length });
    await startProcess(options).done;
    expect(readLog(options.logPath)).toBe(full);
  });

  it('puts notes written after the head is full into the tail, in order', async () => {
    const options = nodeScript('numbered-lines.js', ['1000', '--wait'], { maxLogBytes: 1200, timeoutMs: 500, killGraceMs: 5000 });
    const run = startProcess(options);
    const outcome = await run.done;
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: true });
    const note = `run-tests: timed out after 500ms; sent SIGTERM to process group ${run.pid}\n`;
    const full = `${numberedLines(1000)}${note}numbered-lines: got SIGTERM\n`;
    expect(readLog(options.logPath)).toBe(`${full.slice(0, 600)}${marker(full.length - 1200, '1200')}${full.slice(-600)}`);
  });

  it('gives the tee everything', async () => {
    const tee = new PassThrough();
    const teed: Buffer[] = [];
    tee.on('data', (chunk: Buffer) => teed.push(chunk));
    const options = nodeScript('numbered-lines.js', ['1000'], { maxLogBytes: 1000, tee });
    await startProcess(options).done;
    expect(Buffer.concat(teed).toString()).toBe(numberedLines(1000));
    expect(statSync(options.logPath).size).toBe(1000 + 1 + marker(12_000 - 1000, '1000').length);
  });

  it('gives a tee that holds on to its chunks every byte of output read in many reads', async () => {
    // The log's reads reuse one 64 KiB buffer: a tee that keeps what it was given (as a
    // stream keeps a chunk until it is written) must get bytes no later read overwrites.
    const kept: Buffer[] = [];
    const tee = new Writable({
      highWaterMark: 1, // not draining: the reads wait for it, then go on
      write(chunk: Buffer, _encoding, done) {
        kept.push(chunk);
        setImmediate(done);
      },
    });
    const options = nodeScript('numbered-lines.js', ['50000'], { tee });
    await startProcess(options).done;
    expect(Buffer.concat(kept).toString()).toBe(numberedLines(50000));
  });

  it('caps a 20 MiB flood at 1 MiB: 512K of head, the marker, the last 512K', async () => {
    const options = nodeScript('flood.js', ['20'], { maxLogBytes: MIB });
    await startProcess(options).done;
    const log = readFileSync(options.logPath);
    const mark = marker(19 * MIB, '1M');
    expect(log.length).toBe(MIB + 1 + mark.length);
    const line = 'x'.repeat(MIB - 1) + '\n';
    expect(log.subarray(0, MIB / 2).toString()).toBe(line.slice(0, MIB / 2));
    expect(log.subarray(MIB / 2, MIB / 2 + 1 + mark.length).toString()).toBe(`\n${mark}`);
    expect(log.subarray(-MIB / 2).toString()).toBe(line.slice(-MIB / 2));
  });
});

describe('TailRing', () => {
  it('keeps exactly the last bytes of many small pushes and counts the rest', () => {
    const ring = new TailRing(100_000);
    const all: Buffer[] = [];
    for (let i = 0; i < 50_000; i++) {
      const chunk = Buffer.from(`${i},`);
      all.push(chunk);
      ring.push(chunk);
    }
    const pushed = Buffer.concat(all);
    expect(Buffer.concat(ring.chunks()).equals(pushed.subarray(-100_000))).toBe(true);
    expect(ring.dropped).toBe(pushed.length - 100_000);
  });

  it('keeps order across small chunks (copied) and large ones (kept as they came)', () => {
    const ring = new TailRing(300_000);
    const all: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      const chunk = Buffer.alloc(i % 3 === 0 ? 20_000 + i : 1 + i, String(i % 10));
      all.push(chunk);
      ring.push(chunk);
    }
    const pushed = Buffer.concat(all);
    expect(Buffer.concat(ring.chunks()).equals(pushed.subarray(-300_000))).toBe(true);
    expect(ring.dropped).toBe(pushed.length - 300_000);
  });

  it('keeps nothing with a limit of 0', () => {
    const ring = new TailRing(0);
    ring.push(Buffer.from('abc'));
    expect(ring.chunks()).toEqual([]);
    expect(ring.dropped).toBe(3);
  });
});

describe('formatSize', () => {
  it.each([[64 * MIB, '64M'], [1536, '1536'], [2048, '2K'], [3 * 1024 ** 3, '3G'], [1000, '1000']])('%d -> %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});
