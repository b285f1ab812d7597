import fs from 'node:fs';
import { everyPoll } from './poll.js';

/** The most one read takes; a larger backlog is read in several, into one buffer. */
const READ_BYTES = 64 * 1024;

/** What a child process appends to a file, handed on a read at a time, every poll (the
 * log on disk and the tee lag the runner by at most POLL_MS). The runner writes its
 * output straight into the file: no pipe, and no work in this process per write the
 * runner makes (go test -json makes one per event). Paused, it stops reading; the file
 * holds what comes meanwhile. */
export class FileTail {
  private offset: number;
  private paused = false;
  private stopPolling: (() => void) | null;
  private resumed: (() => void) | null = null;
  private error: Error | null = null;
  private readonly buffer = Buffer.allocUnsafe(READ_BYTES);

  /** Reads `fd` from byte `from` on (what the file held before belongs to someone else).
   * `onTruncated`: the file shrank below what was read (a process of the runner opened it
   * anew with O_TRUNC, as a shell does for `> /dev/stdout`); reading goes on from its start.
   * `onBytes` gets a view of one buffer that the next read reuses: copy what you keep. */
  constructor(
    private readonly fd: number,
    from: number,
    private readonly onBytes: (bytes: Buffer) => void,
    private readonly onTruncated: () => void = () => undefined,
  ) {
    this.offset = from;
    this.stopPolling = everyPoll(() => this.read());
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
    this.stopPolling?.();
    this.stopPolling = null;
    while (this.read() === 'paused') await new Promise<void>((resolve) => (this.resumed = resolve));
    fs.closeSync(this.fd);
  }

  /** Reads until the end of the file or a pause. */
  private read(): 'end' | 'paused' {
    while (this.error === null) {
      if (this.paused) return 'paused';
      let read: number;
      try {
        read = fs.readSync(this.fd, this.buffer, 0, READ_BYTES, this.offset);
        // Nothing new: only then is the size worth a look (most polls of a busy run read).
        if (read === 0 && this.offset > 0 && fs.fstatSync(this.fd).size < this.offset) {
          this.offset = 0;
          this.onTruncated();
          continue;
        }
      } catch (error) {
        this.error = error as Error;
        return 'end';
      }
      if (read === 0) return 'end';
      this.offset += read;
      this.onBytes(this.buffer.subarray(0, read));
    }
    return 'end';
  }
}
