import type { Readable } from 'node:stream';

/** The runner's output streams, paused while any writer they feed is full (the log,
 * its tee, the report copy) and resumed when none is: a disk or terminal slower than
 * the runner slows the runner instead of filling memory. */
export class SourceGate {
  private readonly sources: Readable[] = [];
  /** Full writers, each with what stops waiting for its drain. */
  private readonly blockers = new Map<object, () => void>();

  add(source: Readable): void {
    this.sources.push(source);
    if (this.blockers.size > 0) source.pause();
  }

  /** Pauses the sources until unblock(writer); `stopWaiting` removes its drain listener. */
  block(writer: object, stopWaiting: () => void): void {
    if (this.blockers.has(writer)) return stopWaiting();
    this.blockers.set(writer, stopWaiting);
    for (const source of this.sources) source.pause();
  }

  unblock(writer: object): void {
    const stopWaiting = this.blockers.get(writer);
    if (stopWaiting === undefined) return;
    stopWaiting();
    this.blockers.delete(writer);
    if (this.blockers.size === 0) for (const source of this.sources) source.resume();
  }
}
