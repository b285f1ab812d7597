/** What the mocha and node:test parsers share: finding where a failure happened in the
 * test file. (Telling assertions from errors, and their messages, is the reporters'
 * part: reporters/shared/errors.cjs.) */
import { fileURLToPath } from 'node:url';
import { relativeFile } from '../../parsers/fields.js';
import { lineInFile } from './stack.js';

/** The line of the first stack frame in the test file: frames may carry the absolute
 * path, a file URL, or (mocha filters stacks) the path relative to the project root.
 * A syntax error's stack starts with `file:line` instead. */
export function lineInTestFile(stack: string | null, absFile: string | null, root: string): number | null {
  if (stack === null || absFile === null) return null;
  const rel = relativeFile(absFile, root);
  const inFrames = lineInFile(stack, absFile) ?? (rel !== absFile ? lineInFile(stack, rel) : null);
  if (inFrames !== null) return inFrames;
  const header = /^(.+):(\d+)$/.exec(stack.split('\n', 1)[0] ?? '');
  const where = header?.[1]?.startsWith('file://') ? pathOfUrl(header[1]) : header?.[1];
  return header && (where === absFile || where === rel) ? Number(header[2]) : null;
}

function pathOfUrl(url: string): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}
