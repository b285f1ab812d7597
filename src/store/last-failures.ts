import fs from 'node:fs';
import { HarnessError } from '../model/errors.js';
import type { FailedTestRecord, RunStatus } from '../model/results.js';
import { openRead, writeJsonAtomic } from './atomic.js';

/** 2 added `last_run`. Version 1 files (written only after runs with results) are read
 * as before; a reader of version 1 refuses a version 2 file, so it never answers
 * "nothing to rerun" after a run it cannot tell ended in error. */
export const LAST_FAILURES_VERSION = 2;
const READABLE_VERSIONS: readonly unknown[] = [1, LAST_FAILURES_VERSION];

export interface LastRun {
  /** The status of the project's last run, which may have left failed_tests as they were. */
  readonly status: RunStatus;
}

export interface LastFailures {
  readonly version: number;
  readonly created_at: string;
  readonly framework: string;
  readonly project_root: string;
  readonly failed_tests: readonly FailedTestRecord[];
  /** Absent in version 1 files. */
  readonly last_run?: LastRun;
}

/** Reads last-failures.json. A missing file is `null` (no previous run); a file that
 * cannot be read as a known version is a STORE_CORRUPT error, never an empty list. */
export function readLastFailures(file: string): LastFailures | null {
  const read = inspect(file);
  if (typeof read !== 'string') return read;
  throw new HarnessError('STORE_CORRUPT', `${file} is unusable (${read}); run the suite without --failed-only to replace it`, { path: file });
}

/** For a run that does not need the list (not --failed-only): a corrupt file must not
 * block it. It is set aside as `last-failures.json.corrupt-<time>`, kept for a look,
 * and the run writes a new one; `warning` says so. */
export function readLastFailuresOrSetAside(file: string): { last: LastFailures | null; warning: string | null } {
  const read = inspect(file);
  if (typeof read !== 'string') return { last: read, warning: null };
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    // A link is moved itself: what it points at stays as it is.
    fs.renameSync(file, aside);
  } catch (error) {
    throw new HarnessError('STORE_UNUSABLE', `${file} is unusable (${read}) and could not be set aside: ${(error as Error).message}`, { path: file });
  }
  return { last: null, warning: `${file} was unusable (${read}): kept as ${aside}; this run starts a new list of failures` };
}

/** The list, null when there is none, or what makes the file unusable. A link there is
 * not followed: it is unusable as well. */
function inspect(file: string): LastFailures | null | string {
  let text: string;
  try {
    const stats = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stats === undefined) return null;
    if (stats.isSymbolicLink()) return 'a symbolic link, which run-tests does not follow';
    if (!stats.isFile()) return 'not a regular file';
    const fd = openRead(file);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new HarnessError('STORE_UNUSABLE', `${file} cannot be read: ${(error as Error).message}`, { path: file });
  }
  return problem(text);
}

/** What is wrong with the file's text, or the list it holds. */
function problem(text: string): string | LastFailures {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (!isRecord(data)) return 'not an object';
  if (!READABLE_VERSIONS.includes(data.version)) return `version ${String(data.version)}, expected ${LAST_FAILURES_VERSION}`;
  if (typeof data.framework !== 'string' || !Array.isArray(data.failed_tests)) return 'missing framework or failed_tests';
  if (!data.failed_tests.every(isFailedTestRecord)) return 'a failed test entry is malformed';
  if (data.version !== 1 && !(isRecord(data.last_run) && typeof data.last_run.status === 'string')) return 'missing last_run';
  return data as unknown as LastFailures;
}

export function writeLastFailures(file: string, value: Omit<LastFailures, 'version' | 'created_at'> & { readonly last_run: LastRun }): void {
  return writeJsonAtomic(file, { version: LAST_FAILURES_VERSION, created_at: new Date().toISOString(), ...value });
}

/** Whether an empty list of failures means there is nothing to rerun: only after a run
 * that completed with results, passing or failing (elsewhere than the files a rerun is
 * narrowed to). After one that ended in error, timed out, was interrupted or ran no
 * tests, the failures are unknown. Version 1 files came only from runs with results. */
export const listIsSettled = (last: LastFailures): boolean =>
  last.last_run === undefined || last.last_run.status === 'passed' || last.last_run.status === 'failed';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isFailedTestRecord(value: unknown): value is FailedTestRecord {
  return isRecord(value) && typeof value.id === 'string' && typeof value.test_name === 'string'
    && (value.file === null || typeof value.file === 'string');
}
