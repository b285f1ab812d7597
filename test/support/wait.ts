import fs from 'node:fs';

/** Gone means no such pid or a zombie: PID 1 in a container may never reap orphans. */
export function processGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls a condition until it holds; fails with `what` at the deadline, which is generous:
 * waiting longer costs a passing test nothing, and a loaded machine may be slow. No fixed sleeps. */
export async function waitFor(what: string, condition: () => boolean, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs}ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
