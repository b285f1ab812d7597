import { readdirSync, readFileSync } from 'node:fs';

/** Sends a signal to every process in the group. False when the group is gone, or
 * holds only processes we may not signal (EPERM): either way nothing more to do. */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  // pid 0 or negative would address our own group: never.
  if (!Number.isInteger(pgid) || pgid <= 0) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

/** True while a process of the group is still running. Zombies do not count: in a
 * container PID 1 may never reap orphans, and kill(-pgid, 0) still finds them. */
export function groupHasLiveMembers(pgid: number): boolean {
  if (!killProcessGroup(pgid, 0)) return false;
  const members = groupMembers(pgid);
  return members === null ? true : members.length > 0;
}

/** The group's live (non-zombie) processes from /proc; null where there is no /proc. */
export function groupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    const stat = readStat(entry);
    return stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X' ? [Number(entry)] : [];
  });
}

/** Parses state and pgrp from /proc/<pid>/stat; comm may contain spaces and parens. */
export function readStat(pid: string | number): { state: string; pgrp: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited while we looked
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}
