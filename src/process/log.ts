import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
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
  private writeError: Error | null = null;
  /** Writers whose buffer is full, each with its 'drain' listener: the sources stay paused until none is left. */
  private readonly blockers = new Map<NodeJS.WritableStream, () => void>();
  private readonly onTeeError = (): void => this.dropTee();

  private constructor(
    private readonly stream: WriteStream,
    private tee: NodeJS.WritableStream | null,
    private readonly maxBytes: number | null,
  ) {
    this.headRoom = maxBytes === null ? Infinity : Math.floor(maxBytes / 2);
    this.tail = maxBytes === null ? null : new TailRing(maxBytes - this.headRoom);
    stream.on('error', (error) => this.onWriteError(error));
    tee?.on('error', this.onTeeError);
  }

  /** Creates or truncates (or appends to) the file synchronously, so a bad path fails before any spawn.
   * `maxBytes` caps what this log writes (null: no cap); an appended log is capped on its own. */
  static open(path: string, tee: NodeJS.WritableStream | null, append = false, maxBytes: number | null = null): RunLog {
    const fd = openSync(path, append ? 'a' : 'w');
    return new RunLog(createWriteStream(path, { fd }), tee, maxBytes);
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
      if (this.tee !== null && !this.tee.write(chunk)) this.block(this.tee);
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
    return new Promise((resolve, reject) => {
      const settle = (): void => (this.writeError === null ? resolve() : reject(this.writeError));
      if (this.stream.closed) return settle();
      this.stream.once('close', settle);
      this.stream.end();
    });
  }

  private append(bytes: Buffer): void {
    const head = bytes.length <= this.headRoom ? bytes : bytes.subarray(0, this.headRoom);
    if (head.length > 0) {
      this.headRoom -= head.length;
      this.headLastByte = head[head.length - 1]!;
      if (this.writeError === null && !this.stream.write(head)) this.block(this.stream);
    }
    if (head.length < bytes.length) this.tail?.push(bytes.subarray(head.length));
  }

  private writeTail(): void {
    if (this.tail === null || this.writeError !== null) return;
    const dropped = this.tail.dropped;
    if (dropped > 0) {
      // The head may end mid-line; the marker always stands on a line of its own.
      const newline = this.headLastByte === NEWLINE ? '' : '\n';
      this.stream.write(`${newline}run-tests: ${dropped} bytes of output dropped here (--max-log ${formatSize(this.maxBytes ?? 0)})\n`);
    }
    for (const chunk of this.tail.chunks()) this.stream.write(chunk);
  }

  private block(writer: NodeJS.WritableStream): void {
    if (this.blockers.has(writer)) return;
    const onDrain = (): void => this.unblock(writer);
    this.blockers.set(writer, onDrain);
    writer.once('drain', onDrain);
    for (const source of this.sources) source.pause();
  }

  private unblock(writer: NodeJS.WritableStream): void {
    const onDrain = this.blockers.get(writer);
    if (onDrain === undefined) return;
    writer.removeListener('drain', onDrain);
    this.blockers.delete(writer);
    if (this.blockers.size === 0) for (const source of this.sources) source.resume();
  }

  private onWriteError(error: Error): void {
    this.writeError ??= error;
    // No drain will come; keep reading so the runner never blocks.
    this.unblock(this.stream);
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
