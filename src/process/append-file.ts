import fs from 'node:fs';

/** A file appended to with synchronous writes, each written whole before the next. No
 * thread pool round trip, no queue in memory and no timer: the callers already batch
 * (a read of the runner's output file is up to 64 KiB), and a write to the page cache
 * takes microseconds. The first error is kept and later writes are dropped, so the
 * callers keep reading the runner's output and report the error once it is done. */
export class AppendFile {
  private error: Error | null = null;
  private fd: number | null;

  /** `fd`: open for appending, by the caller (synchronously, so a bad path fails early). */
  constructor(fd: number) {
    this.fd = fd;
  }

  /** The first write error, if any. */
  get failed(): Error | null {
    return this.error;
  }

  write(bytes: Buffer | string): void {
    if (this.error !== null || this.fd === null) return;
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    try {
      // A write to a regular file takes fewer bytes only when the disk is full, and the next one then fails.
      for (let offset = 0; offset < buffer.length; ) offset += fs.writeSync(this.fd, buffer, offset);
    } catch (error) {
      this.error = error as Error;
    }
  }

  /** Closes the file; throws the first write (or close) error. */
  close(): void {
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch (error) {
        this.error ??= error as Error;
      }
      this.fd = null;
    }
    if (this.error !== null) throw this.error;
  }
}
