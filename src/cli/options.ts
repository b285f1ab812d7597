import fs from 'node:fs';
import path from 'node:path';
import type { NameFilter } from '../adapters/types.js';
import { usageError } from '../core/errors.js';

const CONTROL = /[\u0000-\u001f\u007f]/;
const NAME_LIMIT_BYTES = 200;

/** `--name`: `/…/` is a regular expression, anything else a plain substring. */
export function parseName(value: string | undefined): NameFilter | null {
  if (value === undefined) return null;
  if (CONTROL.test(value)) throw usageError('--name must not contain control characters');
  if (Buffer.byteLength(value) > NAME_LIMIT_BYTES) throw usageError(`--name is longer than ${NAME_LIMIT_BYTES} bytes`);
  if (value === '') throw usageError('--name must not be empty');
  const regex = value.length > 2 && value.startsWith('/') && value.endsWith('/');
  if (!regex) return { text: value, regex: false };
  const text = value.slice(1, -1);
  // Runners' dialects differ in details; an unbalanced group or class is wrong in all of them.
  try {
    new RegExp(text);
  } catch (error) {
    throw usageError(`--name ${value} is not a valid regular expression: ${(error as Error).message}`);
  }
  return { text, regex: true };
}

export function parseSeconds(option: string, value: string, { allowZero }: { allowZero: boolean }): number {
  const seconds = Number(value);
  const valid = value.trim() !== '' && Number.isFinite(seconds) && (allowZero ? seconds >= 0 : seconds > 0);
  if (!valid) throw usageError(`${option} must be a ${allowZero ? 'non-negative' : 'positive'} number of seconds, got ${JSON.stringify(value)}`);
  return Math.round(seconds * 1000);
}

export function parseCount(option: string, value: string): number {
  if (!/^\d+$/.test(value)) throw usageError(`${option} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** `--keep-runs`: at least 1, since the run that prunes is always kept. */
export function parseKeepRuns(value: string): number {
  const keep = parseCount('--keep-runs', value);
  if (keep < 1) throw usageError(`--keep-runs must be at least 1 (the run itself is kept), got ${JSON.stringify(value)}`);
  return keep;
}

const SIZE_UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `--max-log`: bytes, or K/M/G (binary units); `0` means no cap. */
export function parseSize(option: string, value: string): number | null {
  const match = /^(\d+)([KMG]?)$/i.exec(value.trim());
  const bytes = match ? Number(match[1]) * (SIZE_UNITS[match[2]!.toUpperCase()] ?? 1) : NaN;
  if (!Number.isSafeInteger(bytes)) throw usageError(`${option} must be a whole number of bytes, optionally with K, M or G (0 for no cap), got ${JSON.stringify(value)}`);
  return bytes === 0 ? null : bytes;
}

export function resolveCwd(value: string | undefined): string {
  const cwd = path.resolve(value ?? process.cwd());
  if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`--cwd ${JSON.stringify(value)} is not a directory`);
  return fs.realpathSync(cwd);
}

/** Positional files and `--file a,b`, each checked to exist inside cwd; returns absolute paths. */
export function resolveFiles(cwd: string, positional: readonly string[], fileOption: string | undefined): string[] {
  const given = [...positional, ...(fileOption ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '')];
  return [...new Set(given.map((file) => resolveFile(cwd, file)))];
}

/** A file to read, anywhere (a report another tool wrote): must exist and be a regular
 * file. Only stat is used: opening a named pipe to look at it would wait for a writer. */
export function resolveExistingFile(cwd: string, file: string): string {
  if (CONTROL.test(file)) throw usageError(`file ${JSON.stringify(file)} contains control characters`);
  const absolute = path.resolve(cwd, file);
  const stats = fs.statSync(absolute, { throwIfNoEntry: false });
  if (stats === undefined) throw usageError(`file ${JSON.stringify(file)} does not exist (in ${cwd})`);
  if (!stats.isFile()) throw usageError(`${JSON.stringify(file)} is ${kindOf(stats)}, not a report file (in ${cwd}); give a regular file`);
  return absolute;
}

function kindOf(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'of an unknown kind';
}

/** A file to write (--junit): its directory must exist. */
export function resolveOutputPath(cwd: string, option: string, file: string): string {
  if (CONTROL.test(file) || file === '') throw usageError(`${option} needs a file path, got ${JSON.stringify(file)}`);
  const absolute = path.resolve(cwd, file);
  if (!fs.statSync(path.dirname(absolute), { throwIfNoEntry: false })?.isDirectory()) {
    throw usageError(`${option} ${JSON.stringify(file)}: directory ${path.dirname(absolute)} does not exist`);
  }
  return absolute;
}

function resolveFile(cwd: string, file: string): string {
  if (CONTROL.test(file)) throw usageError(`file ${JSON.stringify(file)} contains control characters`);
  const absolute = path.resolve(cwd, file);
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    throw usageError(`file ${JSON.stringify(file)} does not exist (in ${cwd})`);
  }
  const relative = path.relative(cwd, real);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw usageError(`file ${JSON.stringify(file)} lies outside ${cwd}`);
  return real;
}
