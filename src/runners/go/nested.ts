/** Nested runs in a `go test -json` stream. A test that calls testing.RunTests (as
 * testify's own suite tests do) runs inner tests in the same binary: their `run`,
 * `pass` and `fail` events reach the stream as top-level tests of the package, though
 * go's verdict on the package is the outer test's. Top-level tests run one at a time
 * (a parallel one pauses first), so a top-level test that starts while another runs
 * and ends before it ran inside it. Without an end of its outer test (Go 1.19 loses
 * the outcome of a test whose output lacks a trailing newline) it is not nested. */

interface Top {
  readonly name: string;
  /** The tests that started while this one ran, unpaused; null while there are none
   * (nearly always: most tests run nothing nested). */
  inner: Top[] | null;
  done: boolean;
}

const NONE: readonly string[] = [];

export class NestedRuns {
  /** Top-level tests running now, unpaused, oldest first. */
  private readonly active: Top[] = [];
  /** The top-level tests that have not ended: one that ended is only an outer test's inner. */
  private readonly tops = new Map<string, Top>();

  run(name: string): void {
    const top: Top = { name, inner: null, done: false };
    const outer = this.active[this.active.length - 1];
    if (outer !== undefined) (outer.inner ??= []).push(top);
    this.tops.set(name, top);
    this.active.push(top);
  }

  pause(name: string): void {
    this.leave(name);
  }

  cont(name: string): void {
    const top = this.tops.get(name);
    if (top && !this.active.includes(top)) this.active.push(top);
  }

  /** A top-level test ended: the names of the tests that ran and ended inside it. */
  end(name: string): readonly string[] {
    const top = this.tops.get(name);
    if (!top) return NONE;
    top.done = true;
    this.tops.delete(name);
    this.leave(name);
    return top.inner === null ? NONE : top.inner.filter((t) => t.done).map((t) => t.name);
  }

  private leave(name: string): void {
    // The test that leaves is nearly always the last to have started.
    const last = this.active.length - 1;
    const at = this.active[last]?.name === name ? last : this.active.findIndex((t) => t.name === name);
    if (at !== -1) this.active.splice(at, 1);
  }
}
