import { openAppend, openFresh } from '../store/atomic.js';
import { AppendFile } from './append-file.js';
import { SourceGate } from './source-gate.js';
import { TailRing } from './tail-ring.js';

const NEWLINE = 0x0a;

/** The runner's combined output on disk, plus an optional live copy (tee).
 * With a cap, the first half of the cap goes to disk as it comes and only the most
 * recent other half is kept (in memory) after that, written behind a marker line on
 * close. The file is written synchronously, so a slow disk slows the reading of the
 * runner's output; the sources pause while the tee is not draining. Neither fills memory. */
export class RunLog {
  private lastByte = NEWLINE;
  private bytesRead = 0;
  private headRoom: number;
  private headLastByte = NEWLINE;
  private readonly tail: TailRing | null;
  private readonly onTeeError = (): void => this.dropTee();

  private constructor(
    private readonly file: AppendFile,
    private tee: NodeJS.WritableStream | null,
    private readonly maxBytes: number | null,
    private readonly gate: SourceGate,
  ) {
    this.headRoom = maxBytes === null ? Infinity : Math.floor(maxBytes / 2);
    this.tail = maxBytes === null ? null : new TailRing(maxBytes - this.headRoom);
    tee?.on('error', this.onTeeError);
  }

  /** Creates the file anew (or appends to it) synchronously, so a bad path fails before any
   * spawn. Never through a link: a link there is replaced (or, to append, refused).
   * `maxBytes` caps what this log writes (null: no cap); an appended log is capped on its own. */
  static open(path: string, tee: NodeJS.WritableStream | null, append = false, maxBytes: number | null = null, gate = new SourceGate()): RunLog {
    const fd = append ? openAppend(path) : openFresh(path);
    return new RunLog(new AppendFile(fd), tee, maxBytes, gate);
  }

  /** Bytes read from the runner so far (markers excluded). */
  get bytes(): number {
    return this.bytesRead;
  }

  /** The runner's bytes, from the FileTail of its output (which the caller adds to the
   * gate). Used during the call only: the tail reuses the buffer. */
  take(chunk: Buffer): void {
    this.bytesRead += chunk.length;
    this.lastByte = chunk[chunk.length - 1] ?? this.lastByte;
    this.append(chunk);
    if (this.tee !== null && !this.tee.write(Buffer.from(chunk))) this.blockOnTee(this.tee);
  }

  /** Appends a run-tests line, on a line of its own. With a cap it goes whole into the
   * head if it fits, else into the tail (and nothing more goes into the head). */
  note(line: string): void {
    const text = Buffer.from(`${this.lastByte === NEWLINE ? '' : '\n'}run-tests: ${line}\n`);
    if (text.length > this.headRoom) this.headRoom = 0;
    this.append(text);
    this.lastByte = NEWLINE;
  }

  /** Call once the sources have ended or been destroyed. Throws if a write failed. */
  close(): void {
    this.dropTee();
    this.writeTail();
    this.file.close();
  }

  private append(bytes: Buffer): void {
    const head = bytes.length <= this.headRoom ? bytes : bytes.subarray(0, this.headRoom);
    if (head.length > 0) {
      this.headRoom -= head.length;
      this.headLastByte = head[head.length - 1]!;
      this.file.write(head);
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
    const onDrain = (): void => this.gate.unblock(tee);
    tee.once('drain', onDrain);
    this.gate.block(tee, () => tee.removeListener('drain', onDrain));
  }

  private dropTee(): void {
    if (this.tee === null) return;
    const tee = this.tee;
    this.tee = null;
    tee.removeListener('error', this.onTeeError);
    this.gate.unblock(tee);
  }
}

const UNITS = [['G', 1024 ** 3], ['M', 1024 ** 2], ['K', 1024]] as const;

/** 67108864 -> "64M", 1536 -> "1536": the largest unit that states the size exactly. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of UNITS) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}
