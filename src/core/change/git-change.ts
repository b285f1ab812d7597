import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../../model/errors.js';
import type { Change, ChangedFile } from '../../model/request.js';

export type { Change };

/** How long one git command may take. */
const GIT_TIMEOUT_MS = 30_000;

interface GitResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** git without its optional locks (it may run beside an editor's git), never through a shell. */
function git(args: readonly string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', ['--no-optional-locks', ...args], { cwd, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => resolve({ ok: error === null, stdout, stderr }));
  });
}

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';

/** The change in `cwd`'s work tree: the working tree and the index against HEAD (untracked
 * files that git does not ignore are added), or, given `ref`, everything since the merge
 * base of `ref` and HEAD, uncommitted changes included (`git diff <ref>...` and the
 * working tree). `.run-tests/` is never part of a change. A usage error (exit 2) when
 * `cwd` is in no work tree, `ref` names no commit, or no merge base is found. */
export async function readChange(cwd: string, ref: string | null): Promise<Change> {
  const topOut = await git(['rev-parse', '--show-toplevel'], cwd);
  if (!topOut.ok) throw usageError(`--changed: ${cwd} is not in a git work tree, so there is no change to read (${firstLine(topOut.stderr) || 'git failed'})`);
  const top = path.resolve(topOut.stdout.trim());
  const headOut = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], top);
  const head = headOut.ok ? headOut.stdout.trim() : null;
  const base = ref === null ? head : await mergeBase(top, ref, head, cwd);
  const [diff, untracked] = await Promise.all([
    base === null ? git(['ls-files', '-z', '--cached'], top) : git(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', base, '--'], top),
    git(['ls-files', '-z', '--others', '--exclude-standard'], top),
  ]);
  if (!diff.ok || !untracked.ok) throw usageError(`--changed: git could not list the change in ${top}: ${firstLine(diff.stderr || untracked.stderr)}`);
  const files = new Map<string, ChangedFile['change']>();
  if (base === null) for (const file of zeroSplit(diff.stdout)) files.set(file, 'added');
  else for (const [status, file] of nameStatus(diff.stdout)) files.set(file, status);
  for (const file of zeroSplit(untracked.stdout)) files.set(file, 'added');
  const changed = [...files].filter(([file]) => !file.split('/').includes('.run-tests'))
    .map(([file, change]) => ({ path: file, change })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { top, base, head, ref, files: changed, tree: digest(top, base, changed) };
}

/** The files saved since the last run of `run-tests --watch`, as a change: relative to
 * the file system's root (they may lie in several projects), measured from HEAD where
 * `cwd` is in a work tree. */
export async function savedChange(cwd: string, saved: ReadonlyMap<string, ChangedFile['change']>): Promise<Change> {
  const top = path.parse(cwd).root;
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], cwd);
  const base = head.ok ? head.stdout.trim() : null;
  const files = [...saved].map(([file, change]) => ({ path: path.relative(top, file).split(path.sep).join('/'), change }))
    .filter((file) => !file.path.split('/').includes('.run-tests'))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { top, base, head: base, ref: null, files, tree: digest(top, base, files) };
}

/** Paths given to limit a change (absolute) must lie in its work tree: a usage error naming
 * the first that does not. */
export function checkInsideTree(change: Change, files: readonly string[]): void {
  const outside = files.find((file) => path.relative(change.top, file).split(path.sep)[0] === '..' || path.isAbsolute(path.relative(change.top, file)));
  if (outside !== undefined) throw usageError(`--changed: ${outside} is outside the git work tree at ${change.top}, so no change of it can be read`);
}

/** The merge base of `ref` and HEAD, named as git names commits; a usage error saying why
 * when there is none. A ref that would read as an option is refused: it never reaches git. */
async function mergeBase(top: string, ref: string, head: string | null, cwd: string): Promise<string> {
  if (ref === '' || ref.startsWith('-')) throw usageError(`--changed: ${JSON.stringify(ref)} is no git ref`);
  const commit = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], top);
  if (!commit.ok) {
    // `--changed src/a.ts`: the option took a file for its ref.
    const file = fs.existsSync(path.resolve(cwd, ref)) ? `; ${ref} is a file: give files before --changed, or the ref as --changed=<ref>` : '';
    throw usageError(`--changed: ${JSON.stringify(ref)} names no commit in ${top} (git rev-parse found none)${file}`);
  }
  if (head === null) throw usageError(`--changed ${ref}: the repository at ${top} has no commit yet, so nothing can be measured against ${ref}`);
  const sha = commit.stdout.trim();
  const found = await git(['merge-base', sha, head], top);
  if (found.ok) return found.stdout.trim();
  const shallow = (await git(['rev-parse', '--is-shallow-repository'], top)).stdout.trim() === 'true';
  throw usageError(shallow
    ? `--changed ${ref}: this is a shallow clone, and ${ref} and HEAD have no merge base in the history it holds; fetch more of it (git fetch --unshallow, or actions/checkout with fetch-depth: 0)`
    : `--changed ${ref}: ${ref} and HEAD have no common ancestor`);
}

const zeroSplit = (text: string): string[] => text.split('\0').filter((part) => part !== '');

/** `git diff --name-status -z`: a status, then the path, each ended by NUL. */
function* nameStatus(text: string): Generator<[ChangedFile['change'], string]> {
  const parts = text.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i] ?? '';
    const file = parts[i + 1] ?? '';
    if (file === '') continue;
    yield [status.startsWith('A') ? 'added' : status.startsWith('D') ? 'deleted' : 'modified', file];
  }
}

/** sha256 over the base and each changed file's path, kind and content (a link's target). */
function digest(top: string, base: string | null, files: readonly ChangedFile[]): string {
  const hash = crypto.createHash('sha256').update(`${base ?? ''}\0`);
  for (const file of files) {
    hash.update(`${file.path}\0${file.change}\0`);
    if (file.change !== 'deleted') hash.update(content(path.join(top, file.path))).update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}

function content(file: string): Buffer | string {
  try {
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) return `link:${fs.readlinkSync(file)}`;
    return stat.isFile() ? fs.readFileSync(file) : `${stat.mode}`;
  } catch {
    return 'missing';
  }
}
