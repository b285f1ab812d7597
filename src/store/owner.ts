import fs from 'node:fs';

/** A process that owns something in .run-tests/ (a run directory, the lock): its pid,
 * and its start time where /proc has one, so a reused pid is not taken for the owner. */
export interface Owner {
  readonly pid: number;
  /** Field 22 (starttime, in clock ticks since boot) of /proc/<pid>/stat; null without /proc. */
  readonly pid_start: number | null;
}

/** `/proc/<pid>/stat`'s state and start time, or null when there is no such entry. The
 * command name (field 2) may hold spaces and parentheses: fields are read after its last `)`. */
function procStat(pid: number | 'self'): { state: string; start: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]);
  return { state: fields[0] ?? '', start: Number.isSafeInteger(start) ? start : NaN };
}

/** This process, as an owner. */
export function selfOwner(): Owner {
  const start = procStat('self')?.start;
  return { pid: process.pid, pid_start: start === undefined || Number.isNaN(start) ? null : start };
}

/** Whether the owner still runs: the pid exists, is not a zombie, and started when the
 * owner did. EPERM means it exists under another user. */
export function ownerAlive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(owner.pid);
  if (stat === null) return !fs.existsSync('/proc/self/stat');
  if (stat.state === 'Z') return false;
  return owner.pid_start === null || stat.start === owner.pid_start;
}

export const isOwner = (value: unknown): value is Owner => {
  const v = value as Partial<Owner> | null;
  return typeof v === 'object' && v !== null && Number.isSafeInteger(v.pid) && (v.pid ?? 0) > 0
    && (v.pid_start === null || Number.isSafeInteger(v.pid_start));
};
