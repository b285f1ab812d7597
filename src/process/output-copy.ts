import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** A partial line longer than this is written as it is rather than held in memory. */
const MAX_PARTIAL = 1024 * 1024;

/** A copy of the runner's stdout and stderr in one file, appended whole lines at a time
 * per stream, so lines of the two streams never split each other. For runners whose
 * structured report is their output (go test -json, TAP on stdout); unlike the log it
 * is never capped or marked. */
export class OutputCopy {
  private readonly stream: WriteStream;
  private readonly partials = new Map<Readable, string>();
  private error: Error | null = null;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'a' });
    this.stream.on('error', (error) => (this.error ??= error));
  }

  attach(source: Readable | null): void {
    if (source === null) return;
    this.partials.set(source, '');
    source.on('data', (chunk: Buffer) => this.take(source, chunk.toString('utf8')));
    source.once('end', () => this.flush(source));
  }

  private take(source: Readable, text: string): void {
    const pending = (this.partials.get(source) ?? '') + text;
    const cut = pending.lastIndexOf('\n') + 1;
    const whole = cut > 0 ? pending.slice(0, cut) : pending.length > MAX_PARTIAL ? pending : '';
    if (whole !== '') this.write(whole);
    this.partials.set(source, pending.slice(whole.length));
  }

  private flush(source: Readable): void {
    const rest = this.partials.get(source) ?? '';
    if (rest !== '') this.write(rest);
    this.partials.set(source, '');
  }

  private write(text: string): void {
    if (this.error === null) this.stream.write(text);
  }

  /** Writes what is left of every stream and closes the file. */
  close(): Promise<void> {
    for (const source of this.partials.keys()) this.flush(source);
    return new Promise((resolve, reject) => {
      this.stream.end(() => (this.error === null ? resolve() : reject(this.error)));
    });
  }
}
