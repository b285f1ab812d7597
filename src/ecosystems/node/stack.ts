import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import StackUtils from 'stack-utils';
import type { StackFrame as ProjectFrame } from '../../model/results.js';
import { projectFrames } from '../../parsers/frames.js';

export interface StackFrame {
  readonly file: string;
  readonly line: number;
  readonly column: number | null;
  readonly function: string | null;
}

/** stack-utils reads V8's frames (`at fn (/a b/c.js:12:5)`, `at /a/b.js:12:5`, `at new X
 * (…)`, eval origins), paths with spaces and parentheses included. Paths are kept whole:
 * it would cut the current directory off them, and a NUL is in no path. */
const frames = new StackUtils({ cwd: '\u0000', internals: [] });
/** stack-utils also takes a line without `at ` for a frame (`Expected: a.js:1:2`). */
const AT = /^\s*at /;

/** The frames of a V8 stack trace (the lines that are frames), file URLs as paths. */
export function stackFrames(stack: string): StackFrame[] {
  const found: StackFrame[] = [];
  for (const text of stack.split('\n')) {
    if (!AT.test(text)) continue;
    const frame = frames.parseLine(text.trimEnd());
    if (frame === null || frame.file === undefined || frame.line === undefined) continue;
    const file = frame.file.startsWith('file://') ? pathOfUrl(frame.file) : frame.file;
    if (file !== null) found.push({ file, line: frame.line, column: frame.column ?? null, function: frame.function ?? null });
  }
  return found;
}

function pathOfUrl(url: string): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

/** Where a failure happened in the test file: the line of the first frame in `file`
 * (an absolute path), or null when no frame is in it. */
export function lineInFile(stack: string | null | undefined, file: string): number | null {
  if (!stack) return null;
  return stackFrames(stack).find((frame) => frame.file === file)?.line ?? null;
}

/** A failure's stack for the report: its frames in the project (colours stripped), or
 * nothing when the runner gave no stack. */
export function failureStack(stack: string | null, root: string): { stack?: ProjectFrame[] } {
  return stack === null ? {} : { stack: projectFrames(stackFrames(stripVTControlCharacters(stack)), root) };
}
