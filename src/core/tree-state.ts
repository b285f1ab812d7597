import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What a project's files looked like at one moment, cheaply: enough to tell whether
 * they changed between two moments, not what they hold. Keys are paths relative to the
 * project root, `/`-separated. */
export interface TreeState {
  /** null without git (not a work tree, or git missing or failing). */
  readonly git: { readonly revision: string | null; readonly dirty: boolean; readonly top: string } | null;
  readonly files: ReadonlyMap<string, FileState>;
}

export interface FileState {
  /** git's entry and the file's size, times and inode ('missing' for a missing file). */
  readonly print: string;
  /** When the file last changed (its ctime, which no one can set back), in ns; null when
   * missing or not looked at. */
  readonly changedNs: bigint | null;
}

/** How long one git command may take before the tree counts as unreadable. */
const GIT_TIMEOUT_MS = 10_000;
/** Fingerprints taken at most: a tree with more dirty or untracked paths than this is
 * told apart by git's listing alone beyond them. */
const MAX_STATS = 5000;
/** Without git, the files watched at most (the first found, directory by directory). */
const MAX_WALKED = 2000;
/** Without git nothing tells sources from outputs: these directories hold outputs,
 * caches or installs, and are not walked (nor is any hidden one: .git, .run-tests, .venv). */
const NOT_WALKED = new Set(['node_modules', '__pycache__', 'target', 'tmp', 'log', 'coverage']);

/** git with its optional locks off: it runs beside the tests, and must never take the
 * index lock from a test (or an editor) that runs git itself. */
function git(args: readonly string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['--no-optional-locks', ...args], { cwd, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout) => resolve(error ? null : stdout));
  });
}

/** The work tree's top directory, or null when `root` is not in one (or git is missing). */
export async function gitTop(root: string): Promise<string | null> {
  const out = await git(['rev-parse', '--show-toplevel'], root);
  return out === null || out.trim() === '' ? null : path.resolve(out.trim());
}

/** The whole work tree (a sibling package edited is an input too), through git: every
 * path git lists as changed or untracked, with its fingerprint; ignored paths and
 * run-tests' own `.run-tests/` are left out. Null when git cannot tell. */
export async function gitState(root: string, top: string, skip: ReadonlySet<string>): Promise<TreeState | null> {
  const out = await git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], top);
  if (out === null) return null;
  const { oid, entries } = parseStatus(out);
  const files = new Map<string, FileState>();
  let dirty = false;
  for (const [index, { line, file }] of entries.entries()) {
    const relative = path.relative(root, path.join(top, file)).split(path.sep).join('/');
    if (isOurs(relative) || skip.has(relative)) continue;
    dirty ||= !line.startsWith('?');
    const state = index < MAX_STATS ? fingerprint(path.join(top, file)) : { print: '', changedNs: null };
    files.set(relative, { print: `${line}\0${state.print}`, changedNs: state.changedNs });
  }
  return { git: { revision: oid, dirty, top }, files };
}

/** `.run-tests/` (the log grows during the run), at the project root or, in a monorepo,
 * at a sibling project's. */
const isOurs = (relative: string): boolean => /(^|\/)\.run-tests(\/|$)/.test(relative);

interface StatusEntry {
  /** The entry without its path: its kind, XY, and modes and object names where given. */
  readonly line: string;
  /** Relative to the work tree's top. */
  readonly file: string;
}

/** `git status --porcelain=v2 --branch -z`: `# branch.oid <oid|(initial)>`, then
 * `1 XY sub mH mI mW hH hI path`, `2 … path` followed by the original path as a field
 * of its own, `u … path`, `? path`. */
export function parseStatus(out: string): { oid: string | null; entries: StatusEntry[] } {
  const fields = out.split('\0');
  let oid: string | null = null;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field.startsWith('# branch.oid ')) {
      const value = field.slice('# branch.oid '.length);
      oid = value === '(initial)' ? null : value;
      continue;
    }
    const kind = field[0];
    const pathAt = { '1': 8, '2': 9, u: 10, '?': 1 }[kind ?? ''];
    if (pathAt === undefined) continue;
    const parts = field.split(' ');
    entries.push({ line: parts.slice(0, pathAt).join(' '), file: parts.slice(pathAt).join(' ') });
    if (kind === '2') i += 1; // the rename's original path
  }
  return { oid, entries };
}

/** Size, modification and change times (to the nanosecond where the file system has
 * them) and inode: an edit that keeps the size still moves mtime or ctime. */
function fingerprint(file: string): FileState {
  try {
    const s = fs.lstatSync(file, { bigint: true });
    return { print: `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`, changedNs: s.ctimeNs };
  } catch {
    return { print: 'missing', changedNs: null };
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

/** The same files again, for comparing with `before`: without git, only the files seen
 * before are looked at (what the run created is not told apart from its outputs). */
export function restat(root: string, before: TreeState): TreeState {
  const files = new Map<string, FileState>();
  for (const relative of before.files.keys()) files.set(relative, fingerprint(path.join(root, relative)));
  return { git: null, files };
}

/** The paths whose fingerprint differs, that only one state lists, or that `after` saw
 * change since `sinceNs` (wall clock, ns): a change the runner made before `before` was
 * taken still counts. Sorted. */
export function changedPaths(before: TreeState, after: TreeState, sinceNs: bigint): string[] {
  const changed = new Set<string>();
  for (const [file, state] of before.files) if (after.files.get(file)?.print !== state.print) changed.add(file);
  for (const [file, state] of after.files) {
    if (!before.files.has(file) || (state.changedNs !== null && state.changedNs >= sinceNs)) changed.add(file);
  }
  return [...changed].sort();
}
