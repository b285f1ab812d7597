import type { Readable } from 'node:stream';
import { AppendFile } from './append-file.js';
import { everyPoll } from './poll.js';

const NEWLINE = 0x0a;
/** A partial line longer than this is written as it is rather than held in memory. */
const MAX_PARTIAL = 1024 * 1024;
/** Whole lines wait for the next poll, in one write, unless this many bytes wait. */
const BATCH_BYTES = 256 * 1024;

/** What one stream has sent since its last newline. */
interface Partial {
  chunks: Buffer[];
  bytes: number;
}

/** Appends the lines of the runner's streams to one file, whole lines at a time per
 * stream, so lines of two streams never split each other. The runner writes its stdout
 * into that file itself (see startProcess), and this adds its stderr. Unlike the log
 * it is never capped or marked: for go test -json or TAP on stdout, the file is the
 * report. Bytes are copied as they came: a character split between two chunks stays
 * whole. A pipe hands on a line at a time when the runner writes one at a time, so whole
 * lines wait for the next poll (or BATCH_BYTES) and go to the file in one write. */
export class OutputCopy {
  private readonly file: AppendFile;
  private readonly partials = new Map<Readable, Partial>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly stopPolling: () => void;

  /** `fd`: the file, open for appending (close() closes it). */
  constructor(fd: number) {
    this.file = new AppendFile(fd);
    this.stopPolling = everyPoll(() => this.flush());
  }

  attach(source: Readable | null): void {
    if (source === null) return;
    const partial: Partial = { chunks: [], bytes: 0 };
    this.partials.set(source, partial);
    source.on('data', (chunk: Buffer) => this.take(partial, chunk));
    source.once('end', () => this.release(partial));
  }

  /** Writes the whole lines that wait: before anything that must follow them in the file. */
  flush(): void {
    if (this.pending.length === 0) return;
    this.file.write(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes what is left of every stream and closes the file; throws the first write error. */
  close(): void {
    this.stopPolling();
    for (const partial of this.partials.values()) this.release(partial);
    this.flush();
    this.file.close();
  }

  private take(partial: Partial, chunk: Buffer): void {
    const cut = chunk.lastIndexOf(NEWLINE) + 1;
    if (cut === 0) {
      partial.chunks.push(chunk);
      partial.bytes += chunk.length;
      if (partial.bytes > MAX_PARTIAL) this.release(partial);
      return;
    }
    this.release(partial);
    this.queue(cut === chunk.length ? chunk : chunk.subarray(0, cut));
    if (cut < chunk.length) this.take(partial, chunk.subarray(cut));
  }

  /** Queues a stream's partial line as it is. */
  private release(partial: Partial): void {
    for (const chunk of partial.chunks) this.queue(chunk);
    partial.chunks = [];
    partial.bytes = 0;
  }

  private queue(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= BATCH_BYTES) this.flush();
  }
}
