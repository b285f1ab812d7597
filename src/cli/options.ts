import fs from 'node:fs';
import path from 'node:path';
import type { NameFilter, TestLocation } from '../model/request.js';
import { usageError } from '../model/errors.js';

export const CONTROL = /[\u0000-\u001f\u007f]/;
/** A name also goes to runners' filters, where C1 controls (U+0085: a line break to some
 * regex engines) are as unwelcome as C0 ones. */
const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const NAME_LIMIT_BYTES = 200;
/** The longest a timer can wait (2^31-1 ms, about 24.8 days): longer fires at once.
 * src/process/options.ts checks the same limit on what reaches it. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Numbers as a person writes them: `90`, `1.5`, `.5`; not `0x10`, `1e3`, ` 5` or `Infinity`,
 * which Number() would take. */
const DECIMAL = /^(?:\d+|\d*\.\d+)$/;

/** `--name`: `/…/` is a regular expression, anything else a plain substring. */
export function parseName(value: string | undefined): NameFilter | null {
  if (value === undefined) return null;
  if (NAME_CONTROL.test(value)) throw usageError('--name must not contain control characters');
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

/** `--id`, repeatable: each must name something. An id is only ever looked up among the
 * recorded tests (src/core/ids.ts), so it never reaches a runner as an option or a shell. */
export function parseIds(values: readonly string[]): string[] {
  if (values.includes('')) throw usageError('--id needs a test id, got ""');
  return [...new Set(values)];
}

/** `--timeout`, `--kill-grace`: decimal seconds, returned as milliseconds a timer can hold. */
export function parseSeconds(option: string, value: string, { allowZero }: { allowZero: boolean }): number {
  const kind = allowZero ? 'non-negative' : 'positive';
  if (!DECIMAL.test(value)) throw usageError(`${option} must be a ${kind} number of seconds, got ${JSON.stringify(value)}; write a decimal such as 90 or 1.5`);
  const ms = Math.round(Number(value) * 1000);
  if (ms > MAX_TIMER_MS) {
    throw usageError(`${option} must be at most ${MAX_TIMER_MS / 1000} seconds (about 24.8 days, the longest a timer can wait), got ${value}`);
  }
  if (!allowZero && ms === 0) throw usageError(`${option} must be a positive number of seconds, got ${JSON.stringify(value)}${Number(value) > 0 ? '; the least is 0.001' : ''}`);
  return ms;
}

/** A whole number in decimal digits, from min to max (by default 0 to the largest exact
 * integer): `--min-tests`, and any other count option. */
export function parseCount(option: string, value: string, { min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}): number {
  if (!/^\d+$/.test(value)) throw usageError(`${option} must be a whole number, got ${JSON.stringify(value)}`);
  const count = Number(value);
  if (!(count >= min && count <= max)) throw usageError(`${option} must be a whole number from ${min} to ${max}, got ${value}`);
  return count;
}

/** `--max-failures`: how many failures the report lists; `0` means no cap. */
export function parseMaxFailures(value: string): number | null {
  const max = parseCount('--max-failures', value);
  return max === 0 ? null : max;
}

/** `--keep-runs`, `--keep-history`: at least 1, since the run that prunes is always kept. */
export function parseKeepRuns(value: string, option = '--keep-runs'): number {
  const keep = parseCount(option, value);
  if (keep < 1) throw usageError(`${option} must be at least 1 (the run itself is kept), got ${JSON.stringify(value)}`);
  return keep;
}

/** More projects at once than any machine has CPUs for is a typing mistake. */
const MAX_JOBS = 1024;

/** --jobs and --all-projects as a request holds them. --all-projects finds the projects
 * itself: files, `file:line` and --command are refused beside it. */
export function projectsRequest(cwd: string, options: { jobs?: string; allProjects?: boolean }, operands: { files: readonly string[]; locations: readonly TestLocation[] }, command: boolean): { jobs?: number; allProjects: boolean } {
  const allProjects = options.allProjects === true;
  if (allProjects && (operands.files.length > 0 || operands.locations.length > 0 || command)) {
    throw usageError(`--all-projects runs every project below ${cwd}; it cannot be combined with ${command ? '--command' : "files: give the projects' directories as files instead"}`);
  }
  return { ...(options.jobs === undefined ? {} : { jobs: parseCount('--jobs', options.jobs, { min: 1, max: MAX_JOBS }) }), allProjects };
}

const SIZE_UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `--max-log`: bytes, or K/M/G (binary units); `0` means no cap. */
export function parseSize(option: string, value: string): number | null {
  const match = /^(\d+)([KMG]?)$/i.exec(value);
  const bytes = match ? Number(match[1]) * (SIZE_UNITS[match[2]!.toUpperCase()] ?? 1) : NaN;
  if (!Number.isSafeInteger(bytes)) throw usageError(`${option} must be a whole number of bytes, optionally with K, M or G (0 for no cap), got ${JSON.stringify(value)}`);
  return bytes === 0 ? null : bytes;
}

export function resolveCwd(value: string | undefined): string {
  // path.resolve('') is the current directory: an empty value (an unset variable) is a mistake.
  if (value === '') throw usageError('--cwd needs a directory, got ""');
  const cwd = path.resolve(value ?? process.cwd());
  if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`--cwd ${JSON.stringify(value)} is not a directory`);
  return fs.realpathSync(cwd);
}

