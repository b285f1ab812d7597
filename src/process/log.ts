import { openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { BatchedFile } from './batched-file.js';
import { TailRing } from './tail-ring.js';

const NEWLINE = 0x0a;

/** The runner's combined output on disk, plus an optional live copy (tee).
 * With a cap, the first half of the cap goes to disk as it comes and only the most
 * recent other half is kept (in memory) after that, written behind a marker line on
 * close. A source pauses while the file or the tee is not draining, so a slow disk
 * slows the runner instead of filling memory. */
export class RunLog {
  private readonly sources: Readable[] = [];
  private lastByte = NEWLINE;
  private bytesRead = 0;
  private headRoom: number;
  private headLastByte = NEWLINE;
  private readonly tail: TailRing | null;
  /** Writers whose buffer is full, each with what stops waiting for its drain: the sources stay paused until none is left. */
  private readonly blockers = new Map<object, () => void>();
  private readonly onTeeError = (): void => this.dropTee();

  private constructor(
    private readonly file: BatchedFile,
    private tee: NodeJS.WritableStream | null,
    private readonly maxBytes: number | null,
  ) {
    this.headRoom = maxBytes === null ? Infinity : Math.floor(maxBytes / 2);
    this.tail = maxBytes === null ? null : new TailRing(maxBytes - this.headRoom);
    tee?.on('error', this.onTeeError);
  }

  /** Creates or truncates (or appends to) the file synchronously, so a bad path fails before any spawn.
   * `maxBytes` caps what this log writes (null: no cap); an appended log is capped on its own. */
  static open(path: string, tee: NodeJS.WritableStream | null, append = false, maxBytes: number | null = null): RunLog {
    const fd = openSync(path, append ? 'a' : 'w');
    return new RunLog(BatchedFile.open(path, { fd }), tee, maxBytes);
  }

  /** Bytes read from the runner so far (markers excluded). */
  get bytes(): number {
    return this.bytesRead;
  }

  attach(source: Readable | null): void {
    if (source === null) return;
    this.sources.push(source);
    source.on('data', (chunk: Buffer) => {
      this.bytesRead += chunk.length;
      this.lastByte = chunk[chunk.length - 1] ?? this.lastByte;
      this.append(chunk);
      if (this.tee !== null && !this.tee.write(chunk)) this.blockOnTee(this.tee);
    });
    if (this.blockers.size > 0) source.pause();
  }

  /** Appends a run-tests line, on a line of its own. With a cap it goes whole into the
   * head if it fits, else into the tail (and nothing more goes into the head). */
  note(line: string): void {
    const text = Buffer.from(`${this.lastByte === NEWLINE ? '' : '\n'}run-tests: ${line}\n`);
    if (text.length > this.headRoom) this.headRoom = 0;
    this.append(text);
    this.lastByte = NEWLINE;
  }

  /** Call once the sources have ended or been destroyed. Rejects if a write failed. */
  close(): Promise<void> {
    this.dropTee();
    this.writeTail();
    return this.file.close();
  }

  private append(bytes: Buffer): void {
    const head = bytes.length <= this.headRoom ? bytes : bytes.subarray(0, this.headRoom);
    if (head.length > 0) {
      this.headRoom -= head.length;
      this.headLastByte = head[head.length - 1]!;
      if (!this.file.write(head)) this.block(this.file, this.file.onDrain(() => this.unblock(this.file)));
    }
    if (head.length < bytes.length) this.tail?.push(bytes.subarray(head.length));
  }

  private writeTail(): void {
    if (this.tail === null || this.file.failed !== null) return;
    const dropped = this.tail.dropped;
    if (dropped > 0) {
      // The head may end mid-line; the marker always stands on a line of its own.
      const newline = this.headLastByte === NEWLINE ? '' : '\n';
      this.file.write(`${newline}run-tests: ${dropped} bytes of output dropped here (--max-log ${formatSize(this.maxBytes ?? 0)})\n`);
    }
    for (const chunk of this.tail.chunks()) this.file.write(chunk);
  }

  private blockOnTee(tee: NodeJS.WritableStream): void {
    if (this.blockers.has(tee)) return;
    const onDrain = (): void => this.unblock(tee);
    tee.once('drain', onDrain);
    this.block(tee, () => tee.removeListener('drain', onDrain));
  }

  /** Pauses the sources until `writer` drains; `stopWaiting` removes its drain listener. */
  private block(writer: object, stopWaiting: () => void): void {
    if (this.blockers.has(writer)) return stopWaiting();
    this.blockers.set(writer, stopWaiting);
    for (const source of this.sources) source.pause();
  }

  private unblock(writer: object): void {
    const stopWaiting = this.blockers.get(writer);
    if (stopWaiting === undefined) return;
    stopWaiting();
    this.blockers.delete(writer);
    if (this.blockers.size === 0) for (const source of this.sources) source.resume();
  }

  private dropTee(): void {
    if (this.tee === null) return;
    const tee = this.tee;
    this.tee = null;
    tee.removeListener('error', this.onTeeError);
    this.unblock(tee);
  }
}

const UNITS = [['G', 1024 ** 3], ['M', 1024 ** 2], ['K', 1024]] as const;

/** 67108864 -> "64M", 1536 -> "1536": the largest unit that states the size exactly. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of UNITS) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}
