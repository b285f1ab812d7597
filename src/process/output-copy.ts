import type { Readable } from 'node:stream';
import { BatchedFile } from './batched-file.js';
import type { SourceGate } from './source-gate.js';

const NEWLINE = 0x0a;
/** A partial line longer than this is written as it is rather than held in memory. */
const MAX_PARTIAL = 1024 * 1024;

/** What one stream has sent since its last newline. */
interface Partial {
  chunks: Buffer[];
  bytes: number;
}

/** Appends the lines of the runner's streams to one file, whole lines at a time per
 * stream, so lines of two streams never split each other. The runner writes its stdout
 * into that file itself (see startProcess), and this adds its stderr. Unlike the log
 * it is never capped or marked: for go test -json or TAP on stdout, the file is the
 * report. Bytes are copied as they came: a character split between two chunks stays whole. */
export class OutputCopy {
  private readonly file: BatchedFile;
  private readonly partials = new Map<Readable, Partial>();

  /** `fd`: the file, open for appending (close() closes it). `gate`: the runner's streams
   * as the log pauses them (attach() does not add them). */
  constructor(fd: number, private readonly gate: SourceGate | null = null) {
    this.file = new BatchedFile(fd);
  }

  attach(source: Readable | null): void {
    if (source === null) return;
    const partial: Partial = { chunks: [], bytes: 0 };
    this.partials.set(source, partial);
    source.on('data', (chunk: Buffer) => this.take(partial, chunk));
    source.once('end', () => this.flush(partial));
  }

  /** Writes what is left of every stream and closes the file. */
  close(): Promise<void> {
    this.gate?.unblock(this.file);
    for (const partial of this.partials.values()) this.flush(partial);
    return this.file.close();
  }

  private take(partial: Partial, chunk: Buffer): void {
    const cut = chunk.lastIndexOf(NEWLINE) + 1;
    if (cut === 0) {
      partial.chunks.push(chunk);
      partial.bytes += chunk.length;
      if (partial.bytes > MAX_PARTIAL) this.flush(partial);
      return;
    }
    this.flush(partial);
    this.write(cut === chunk.length ? chunk : chunk.subarray(0, cut));
    if (cut < chunk.length) this.take(partial, chunk.subarray(cut));
  }

  private flush(partial: Partial): void {
    for (const chunk of partial.chunks) this.write(chunk);
    partial.chunks = [];
    partial.bytes = 0;
  }

  /** Never capped, so a full file holds the runner's output at the gate rather than
   * fill memory (the log may have stopped writing at its cap). */
  private write(bytes: Buffer): void {
    if (this.file.write(bytes) || this.gate === null) return;
    this.gate.block(this.file, this.file.onDrain(() => this.gate?.unblock(this.file)));
  }
}
