import { fileURLToPath } from 'node:url';

export interface StackFrame {
  readonly file: string;
  readonly line: number;
  readonly column: number | null;
}

/** `at fn (/a/b.js:12:5)`, `at /a/b.js:12:5`, `at async file:///a/b.mjs:3:1`. */
const V8_FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?[^\s()]+?):(\d+)(?::(\d+))?\)?\s*$/;

/** The frames of a V8 stack trace (the lines that are frames), file URLs as paths. */
export function stackFrames(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const text of stack.split('\n')) {
    const m = V8_FRAME.exec(text);
    if (!m || m[1] === undefined || m[2] === undefined) continue;
    let file = m[1];
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    frames.push({ file, line: Number(m[2]), column: m[3] === undefined ? null : Number(m[3]) });
  }
  return frames;
}

/** Where a failure happened in the test file: the line of the first frame in `file`
 * (an absolute path), or null when no frame is in it. */
export function lineInFile(stack: string | null | undefined, file: string): number | null {
  if (!stack) return null;
  return stackFrames(stack).find((frame) => frame.file === file)?.line ?? null;
}
