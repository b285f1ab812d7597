import fs from 'node:fs';

/** How often the file is read while the runner writes it: the log on disk and the tee
 * lag the runner by at most this much. */
const POLL_MS = 30;
/** The most one read takes; a larger backlog is read in several. Each read is a new
 * buffer (the log keeps it), and below malloc's mapping threshold (128 KiB) that comes
 * from reused memory rather than a fresh mapping. */
const READ_BYTES = 64 * 1024;

/** What a child process appends to a file, handed on a read at a time. The runner writes
 * its output straight into the file: no pipe, and no work in this process per write the
 * runner makes (go test -json makes one per event). Paused, it stops reading; the file
 * holds what comes meanwhile. */
export class FileTail {
  private offset: number;
  private paused = false;
  private timer: NodeJS.Timeout | null;
  private resumed: (() => void) | null = null;
  private error: Error | null = null;

  /** Reads `fd` from byte `from` on (what the file held before belongs to someone else).
   * `onTruncated`: the file shrank below what was read (a process of the runner opened it
   * anew with O_TRUNC, as a shell does for `> /dev/stdout`); reading goes on from its start. */
  constructor(
    private readonly fd: number,
    from: number,
    private readonly onBytes: (bytes: Buffer) => void,
    private readonly onTruncated: () => void = () => undefined,
  ) {
    this.offset = from;
    this.timer = setInterval(() => this.read(), POLL_MS);
    this.timer.unref(); // the runner keeps the process alive, never the tail on its own
  }

  /** The error that stopped the reading, if one did. */
  get failed(): Error | null {
    return this.error;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const resumed = this.resumed;
    this.resumed = null;
    resumed?.();
  }

  /** Hands on what the file holds now (unless paused), without waiting for the next poll. */
  catchUp(): void {
    this.read();
  }

  /** Once the writers are done: hands on the rest (waiting out pauses) and closes the file. */
  async finish(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    while (this.read() === 'paused') await new Promise<void>((resolve) => (this.resumed = resolve));
    fs.closeSync(this.fd);
  }

  /** Reads until the end of the file or a pause. */
  private read(): 'end' | 'paused' {
    while (this.error === null) {
      if (this.paused) return 'paused';
      let bytes: Buffer;
      try {
        const size = fs.fstatSync(this.fd).size;
        if (size < this.offset) {
          this.offset = 0;
          this.onTruncated();
        }
        if (size <= this.offset) return 'end';
        bytes = Buffer.allocUnsafe(Math.min(size - this.offset, READ_BYTES));
        const read = fs.readSync(this.fd, bytes, 0, bytes.length, this.offset);
        if (read === 0) return 'end';
        bytes = bytes.subarray(0, read);
      } catch (error) {
        this.error = error as Error;
        return 'end';
      }
      this.offset += bytes.length;
      this.onBytes(bytes);
    }
    return 'end';
  }
}
