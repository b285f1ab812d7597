import fs from 'node:fs';
import path from 'node:path';

/** What a project's files looked like at one moment, cheaply: enough to tell whether
 * they changed between two moments, not what they hold. Keys are paths relative to the
 * project root, `/`-separated. */
export interface TreeState {
  /** null without git (not a work tree, or git missing or failing). */
  readonly git: GitState | null;
  readonly files: ReadonlyMap<string, FileState>;
}

export interface GitState {
  readonly revision: string | null;
  readonly dirty: boolean;
  /** The work tree's top directory. */
  readonly top: string;
  /** git's index file, and its fingerprint: a `git add` during the run changes it. */
  readonly index: string;
  readonly indexPrint: FileState;
  /** What git listed as differing from HEAD (paths relative to top). */
  readonly changes: readonly StatusEntry[];
  /** Untracked files, relative to top: their edits move no directory's times. */
  readonly untracked: readonly string[];
  /** Every tracked file, relative to top, with its fingerprint; null in a tree too large. */
  readonly tracked: ReadonlyMap<string, FileState> | null;
  /** Every directory holding a tracked or untracked file ('' for top), with its times:
   * a file created or removed moves them. null with `tracked`. */
  readonly dirs: ReadonlyMap<string, FileState> | null;
}

export interface StatusEntry {
  /** The entry without its path: its kind, XY, and modes and object names where given. */
  readonly line: string;
  /** Relative to the work tree's top. */
  readonly file: string;
}

export interface FileState {
  /** git's entry and the file's size, times and inode ('missing' for a missing file). */
  readonly print: string;
  /** When the file last changed (its ctime, which no one can set back), in ms; null when
   * missing or not looked at. */
  readonly changedMs: number | null;
}

/** Without git, the files watched at most (the first found, directory by directory). */
const MAX_WALKED = 2000;
/** Without git nothing tells sources from outputs: these directories hold outputs,
 * caches or installs, and are not walked (nor is any hidden one: .git, .run-tests, .venv). */
const NOT_WALKED = new Set(['node_modules', '__pycache__', 'target', 'tmp', 'log', 'coverage']);

/** Size, modification and change times (to a fraction of a µs) and inode: an edit that
 * keeps the size still moves mtime or ctime. */
export function fingerprint(file: string): FileState {
  const s = lstat(file);
  return s ? { print: `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`, changedMs: s.ctimeMs } : MISSING;
}

const MISSING: FileState = { print: 'missing', changedMs: null };

/** Not { bigint: true }: a third slower, for precision a double of ms already has. */
function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES: gone as far as run-tests can tell
  }
}

/** Without git: the project's files (hidden directories and NOT_WALKED left out, at
 * most MAX_WALKED), each with its fingerprint. Asynchronous: it runs while the runner starts. */
export async function walkState(root: string, skip: ReadonlySet<string>): Promise<TreeState> {
  const files = new Map<string, FileState>();
  const queue = [''];
  for (let dir = queue.shift(); dir !== undefined && files.size < MAX_WALKED; dir = queue.shift()) {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory() && !entry.name.startsWith('.') && !NOT_WALKED.has(entry.name)) queue.push(relative);
      else if (entry.isFile() && !skip.has(relative) && files.size < MAX_WALKED) files.set(relative, fingerprint(path.join(root, relative)));
    }
  }
  return { git: null, files };
}

/** A directory's times and inode: what a file created or removed in it moves. */
export function dirPrint(dir: string): FileState {
  const s = lstat(dir);
  return s ? { print: `${s.mtimeMs}:${s.ctimeMs}:${s.ino}`, changedMs: s.ctimeMs } : MISSING;
}

/** `file` (under `top`) relative to the project root, `/`-separated. */
export const relativeTo = (root: string, top: string, file: string): string =>
  path.relative(root, path.join(top, file)).split(path.sep).join('/');

/** The same files again, for comparing with `before`: without git, only the files seen
 * before are looked at (what the run created is not told apart from its outputs). */
export function restat(root: string, before: TreeState): TreeState {
  const files = new Map<string, FileState>();
  for (const relative of before.files.keys()) files.set(relative, fingerprint(path.join(root, relative)));
  return { git: null, files };
}

/** The paths whose fingerprint differs, that only one state lists, or that `after` saw
 * change since `sinceMs` (wall clock, ms): a change the runner made before `before` was
 * taken still counts. Sorted. Without git nothing tells the project's files from what
 * the runner writes (cargo's Cargo.lock): a file that had changed since the runner
 * started when it was first seen is taken for the runner's output, and not counted. */
export function changedPaths(before: TreeState, after: TreeState, sinceMs: number): string[] {
  const changed = new Set<string>();
  const since = (state: FileState) => state.changedMs !== null && state.changedMs >= sinceMs;
  if (before.git === null) {
    for (const [file, state] of before.files) if (!since(state) && after.files.get(file)?.print !== state.print) changed.add(file);
    return [...changed].sort();
  }
  for (const [file, state] of before.files) if (after.files.get(file)?.print !== state.print) changed.add(file);
  for (const [file, state] of after.files) {
    if (!before.files.has(file) || since(state)) changed.add(file);
  }
  return [...changed].sort();
}
