/** A source of the runner's output: one of its pipes, or the file it writes (FileTail). */
export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

/** The runner's output sources, paused while a writer they feed is full (the tee; the
 * log and the output copy are written synchronously) and resumed when none is: a
 * terminal slower than the runner slows the runner (or, for a file it writes, the
 * reading of it) instead of filling memory. */
export class SourceGate {
  private readonly sources: Pausable[] = [];
  /** Full writers, each with what stops waiting for its drain. */
  private readonly blockers = new Map<object, () => void>();

  add(source: Pausable): void {
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