/** Positional files and `--file a,b`, each checked to exist inside cwd; returns absolute paths. */
export function resolveFiles(cwd: string, positional: readonly string[], fileOption: string | undefined): string[] {
  return [...new Set(operandsGiven(positional, fileOption).map((file) => resolveFile(cwd, file)))];
}

function operandsGiven(positional: readonly string[], fileOption: string | undefined): string[] {
  const listed = (fileOption ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '');
  if (fileOption !== undefined && listed.length === 0) throw usageError(`--file needs at least one file, got ${JSON.stringify(fileOption)}`);
  return [...positional, ...listed];
}

/** The longest line number taken: more than any source file has. */
const MAX_LINE = 10_000_000;

/** Positional operands and `--file a,b`: files and directories, or, where no such path
 * exists, `file:line` and pytest's `file::node` of an existing file (the file checked as
 * any other). Returns absolute files and the locations; a path that exists is always a file. */
export function resolveOperands(cwd: string, positional: readonly string[], fileOption: string | undefined): { files: string[]; locations: TestLocation[] } {
  const files: string[] = [];
  const locations: TestLocation[] = [];
  for (const operand of operandsGiven(positional, fileOption)) {
    const location = operand === '' || CONTROL.test(operand) ? null : locationOf(cwd, operand);
    if (location === null) files.push(resolveFile(cwd, operand));
    else if (!locations.some((l) => l.file === location.file && JSON.stringify(l.at) === JSON.stringify(location.at))) locations.push(location);
  }
  return { files: [...new Set(files)], locations };
}

/** `file:line` or `file::node` when the operand is no existing path but its file part is
 * a regular file; null otherwise (the operand is then checked as a path). */
function locationOf(cwd: string, operand: string): TestLocation | null {
  if (fs.existsSync(path.resolve(cwd, operand))) return null;
  const isFile = (part: string): boolean => part !== '' && fs.statSync(path.resolve(cwd, part), { throwIfNoEntry: false })?.isFile() === true;
  const pair = operand.indexOf('::');
  if (pair > 0 && isFile(operand.slice(0, pair))) {
    const node = operand.slice(pair + 2);
    if (node === '') throw usageError(`${JSON.stringify(operand)}: name a test after "::" (pytest's node id, file::test or file::Class::test)`);
    return { file: resolveFile(cwd, operand.slice(0, pair)), at: { node }, operand };
  }
  const colon = operand.lastIndexOf(':');
  if (colon <= 0 || !isFile(operand.slice(0, colon))) return null;
  const line = operand.slice(colon + 1);
  if (!/^\d+$/.test(line) || Number(line) < 1 || Number(line) > MAX_LINE) {
    throw usageError(`${JSON.stringify(operand)}: the line after ":" must be a whole number from 1 to ${MAX_LINE}, got ${JSON.stringify(line)}`);
  }
  return { file: resolveFile(cwd, operand.slice(0, colon)), at: { line: Number(line) }, operand };
}

/** A file to read, anywhere (a report another tool wrote): must exist and be a regular
 * file. Only stat is used: opening a named pipe to look at it would wait for a writer. */
export function resolveExistingFile(cwd: string, file: string): string {
  if (file === '') throw usageError('the report file is an empty string; name a file');
  if (CONTROL.test(file)) throw usageError(`file ${JSON.stringify(file)} contains control characters`);
  const absolute = path.resolve(cwd, file);
  const stats = fs.statSync(absolute, { throwIfNoEntry: false });
  if (stats === undefined) throw usageError(`file ${JSON.stringify(file)} does not exist (in ${cwd})`);
  if (!stats.isFile()) throw usageError(`${JSON.stringify(file)} is ${kindOf(stats)}, not a report file (in ${cwd}); give a regular file`);
  return absolute;
}

export function kindOf(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'of an unknown kind';
}

function resolveFile(cwd: string, file: string): string {
  // path.resolve would make '' the whole directory: an empty operand (an unset variable) is a mistake.
  if (file === '') throw usageError('a file operand is an empty string; name a file or directory (. for all of it)');
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
