import fs from 'node:fs';
import path from 'node:path';
import { ROOT_MARKERS } from '../runners/index.js';
import { runnerIn, subprojects } from './subprojects.js';
import { workspaceTests } from './workspaces.js';

const isRoot = (dir: string): boolean => ROOT_MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)));

/** The nearest directory at or above `start` holding a project marker, or null. */
export function findProjectRoot(start: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (isRoot(dir)) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

export interface ProjectSelection {
  readonly root: string;
  /** Relative to root, `/`-separated. */
  readonly files: readonly string[];
  /** Why this project runs, when the request did not name it (a workspace of a root
   * whose tests are its workspaces'). */
  readonly reason?: string;
}

/** Groups files (absolute, already validated to lie inside `cwd`) by the nearest
 * enclosing project root, so each subproject of a monorepo runs where it lives. With
 * no files, the project enclosing `cwd` runs (or `cwd` itself, for detection to report).
 * A whole project whose tests are its workspaces' runs each of them instead. */
export function selectProjects(cwd: string, files: readonly string[]): ProjectSelection[] {
  return byRoot(cwd, files).flatMap((selection) => {
    const whole = selection.files.length === 0;
    const workspaces = whole ? workspaceTests(selection.root) : null;
    if (workspaces === null || workspaces.dirs.length === 0) {
      return [selection];
    }
    return workspaces.dirs.map((root) => ({ root, files: [], reason: workspaces.reason }));
  });
}

/** --all-projects: the project at `cwd` (when a runner is detected there, or its
 * workspaces when its tests are theirs) and every project below it (subprojects(): two
 * levels down, not inside each other), in that order, each once. None found: `cwd`, for
 * detection to report. */
export function everyProject(cwd: string): ProjectSelection[] {
  const own = isRoot(cwd) ? selectProjects(cwd, []).filter((s) => s.reason !== undefined || runnerIn(cwd) !== null) : [];
  const below = subprojects(cwd, Number.POSITIVE_INFINITY).flatMap((s) => selectProjects(s.root, []));
  if (own.length + below.length === 0) return [{ root: cwd, files: [] }];
  const seen = new Set<string>();
  const reason = `--all-projects: each project found below ${cwd} ran in its own root`;
  return [...own, ...below].filter((s) => !seen.has(s.root) && seen.add(s.root) !== undefined).map((s) => ({ ...s, reason }));
}

function byRoot(cwd: string, files: readonly string[]): ProjectSelection[] {
  if (files.length === 0) return [{ root: findProjectRoot(cwd) ?? cwd, files: [] }];
  const byRoot = new Map<string, string[]>();
  for (const file of files) {
    const start = fs.statSync(file).isDirectory() ? file : path.dirname(file);
    const root = findProjectRoot(start) ?? cwd;
    const relative = path.relative(root, file).split(path.sep).join('/');
    byRoot.set(root, [...(byRoot.get(root) ?? []), relative === '' ? '.' : relative]);
  }
  // A project's own directory among its files means the whole project.
  return [...byRoot].map(([root, rootFiles]) => ({ root, files: rootFiles.includes('.') ? [] : rootFiles }));
}
