import { execFile } from 'node:child_process';
import path from 'node:path';
import { dirPrint, fingerprint, relativeTo, type FileState, type GitState, type TreeState } from './tree-state.js';

/** How long one git command may take before the tree counts as unreadable. */
const GIT_TIMEOUT_MS = 10_000;
/** Fingerprints taken at most: beyond them, git's listing alone tells paths apart. */
const MAX_STATS = 5000;
/** Directories watched at most; a larger tree is listed whole again after the run. */
const MAX_DIRS = 5000;
/** Changed directories asked about one by one at most; beyond, the whole tree is. */
const MAX_CHANGED_DIRS = 100;

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

/** The first look, at the whole work tree (a sibling package edited is an input too):
 * every path git lists as changed or untracked, with its fingerprint, and the times of
 * the directories that hold tracked or listed files. Ignored paths and run-tests' own
 * `.run-tests/` are left out. Null when git cannot tell. */
export async function gitState(root: string, top: string, skip: ReadonlySet<string>): Promise<TreeState | null> {
  const [status, tracked] = await Promise.all([
    git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], top),
    git(['ls-files', '-z'], top),
  ]);
  if (status === null) return null;
  const { oid, entries } = parseStatus(status);
  const files = filesOf(root, top, entries, skip);
  const untracked = entries.filter((e) => e.line === '?').map((e) => e.file);
  const dirty = entries.some((e) => e.line !== '?' && files.has(relativeTo(root, top, e.file)));
  const dirs = tracked === null ? null : directories(top, [...tracked.split('\0'), ...untracked]);
  return { git: { revision: oid, dirty, top, untracked, dirs }, files };
}

/** The second look, after the run, cheaper than the first: git lists the tracked files
 * that differ from HEAD (its index makes that quick); untracked files are the ones seen
 * before, looked at again, and those git finds in the directories whose times moved, or
 * that changed since `sinceNs` (a file created in one just before the first look). */
export async function gitStateAgain(root: string, before: GitState, skip: ReadonlySet<string>, sinceNs: bigint): Promise<TreeState | null> {
  const { top, dirs } = before;
  if (dirs === null) return gitState(root, top, skip);
  const changed = [...dirs].filter(([dir, then]) => {
    const now = dirPrint(path.join(top, dir));
    return now.print !== then.print || (now.changedNs !== null && now.changedNs >= sinceNs);
  }).map(([dir]) => dir);
  const [status, fresh] = await Promise.all([
    git(['status', '--porcelain=v2', '-z', '--untracked-files=no'], top),
    changed.length === 0 ? '' : git(['ls-files', '-o', '--exclude-standard', '-z', '--', ...pathspecs(changed)], top),
  ]);
  if (status === null || fresh === null) return null;
  const untracked = new Set([...before.untracked, ...fresh.split('\0').filter((file) => file !== '')]);
  const entries = [...[...untracked].map((file) => ({ line: '?', file })), ...parseStatus(status).entries];
  return { git: { ...before, untracked: [...untracked] }, files: filesOf(root, top, entries, skip) };
}

const pathspecs = (dirs: readonly string[]): string[] =>
  dirs.length > MAX_CHANGED_DIRS || dirs.includes('') ? ['.'] : dirs.map((dir) => `:(literal)${dir}`);

function filesOf(root: string, top: string, entries: readonly StatusEntry[], skip: ReadonlySet<string>): Map<string, FileState> {
  const files = new Map<string, FileState>();
  for (const [index, { line, file }] of entries.entries()) {
    const relative = relativeTo(root, top, file);
    if (isOurs(relative) || skip.has(relative)) continue;
    const state = index < MAX_STATS ? fingerprint(path.join(top, file)) : { print: '', changedNs: null };
    files.set(relative, { print: `${line}\0${state.print}`, changedNs: state.changedNs });
  }
  return files;
}

/** The top and every directory above each file, with its times; null past MAX_DIRS. */
function directories(top: string, files: readonly string[]): Map<string, FileState> | null {
  const names = new Set(['']);
  for (const file of files) {
    for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
      const dir = file.slice(0, slash);
      if (names.has(dir)) break;
      names.add(dir);
    }
    if (names.size > MAX_DIRS) return null;
  }
  return new Map([...names].map((dir) => [dir, dirPrint(path.join(top, dir))]));
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
