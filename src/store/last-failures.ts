import fs from 'node:fs';
import { HarnessError } from '../core/errors.js';
import type { FailedTestRecord, RunStatus } from '../core/types.js';
import { writeJsonAtomic } from './atomic.js';

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
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const corrupt = (why: string) =>
    new HarnessError('STORE_CORRUPT', `${file} is unusable (${why}); delete it and run the full suite`, { path: file });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw corrupt('not valid JSON');
  }
  if (!isRecord(data)) throw corrupt('not an object');
  if (!READABLE_VERSIONS.includes(data.version)) throw corrupt(`version ${String(data.version)}, expected ${LAST_FAILURES_VERSION}`);
  if (typeof data.framework !== 'string' || !Array.isArray(data.failed_tests)) throw corrupt('missing framework or failed_tests');
  if (!data.failed_tests.every(isFailedTestRecord)) throw corrupt('a failed test entry is malformed');
  if (data.version !== 1 && !(isRecord(data.last_run) && typeof data.last_run.status === 'string')) throw corrupt('missing last_run');
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

function isFailedTestRecord(value: unknown): value is FailedTestRecord {
  return isRecord(value) && typeof value.id === 'string' && typeof value.test_name === 'string'
    && (value.file === null || typeof value.file === 'string');
}
