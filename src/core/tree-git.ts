import { execFile } from 'node:child_process';
import path from 'node:path';
import { dirPrint, fingerprint, relativeTo, type FileState, type GitState, type StatusEntry, type TreeState } from './tree-state.js';

/** How long one git command may take before the tree counts as unreadable. */
const GIT_TIMEOUT_MS = 10_000;
/** Fingerprints taken at most: beyond them, git's listing alone tells paths apart. */
const MAX_STATS = 5000;
/** Tracked files watched by their stats at most. After the run, in a process that has
 * not stat'ed before, each costs ~8 µs of the main thread between the runner's end and
 * the report; a larger tree is listed again by git, in a process of its own that runs
 * while the results are read. */
export const MAX_WATCHED = 300;
/** Paths asked about one by one at most; beyond, the whole tree is. */
const MAX_ASKED = 100;

/** git with its optional locks off: it runs beside the tests, and must never take the
 * index lock from a test (or an editor) that runs git itself. */
function git(args: readonly string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['--no-optional-locks', ...args], { cwd, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout) => resolve(error ? null : stdout));
  });
}

/** The work tree's top directory and its index file, or null when `root` is not in a
 * work tree (or git is missing). */
export async function gitTop(root: string): Promise<{ top: string; index: string } | null> {
  const [top, index] = (await git(['rev-parse', '--show-toplevel', '--git-path', 'index'], root))?.split('\n') ?? [];
  return top && index ? { top: path.resolve(top), index: path.resolve(root, index) } : null;
}

/** The first look, at the whole work tree (a sibling package edited is an input too):
 * every path git lists as changed or untracked, with its fingerprint; ignored paths and
 * run-tests' own `.run-tests/` are left out. Then, for a cheap second look in a tree of
 * at most MAX_WATCHED tracked files, the fingerprints of every tracked file, of the
 * directories holding them or untracked files, and of git's index. Null when git cannot tell. */
export async function gitState(root: string, where: { top: string; index: string }, skip: ReadonlySet<string>): Promise<TreeState | null> {
  const { top, index } = where;
  const [listing, listed] = await Promise.all([gitListing(root, top, skip), git(['ls-files', '-z'], top)]);
  if (listing === null) return null;
  const { oid, entries, files } = listing;
  const untracked = entries.filter((e) => e.line === '?').map((e) => e.file);
  const changes = entries.filter((e) => e.line !== '?');
  const dirty = changes.some((e) => files.has(relativeTo(root, top, e.file)));
  const tracked = listed === null ? [] : listed.split('\0').filter((file) => file !== '');
  const watched = listed !== null && tracked.length <= MAX_WATCHED;
  return {
    git: {
      revision: oid, dirty, top, index, untracked, changes,
      indexPrint: fingerprint(index),
      tracked: watched ? printsOf(top, tracked, fingerprint) : null,
      dirs: watched ? printsOf(top, directories([...tracked, ...untracked]), dirPrint) : null,
    },
    files,
  };
}

/** The second look, after the run, at what may have changed since the first: tracked
 * files whose fingerprint moved, or that changed since `sinceMs` (an edit between git's
 * look and ours), asked about by name (all of them when git's index changed); untracked
 * files seen before, looked at again; and those git finds in the directories whose
 * fingerprint moved. Nothing changed, no git process. In a larger tree, git's listing again. */
export async function gitStateAgain(root: string, before: GitState, skip: ReadonlySet<string>, sinceMs: number): Promise<TreeState | null> {
  const { top, tracked, dirs } = before;
  if (tracked === null || dirs === null) {
    const listing = await gitListing(root, top, skip);
    return listing && { git: before, files: listing.files };
  }
  const suspects = moved(tracked, top, fingerprint, sinceMs);
  const index = fingerprint(before.index);
  const whole = index.print !== before.indexPrint.print || (index.changedMs !== null && index.changedMs >= sinceMs);
  const changedDirs = moved(dirs, top, dirPrint, sinceMs);
  const [status, fresh] = await Promise.all([
    whole || suspects.length > 0 ? git(['status', '--porcelain=v2', '-z', '--untracked-files=no', '--', ...pathspecs(whole ? [''] : suspects)], top) : '',
    changedDirs.length > 0 ? git(['ls-files', '-o', '--exclude-standard', '-z', '--', ...pathspecs(changedDirs)], top) : '',
  ]);
  if (status === null || fresh === null) return null;
  const asked = whole ? null : new Set(suspects);
  // What git was not asked about is as it was: the same entries, and no others.
  const kept = asked === null ? [] : before.changes.filter((e) => !asked.has(e.file));
  const untracked = new Set([...before.untracked, ...fresh.split('\0').filter((file) => file !== '')]);
  const entries = [...[...untracked].map((file) => ({ line: '?', file })), ...kept, ...parseStatus(status).entries];
  return { git: { ...before, untracked: [...untracked] }, files: filesOf(root, top, entries, skip) };
}

/** Every path git lists as changed or untracked, with its fingerprint. */
async function gitListing(root: string, top: string, skip: ReadonlySet<string>): Promise<{ oid: string | null; entries: StatusEntry[]; files: Map<string, FileState> } | null> {
  const out = await git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], top);
  if (out === null) return null;
  const { oid, entries } = parseStatus(out);
  return { oid, entries, files: filesOf(root, top, entries, skip) };
}

function printsOf(top: string, names: Iterable<string>, print: (file: string) => FileState): Map<string, FileState> {
  return new Map([...names].map((name) => [name, print(path.join(top, name))]));
}

/** The names whose fingerprint moved, or that changed since `sinceMs`. */
function moved(prints: ReadonlyMap<string, FileState>, top: string, print: (file: string) => FileState, sinceMs: number): string[] {
  const names: string[] = [];
  for (const [name, then] of prints) {
    const now = print(path.join(top, name));
    if (now.print !== then.print || (now.changedMs !== null && now.changedMs >= sinceMs)) names.push(name);
  }
  return names;
}

const pathspecs = (names: readonly string[]): string[] =>
  names.length > MAX_ASKED || names.includes('') ? ['.'] : names.map((name) => `:(literal)${name}`);

function filesOf(root: string, top: string, entries: readonly StatusEntry[], skip: ReadonlySet<string>): Map<string, FileState> {
  const files = new Map<string, FileState>();
  for (const [index, { line, file }] of entries.entries()) {
    const relative = relativeTo(root, top, file);
    if (isOurs(relative) || skip.has(relative)) continue;
    const state = index < MAX_STATS ? fingerprint(path.join(top, file)) : { print: '', changedMs: null };
    files.set(relative, { print: `${line}\0${state.print}`, changedMs: state.changedMs });
  }
  return files;
}

/** The top and every directory above each file. */
function directories(files: readonly string[]): Set<string> {
  const names = new Set(['']);
  for (const file of files) {
    for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
      const dir = file.slice(0, slash);
      if (names.has(dir)) break;
      names.add(dir);
    }
  }
  return names;
}

/** `.run-tests/` (the log grows during the run), at the project root or, in a monorepo,
 * at a sibling project's. */
const isOurs = (relative: string): boolean => /(^|\/)\.run-tests(\/|$)/.test(relative);

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
