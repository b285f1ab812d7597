import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { workspacesTestCommand } from '../ecosystems/node/script.js';

/** An npm workspaces root whose `npm test` runs its workspaces' tests (and none of its
 * own): its tests are its workspaces'. */

export interface WorkspaceTests {
  /** Absolute directories of the workspaces that have a scripts.test, in npm's order. */
  readonly dirs: readonly string[];
  readonly reason: string;
}

interface WorkspacesPackage {
  readonly workspaces?: unknown;
  readonly scripts?: Readonly<Record<string, string>>;
}

const readPackage = (dir: string): WorkspacesPackage | null => {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WorkspacesPackage) : null;
  } catch {
    return null;
  }
};

export function workspaceTests(root: string): WorkspaceTests | null {
  const pkg = readPackage(root);
  const command = pkg === null ? null : workspacesTestCommand(pkg);
  if (pkg === null || command === null) return null;
  const all = workspaceDirs(root, patternsOf(pkg.workspaces));
  const dirs = all.filter((dir) => readPackage(dir)?.scripts?.test !== undefined);
  const relative = (dirs: readonly string[]) => dirs.map((d) => path.relative(root, d).split(path.sep).join('/')).join(', ');
  const without = all.filter((dir) => !dirs.includes(dir));
  return {
    dirs,
    reason: `scripts.test runs the tests of its workspaces (${JSON.stringify(command)}): each ran in its own directory (${relative(dirs) || 'none'})`
      + (without.length > 0 ? `; without scripts.test, not run: ${relative(without)}` : ''),
  };
}

/** package.json's `workspaces`: a list of globs, or yarn's `{ packages: [...] }`. */
function patternsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? (value as { packages?: unknown }).packages : [];
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

/** The directories with a package.json that the globs name (a `!glob` removes), as
 * npm lists them: in the globs' order, each glob's matches sorted. */
function workspaceDirs(root: string, patterns: readonly string[]): string[] {
  const clean = (p: string) => p.replace(/^\.\//, '').replace(/\/+$/, '');
  const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => picomatch(clean(p.slice(1))));
  const dirs: string[] = [];
  for (const pattern of patterns.filter((p) => !p.startsWith('!')).map(clean)) {
    const matches = picomatch(pattern);
    const { base } = picomatch.scan(pattern);
    const depth = pattern.includes('**') ? Infinity : pattern.split('/').length;
    for (const dir of directoriesBelow(root, base, depth)) {
      if (matches(dir) && !excluded.some((x) => x(dir)) && fs.existsSync(path.join(root, dir, 'package.json'))) dirs.push(path.join(root, dir));
    }
  }
  return [...new Set(dirs)];
}

/** Relative directories at or below `base` (no node_modules, no dot directories), sorted. */
function directoriesBelow(root: string, base: string, depth: number): string[] {
  const found: string[] = [];
  const walk = (relative: string, level: number): void => {
    if (relative !== '') found.push(relative);
    if (level >= depth) return;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.filter((e) => e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      walk(relative === '' ? entry.name : `${relative}/${entry.name}`, level + 1);
    }
  };
  walk(base, base === '' ? 0 : base.split('/').length);
  return found;
}
