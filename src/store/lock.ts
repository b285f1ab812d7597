import crypto from 'node:crypto';
import fs from 'node:fs';
import { isOwner, ownerAlive, selfOwner, type Owner } from './owner.js';
import { removeFile } from './atomic.js';

/** What a lock file holds: its owner, and a token telling this holding from any other. */
interface Holding extends Owner {
  readonly token: string;
}

/** A held lock; release() removes it only while it is still ours. */
export interface Lock {
  release(): void;
}

/** Takes the lock file, waiting while a live process holds it (polling, at most
 * `waitMs`), and taking it over from an owner that is gone. null when it stayed held. */
export async function acquireLock(file: string, waitMs: number): Promise<Lock | null> {
  const text = `${JSON.stringify({ ...selfOwner(), token: crypto.randomBytes(8).toString('hex') } satisfies Holding)}\n`;
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    if (tryCreate(file, text)) return { release: () => void (readText(file) === text && removeFile(file)) };
    const held = readText(file);
    if (held !== null && isStale(held)) {
      breakStale(file, held);
      continue;
    }
    if (held !== null && Date.now() >= deadline) return null;
    if (held !== null) await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Creates the lock with its whole content at once: written beside it, then hard-linked
 * to its name, which fails if the name exists. A reader never sees a half-written lock. */
function tryCreate(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temp, text, { flag: 'wx' });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    removeFile(temp);
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Held by a process that is gone, or not a lock of ours at all. */
function isStale(text: string): boolean {
  try {
    const holding: unknown = JSON.parse(text);
    return !isOwner(holding) || !ownerAlive(holding);
  } catch {
    return true;
  }
}

/** Moves the stale lock aside and removes it, if what was moved is the holding judged
 * stale. Another process may have broken it and taken the lock in between: that fresh
 * lock is put back (a link fails only if a third took the name meanwhile). */
function breakStale(file: string, stale: string): void {
  const aside = `${file}.stale.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readText(aside) !== stale) fs.linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    removeFile(aside);
  }
}
