import fs from 'node:fs';
import { HarnessError } from '../core/errors.js';
import type { FailedTestRecord } from '../core/types.js';
import { writeJsonAtomic } from './atomic.js';

export const LAST_FAILURES_VERSION = 1;

export interface LastFailures {
  readonly version: number;
  readonly created_at: string;
  readonly framework: string;
  readonly project_root: string;
  readonly failed_tests: readonly FailedTestRecord[];
}

/** Reads last-failures.json. A missing file is `null` (no previous run); a file that
 * cannot be read as this version is a STORE_CORRUPT error, never an empty list. */
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
  if (data.version !== LAST_FAILURES_VERSION) throw corrupt(`version ${String(data.version)}, expected ${LAST_FAILURES_VERSION}`);
  if (typeof data.framework !== 'string' || !Array.isArray(data.failed_tests)) throw corrupt('missing framework or failed_tests');
  if (!data.failed_tests.every(isFailedTestRecord)) throw corrupt('a failed test entry is malformed');
  return data as unknown as LastFailures;
}

export function writeLastFailures(file: string, value: Omit<LastFailures, 'version' | 'created_at'>): void {
  return writeJsonAtomic(file, { version: LAST_FAILURES_VERSION, created_at: new Date().toISOString(), ...value });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFailedTestRecord(value: unknown): value is FailedTestRecord {
  return isRecord(value) && typeof value.id === 'string' && typeof value.test_name === 'string'
    && (value.file === null || typeof value.file === 'string');
}
