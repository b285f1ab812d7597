import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { readStat } from './kill.js';

/** Every process run-tests starts carries this variable naming the run, and passes it on
 * to what it starts: processes that leave the runner's process group (setsid, a double
 * fork) can still be found and killed by it, as Jenkins' ProcessTreeKiller finds a build's. */
export const RUN_ID_ENV = 'RUN_TESTS_RUN_ID';

/** A process found by the marker: its pid and its command line, for a warning. */
export interface MarkedProcess {
  readonly pid: number;
  readonly command: string;
}

/** The child environment with the run's marker set (replacing one inherited from an outer run). */
export function withRunMarker(env: NodeJS.ProcessEnv, runId: string): NodeJS.ProcessEnv {
  return { ...env, [RUN_ID_ENV]: runId };
}

/** A run id is checked before it is searched for: an empty or odd one could match too much. */
export const isRunId = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(value);

/** Live processes (never this one) whose environment carries the run's marker, with
 * their command lines. */
export function findMarkedProcesses(runId: string): MarkedProcess[] {
  return markedPids(runId).map(({ pid }) => ({ pid, command: commandOf(pid) }));
}

export interface MarkedPid {
  readonly pid: number;
  /** Its process group; null when it exited while we looked. */
  readonly pgid: number | null;
}

/** The pids (and process groups) of live processes carrying the run's marker; with
 * `enough`, the scan may stop at the first one it accepts. Linux reads
 * /proc/<pid>/environ of processes of our own uid only; elsewhere `ps` prints environments. */
export function markedPids(runId: string, enough?: (found: MarkedPid) => boolean): MarkedPid[] {
  if (!isRunId(runId)) throw new TypeError(`markedPids: not a run id: ${JSON.stringify(runId)}`);
  return markedFromProc(runId, enough) ?? markedFromPs(runId);
}

/** null where there is no /proc. A zombie's environ reads empty, so it never matches. */
function markedFromProc(runId: string, enough?: (found: MarkedPid) => boolean): MarkedPid[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const needle = Buffer.from(`${RUN_ID_ENV}=${runId}\0`);
  const uid = process.getuid?.() ?? -1;
  const found: MarkedPid[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || !environHas(entry, needle, uid)) continue;
    const marked = { pid, pgid: readStat(entry)?.pgrp ?? null };
    found.push(marked);
    if (enough?.(marked)) break;
  }
  return found;
}

/** Reused for every environ read: open, read, close, with no fstat and no allocation. */
const ENVIRON = Buffer.alloc(256 * 1024);

function environHas(pid: string, needle: Buffer, uid: number): boolean {
  let fd: number;
  try {
    // Another user's environ is unreadable anyway; stat costs less than failing to open it.
    if (uid !== 0 && statSync(`/proc/${pid}`).uid !== uid) return false;
    fd = openSync(`/proc/${pid}/environ`, 'r');
  } catch {
    return false; // exited while we looked, or not ours
  }
  try {
    let length = 0;
    for (let n = -1; n !== 0 && length < ENVIRON.length; length += n) n = readSync(fd, ENVIRON, length, ENVIRON.length - length, null);
    const environ = length < ENVIRON.length ? ENVIRON.subarray(0, length) : readFileSync(`/proc/${pid}/environ`);
    const at = environ.indexOf(needle);
    // The variable starts the environment or follows a NUL: never the tail of another's value.
    return at === 0 || (at > 0 && environ[at - 1] === 0);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** macOS and the BSDs: `ps -E` appends each process's environment to its command line
 * (only for our own processes); `-x` includes those without a terminal, as daemons are. */
function markedFromPs(runId: string): MarkedPid[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-x', '-E', '-ww', '-o', 'pid=,pgid=,command='], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return [];
  }
  const marker = `${RUN_ID_ENV}=${runId}`;
  return out.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line);
    const pid = Number(match?.[1]);
    if (!match || pid <= 1 || pid === process.pid) return [];
    return match[3]?.split(' ').includes(marker) ? [{ pid, pgid: Number(match[2]) }] : [];
  });
}

const MAX_COMMAND = 200;

/** The command line of a process, shortened for a warning; '?' when it is gone. */
export function commandOf(pid: number): string {
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
  } catch {
    try {
      command = execFileSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    } catch {
      command = '';
    }
  }
  if (command === '') return '?';
  return command.length > MAX_COMMAND ? `${command.slice(0, MAX_COMMAND - 1)}…` : command;
}
