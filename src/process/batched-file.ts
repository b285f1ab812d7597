import { createWriteStream, type WriteStream } from 'node:fs';

/** How long bytes may wait in memory before they go to disk. */
const FLUSH_MS = 30;
/** Bytes that go to disk at once, without waiting for FLUSH_MS. */
const BATCH_BYTES = 256 * 1024;
/** write() returns false above this; the caller pauses its sources until 'drain'. */
const HIGH_WATER = 1024 * 1024;

/** A file that takes many small appends and makes few system calls. Runners write their
 * output a line at a time (go test -json: one write per event), and one fs.write per
 * chunk, each a round trip through libuv's thread pool, cost run-tests' process more
 * CPU than everything else it did during a go run, taken from a runner that uses every
 * core. The stream stays corked: what was written goes to disk with one writev
 * FLUSH_MS after it came, or as soon as BATCH_BYTES wait. */
export class BatchedFile {
  private timer: NodeJS.Timeout | null = null;
  private error: Error | null = null;

  private constructor(private readonly stream: WriteStream) {
    stream.cork();
    stream.on('error', (error) => {
      this.error ??= error;
      this.stopTimer();
    });
  }

  /** `fd`: the file already opened by the caller (synchronously, so a bad path fails early). */
  static open(path: string, options: { fd: number } | { flags: 'a' | 'w' }): BatchedFile {
    return new BatchedFile(createWriteStream(path, { ...options, highWaterMark: HIGH_WATER }));
  }

  /** The first write error, after which writes are dropped (the caller keeps reading its sources). */
  get failed(): Error | null {
    return this.error;
  }

  /** Queues the bytes; false when more than HIGH_WATER wait: wait for onDrain before writing more. */
  write(bytes: Buffer | string): boolean {
    if (this.error !== null) return true;
    const roomLeft = this.stream.write(bytes);
    if (this.stream.writableLength >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(this.flush, FLUSH_MS);
    return roomLeft;
  }

  /** Calls back once when the queue has drained after write() returned false (or on an error). */
  onDrain(callback: () => void): () => void {
    const done = (): void => {
      this.stream.removeListener('drain', done);
      this.stream.removeListener('error', done);
      callback();
    };
    this.stream.once('drain', done);
    this.stream.once('error', done);
    return () => {
      this.stream.removeListener('drain', done);
      this.stream.removeListener('error', done);
    };
  }

  /** Writes what waits and closes the file; rejects with the first write error. */
  close(): Promise<void> {
    this.stopTimer();
    return new Promise((resolve, reject) => {
      const settle = (): void => (this.error === null ? resolve() : reject(this.error));
      if (this.stream.closed) return settle();
      this.stream.once('close', settle);
      this.stream.end(); // end() uncorks
    });
  }

  private readonly flush = (): void => {
    this.stopTimer();
    this.stream.uncork();
    this.stream.cork();
    // Bytes that came while a write was in flight wait for the next flush.
    if (this.stream.writableLength > 0 && this.error === null) this.timer = setTimeout(this.flush, FLUSH_MS);
  };

  private stopTimer(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
  }
}
