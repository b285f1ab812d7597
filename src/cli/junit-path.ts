import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../model/errors.js';
import { ARTIFACTS_DIR } from '../store/artifacts.js';
import { CONTROL, kindOf } from './options.js';

/** `--junit <path>`, checked before anything runs (exit 2), so that a run never ends in
 * a write that cannot or must not happen. The XML is written by rename (atomically, and
 * never through a link), so only a regular file or nothing may stand at the path.
 * `inputs`: files the command reads (the file being parsed, a --command's report). */
export function resolveJunitPath(cwd: string, file: string, inputs: readonly string[] = []): string {
  const shown = `--junit ${JSON.stringify(file)}`;
  if (CONTROL.test(file) || file === '') throw usageError(`--junit needs a file path, got ${JSON.stringify(file)}`);
  const absolute = path.resolve(cwd, file);
  const dir = path.dirname(absolute);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`${shown}: directory ${dir} does not exist`);
  const target = path.join(fs.realpathSync(dir), path.basename(absolute));
  // Both spellings: a `.run-tests` that is a link resolves elsewhere, and the run refuses it only later.
  if ([absolute, target].some((p) => p.split(path.sep).includes(ARTIFACTS_DIR))) {
    throw usageError(`${shown}: ${target} is run-tests' own (${ARTIFACTS_DIR}/ holds its log, reports and failures list); write the XML elsewhere`);
  }
  const stats = fs.lstatSync(target, { throwIfNoEntry: false });
  if (stats?.isSymbolicLink()) throw usageError(`${shown}: ${target} is a symbolic link; run-tests does not replace or write through links: give the path it points at`);
  if (stats !== undefined && !stats.isFile()) throw usageError(`${shown}: ${target} is ${kindOf(stats)}; the XML goes into a regular file`);
  if (inputs.some((input) => resolved(input) === target || (stats !== undefined && sameFile(stats, input)))) {
    throw usageError(`${shown}: ${target} is the file this command reads; write the XML elsewhere`);
  }
  try {
    fs.accessSync(path.dirname(target), fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    throw usageError(`${shown}: directory ${path.dirname(target)} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return target;
}

/** The path with its directory's links resolved, as `target` is. */
function resolved(file: string): string {
  try {
    return path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}

/** Another name of the same file (a hard link, a link to it). */
function sameFile(stats: fs.Stats, file: string): boolean {
  const other = fs.statSync(file, { throwIfNoEntry: false });
  return other !== undefined && other.dev === stats.dev && other.ino === stats.ino;
}
