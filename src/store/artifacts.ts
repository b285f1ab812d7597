import fs from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../model/errors.js';
import { removeFile } from './atomic.js';
import { RUN_LOG, RUN_REPORT, runDir } from './runs.js';

export const ARTIFACTS_DIR = '.run-tests';

/** Where one run's files live (`.run-tests/runs/<id>/`), and the project's files that
 * every run shares. Nothing a run reads was written by another run. */
export interface ArtifactPaths {
  readonly dir: string;
  readonly runId: string;
  readonly runDir: string;
  /** This run's log. */
  readonly log: string;
  /** This run's final report. */
  readonly report: string;
  /** A copy of the latest completed run's log and report, for tools that read them after the fact. */
  readonly lastLog: string;
  readonly lastReport: string;
  readonly lastFailures: string;
  /** Held while a run updates the shared files above. */
  readonly lock: string;
  /** A file name inside this run's directory, for runner reports. */
  file(name: string): string;
}

/** What `run-tests detect` shows in place of a run id: it plans a run, it starts none. */
export const PLACEHOLDER_RUN_ID = '<id>';

export function artifactPaths(projectRoot: string, runId: string): ArtifactPaths {
  const dir = path.join(projectRoot, ARTIFACTS_DIR);
  const run = runDir(dir, runId);
  return {
    dir,
    runId,
    runDir: run,
    log: path.join(run, RUN_LOG),
    report: path.join(run, RUN_REPORT),
    lastLog: path.join(dir, 'last-test.log'),
    lastReport: path.join(dir, 'last-report.json'),
    lastFailures: path.join(dir, 'last-failures.json'),
    lock: path.join(dir, 'lock'),
    file: (name) => path.join(run, name),
  };
}

const unusable = (dir: string, why: string): HarnessError =>
  new HarnessError('STORE_UNUSABLE', `${dir} ${why}`, { path: dir });
const OWN = "it must be a directory of run-tests' own, where its log and reports go";

/** Refuses a `.run-tests` (or a directory in it) that is a link or not a directory, before
 * anything is read from it: through a link, every write would land where the link
 * points. A missing one is fine (it is created when a runner starts). */
export function checkArtifactsDir(dir: string): void {
  const stats = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stats === undefined || stats.isDirectory()) return;
  throw unusable(dir, `is ${stats.isSymbolicLink() ? `a symbolic link (to ${fs.readlinkSync(dir)})` : 'not a directory'}; ${OWN}: remove it and run again`);
}

/** Creates the directory (refusing a link or a non-directory there) and checks that it
 * can be written to, so a read-only one fails before the runner starts rather than
 * after it. Used for `.run-tests` and for directories inside it. */
export function ensureDir(dir: string): void {
  if (fs.lstatSync(dir, { throwIfNoEntry: false }) === undefined) {
    try {
      fs.mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw unusable(dir, `cannot be created (${code ?? (error as Error).message}); ${OWN}`);
    }
  }
  checkArtifactsDir(dir);
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    throw unusable(dir, `is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ${OWN}: make it writable or remove it`);
  }
}

/** Creates the directory with a `.gitignore` of `*`, so it never shows up in git status.
 * Synchronous: it stands between the user and the runner's start. */
export function ensureArtifactsDir(paths: ArtifactPaths): void {
  ensureDir(paths.dir);
  const gitignore = path.join(paths.dir, '.gitignore');
  try {
    // Exclusive: create it once, leave a .gitignore the user edited alone, and never follow a link.
    const fd = fs.openSync(gitignore, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o666);
    fs.writeSync(fd, '*\n');
    fs.closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unusable(paths.dir, `cannot hold ${gitignore} (${(error as Error).message})`);
  }
}

/** Removes what stands where a file of this run will be written, so that neither run-tests
 * nor a runner's reporter (which opens its report for appending) ever writes through a
 * link or into a file with another name elsewhere. Returns what to tell the user: a
 * link or a hard link found there was not one of ours. A directory there is refused. */
export function clearArtifacts(files: readonly string[]): string[] {
  const said: string[] = [];
  for (const file of files) {
    const stats = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isDirectory()) throw unusable(file, 'is a directory where run-tests writes a file: remove it and run again');
    const why = foreignKind(file, stats);
    try {
      removeFile(file);
    } catch (error) {
      throw unusable(file, `cannot be replaced (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (why !== null) said.push(`${file} was ${why}; run-tests removed it rather than write through it (what it pointed at is unchanged)`);
  }
  return said;
}

/** For files written by rename (writeFileAtomic), which replaces a link rather than
 * follow it: what to tell the user about a link found where one goes. */
export function foreignLinks(files: readonly string[], { hardLinked = false } = {}): string[] {
  return files.flatMap((file) => {
    const stats = fs.lstatSync(file, { throwIfNoEntry: false });
    const why = stats === undefined || stats.isDirectory() ? null : foreignKind(file, stats, hardLinked);
    return why === null ? [] : [`${file} was ${why}; run-tests replaces it with its own file (what it pointed at is unchanged)`];
  });
}

/** `hardLinked`: the file is a hard link of ours by design (last-test.log, to the run's log). */
function foreignKind(file: string, stats: fs.Stats, hardLinked = false): string | null {
  if (stats.isSymbolicLink()) return `a symbolic link (to ${fs.readlinkSync(file)})`;
  if (!stats.isFile()) return 'not a regular file';
  return stats.nlink > 1 && !hardLinked ? 'a hard link to a file with another name' : null;
}
