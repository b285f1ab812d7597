/** Chunks are copied into blocks of this size, and a block that falls out of the tail is
 * reused for the next one: memory is the kept bytes plus two blocks, whether the runner
 * writes a byte or a megabyte at a time, and a flood makes no garbage here. */
const BLOCK = 64 * 1024;

/** The most recent `limit` bytes of a stream, in memory; counts what fell out. */
export class TailRing {
  /** Full blocks, oldest first. */
  private readonly blocks: Buffer[] = [];
  private open: Buffer | null = null;
  private openUsed = 0;
  private spare: Buffer | null = null;
  /** Bytes in `blocks` and `open`; exceeds `limit` by less than a block. */
  private held = 0;
  private droppedBytes = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.open === null || this.openUsed === BLOCK) this.startBlock();
      const copied = chunk.copy(this.open!, this.openUsed, offset);
      this.openUsed += copied;
      this.held += copied;
      offset += copied;
    }
    this.dropWholeBlocks();
  }

  /** Bytes pushed that are no longer kept. */
  get dropped(): number {
    return this.droppedBytes + Math.max(0, this.held - this.limit);
  }

  /** The kept bytes, oldest first: exactly the last `limit` bytes pushed (or all of them).
   * They share memory with the ring: push nothing more while they are in use. */
  chunks(): Buffer[] {
    const all = this.open === null ? [...this.blocks] : [...this.blocks, this.open.subarray(0, this.openUsed)];
    let excess = Math.max(0, this.held - this.limit);
    while (excess > 0 && all.length > 0) {
      const first = all[0]!;
      if (first.length > excess) {
        all[0] = first.subarray(excess);
        break;
      }
      excess -= first.length;
      all.shift();
    }
    return all.filter((b) => b.length > 0);
  }

  private startBlock(): void {
    if (this.open !== null) this.blocks.push(this.open);
    this.open = this.spare ?? Buffer.allocUnsafe(BLOCK);
    this.spare = null;
    this.openUsed = 0;
  }

  private dropWholeBlocks(): void {
    while (this.blocks.length > 0 && this.held - BLOCK >= this.limit) {
      this.spare = this.blocks.shift()!;
      this.held -= BLOCK;
      this.droppedBytes += BLOCK;
    }
  }
}
