/** A failure's stack as the report shows it: the frames in the project, where the fix
 * is, and at most a few of them. Frames in dependencies (node_modules, a virtualenv's
 * site-packages, go's module cache) and in the runtime (`node:internal/…`, GOROOT) are dropped: an agent reads
 * the stack to find what to open, and those are not files to change. */
import type { StackFrame } from '../model/results.js';
import { relativeFile } from './fields.js';

export const STACK_FRAMES_LIMIT = 10;

/** A frame as a runner's stack format gives it, before it is placed in the project. */
export interface RawFrame {
  readonly file: string;
  readonly line: number;
  readonly function?: string | null;
}

/** Directories that hold a project's dependencies: node's, and Python's in a virtualenv. */
const DEPENDENCIES: ReadonlySet<string> = new Set(['node_modules', 'site-packages', 'dist-packages']);

/** node's own modules, by any of the names its stacks give them. */
const RUNTIME = /^(?:node:|internal\/|<anonymous>$|native$|evalmachine\.)/;

/** The frames of `frames` inside `root`, outside any node_modules, made root-relative;
 * at most `max`. An empty list says the stack had no frame in the project. */
export function projectFrames(frames: readonly RawFrame[], root: string, max = STACK_FRAMES_LIMIT): StackFrame[] {
  const kept: StackFrame[] = [];
  for (const frame of frames) {
    if (kept.length >= max) break;
    const file = inProject(frame.file, root);
    if (file !== null) kept.push({ file, line: frame.line, function: frame.function ?? null });
  }
  return kept;
}

/** The frame's file relative to root, or null when it is not the project's own. A
 * relative path (mocha shortens its stacks to the working directory) is the project's. */
function inProject(file: string, root: string): string | null {
  if (RUNTIME.test(file)) return null;
  const relative = relativeFile(file, root);
  if (relative.startsWith('/') || /^[A-Za-z]:\//.test(relative) || relative === '..' || relative.startsWith('../')) return null;
  if (relative.split('/').some((part) => DEPENDENCIES.has(part))) return null;
  return relative;
}
