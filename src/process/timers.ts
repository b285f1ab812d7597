/** A run's timers (its timeout, the kill after the grace, the looks at its group), all
 * cleared at once when the run ends, so nothing of it fires later. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      fn();
    }, ms);
    this.pending.add(timer);
    return timer;
  }

  cancel(timer: NodeJS.Timeout | null): void {
    if (timer === null) return;
    clearTimeout(timer);
    this.pending.delete(timer);
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
