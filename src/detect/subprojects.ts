import fs from 'node:fs';
import path from 'node:path';
import { readProjectFacts } from '../project/facts.js';
import { ROOT_MARKERS } from '../runners/index.js';
import { detectRunner } from './detect.js';

/** A project of its own below another, with the runner detection finds in it. */
export interface Subproject {
  readonly root: string;
  readonly runner: string;
}

/** How far below: `packages/x`, `services/y`. Deeper ones are mostly fixtures and examples. */
const DEPTH = 2;
const MAX_FOUND = 20;
/** Directories that hold others' projects, build output or a suite's own fixtures (a
 * Rails engine's test/dummy app), never a project of the repository's own. */
const SKIPPED = new Set(['node_modules', 'vendor', 'target', 'dist', 'build', 'tmp', 'log', 'coverage', 'fixtures', 'testdata', 'examples',
  '__pycache__', 'test', 'tests', 'spec', '__tests__']);

/** The projects in the directories below `root` (not inside each other), in name order:
 * at a monorepo root, what a run of the root leaves out. One listing per directory.
 * `max`: the most found (the warning names a few; --all-projects runs them all). */
export function subprojects(root: string, max = MAX_FOUND): Subproject[] {
  const found: Subproject[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const name of directories(dir)) {
      if (found.length >= max) return;
      const sub = path.join(dir, name);
      const runner = runnerIn(sub);
      if (runner !== null) found.push({ root: sub, runner });
      else if (depth < DEPTH) walk(sub, depth + 1);
    }
  };
  walk(root, 1);
  return found;
}

function directories(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The runner of a directory with a project marker, or null (no marker, no runner). */
export function runnerIn(dir: string): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  if (!names.some((name) => ROOT_MARKERS.includes(name))) return null;
  try {
    return detectRunner(readProjectFacts(dir)).adapter.id;
  } catch {
    return null;
  }
}
