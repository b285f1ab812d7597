import fs from 'node:fs';

/** How long bytes may wait in memory before they go to disk. */
const FLUSH_MS = 30;
/** Bytes that go to disk at once, without waiting for FLUSH_MS. */
const BATCH_BYTES = 256 * 1024;
/** write() returns false from here on; the caller pauses its sources until onDrain. */
const HIGH_WATER = 1024 * 1024;

/** A file that takes many small appends and makes few system calls. Runners write their
 * output a line at a time (go test -json: one write per event), and one fs.write per
 * chunk, each a round trip through libuv's thread pool, cost run-tests' process more
 * CPU than everything else it did during a go run, taken from a runner that uses every
 * core. Chunks wait in a list and go to disk with one writev FLUSH_MS after the first
 * came, or as soon as BATCH_BYTES wait; no stream machinery runs per chunk (a
 * Writable's write() cost ~50 ms over the 8,000 chunks of a 10,000-test go run). */
export class BatchedFile {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private error: Error | null = null;
  private closing = false;
  private closed: Promise<void> | null = null;
  private readonly drainWaiters = new Set<() => void>();
  private readonly idleWaiters: (() => void)[] = [];

  /** `fd`: the file, opened by the caller (synchronously, so a bad path fails early).
   * close() closes it. */
  constructor(private readonly fd: number) {}

  /** The first write error, after which writes are dropped (the caller keeps reading its sources). */
  get failed(): Error | null {
    return this.error;
  }

  /** Queues the bytes; false when more than HIGH_WATER wait: wait for onDrain before writing more. */
  write(bytes: Buffer | string): boolean {
    if (this.error !== null || this.closing) return true;
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    if (this.pendingBytes >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(this.flush, FLUSH_MS);
    return this.waiting() < HIGH_WATER;
  }

  /** Calls back once the queue is below HIGH_WATER again (or on an error); returns a cancel. */
  onDrain(callback: () => void): () => void {
    const once = (): void => {
      this.drainWaiters.delete(once);
      callback();
    };
    this.drainWaiters.add(once);
    return () => void this.drainWaiters.delete(once);
  }

  /** Writes what waits and closes the file; rejects with the first write error. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      this.closing = true;
      this.flush();
      if (this.writingBytes === 0) resolve();
      else this.idleWaiters.push(resolve);
    }).then(() => this.closeFd());
    return this.closed;
  }

  private waiting(): number {
    return this.pendingBytes + this.writingBytes;
  }

  private readonly flush = (): void => {
    this.stopTimer();
    if (this.writingBytes > 0 || this.pending.length === 0 || this.error !== null) return;
    const buffers = this.pending;
    this.writingBytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    writeAll(this.fd, buffers, (error) => this.written(error));
  };

  private written(error: Error | null): void {
    this.writingBytes = 0;
    if (error !== null) {
      this.error ??= error;
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (this.pending.length > 0 && (this.closing || this.pendingBytes >= BATCH_BYTES)) return this.flush();
    if (this.pending.length > 0) this.timer ??= setTimeout(this.flush, FLUSH_MS);
    if (this.waiting() < HIGH_WATER || this.error !== null) for (const waiter of [...this.drainWaiters]) waiter();
    if (this.writingBytes === 0) for (const idle of this.idleWaiters.splice(0)) idle();
  }

  private closeFd(): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (): void => (this.error === null ? resolve() : reject(this.error));
      fs.close(this.fd, (error) => {
        if (error) this.error ??= error;
        settle();
      });
    });
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
  }
}

/** fs.writev until every byte is written: a write may take fewer bytes than it was given. */
function writeAll(fd: number, buffers: Buffer[], done: (error: Error | null) => void): void {
  fs.writev(fd, buffers, (error, written) => {
    if (error) return done(error);
    let rest = written;
    while (buffers.length > 0 && rest >= (buffers[0]?.length ?? 0)) rest -= buffers.shift()?.length ?? 0;
    if (buffers.length === 0) return done(null);
    if (rest > 0) buffers[0] = buffers[0]!.subarray(rest);
    writeAll(fd, buffers, done);
  });
}
