import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat from field 3 (the state) on; null when there is no
 * such file. comm, field 2, may hold spaces and parens: split after its last paren. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot.
 * With the pid it names one process for good: a pid reused later has another start.
 * null where there is no /proc or the process is gone. */
export function processStartTime(pid: number): number | null {
  const start = Number(statFields(pid)?.[22 - 3]);
  return Number.isSafeInteger(start) ? start : null;
}

/** Whether the process that recorded (pid, pidStart) is still running. A zombie is gone;
 * without a recorded start (no /proc where it ran) a live pid has to be taken for it. */
export function ownerAlive(pid: number, pidStart: number | null): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const fields = statFields(pid);
  if (fields === null) return pidStart === null; // no /proc here: the pid is all there is to go by
  if (fields[0] === 'Z') return false;
  return pidStart === null || Number(fields[22 - 3]) === pidStart;
}
