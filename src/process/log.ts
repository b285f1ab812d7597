import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

const NEWLINE = 0x0a;

/** The runner's combined output on disk, plus an optional live copy (tee).
 * Sources are piped, so a slow disk slows the runner instead of filling memory. */
export class RunLog {
  private readonly sources: Readable[] = [];
  private lastByte = NEWLINE;
  private bytesRead = 0;
  private writeError: Error | null = null;
  private readonly onTeeError = (): void => this.dropTee();

  private constructor(
    private readonly stream: WriteStream,
    private tee: NodeJS.WritableStream | null,
  ) {
    stream.on('error', (error) => this.onWriteError(error));
    tee?.on('error', this.onTeeError);
  }

  /** Creates or truncates (or appends to) the file synchronously, so a bad path fails before any spawn. */
  static open(path: string, tee: NodeJS.WritableStream | null, append = false): RunLog {
    const fd = openSync(path, append ? 'a' : 'w');
    return new RunLog(createWriteStream(path, { fd }), tee);
  }

  /** Bytes read from the runner so far (markers excluded). */
  get bytes(): number {
    return this.bytesRead;
  }

  attach(source: Readable | null): void {
    if (source === null) return;
    this.sources.push(source);
    if (this.writeError === null) source.pipe(this.stream, { end: false });
    if (this.tee !== null) source.pipe(this.tee, { end: false });
    source.on('data', (chunk: Buffer) => {
      this.bytesRead += chunk.length;
      this.lastByte = chunk[chunk.length - 1] ?? this.lastByte;
    });
  }

  /** Appends a run-tests line, on a line of its own. */
  note(line: string): void {
    if (this.writeError !== null) return;
    this.stream.write(`${this.lastByte === NEWLINE ? '' : '\n'}run-tests: ${line}\n`);
    this.lastByte = NEWLINE;
  }

  /** Call once the sources have ended or been destroyed. Rejects if a write failed. */
  close(): Promise<void> {
    this.dropTee();
    return new Promise((resolve, reject) => {
      const settle = (): void => (this.writeError === null ? resolve() : reject(this.writeError));
      if (this.stream.closed) return settle();
      this.stream.once('close', settle);
      this.stream.end();
    });
  }

  private onWriteError(error: Error): void {
    this.writeError ??= error;
    // pipe() has unpiped and paused the sources; keep draining so the runner never blocks.
    for (const source of this.sources) source.resume();
  }

  private dropTee(): void {
    if (this.tee === null) return;
    for (const source of this.sources) source.unpipe(this.tee);
    this.tee.removeListener('error', this.onTeeError);
    this.tee = null;
  }
}
