/** What the mocha and node:test parsers share: reading JSON lines, telling assertion
 * failures from errors, and finding where a failure happened in the test file. */
import { fileURLToPath } from 'node:url';
import { boundMessage, relativeFile, str } from '../../parsers/fields.js';

export { jsonLine } from '../../parsers/fields.js';

import { lineInFile } from './stack.js';

export type Json = Record<string, unknown>;

export interface ErrorFields {
  readonly name: string | null;
  readonly code: string | null;
  readonly message: string | null;
  readonly stack: string | null;
}

export function errorFields(value: unknown): ErrorFields | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Json;
  return { name: str(r['name']), code: str(r['code']), message: str(r['message']), stack: str(r['stack']) };
}

/** node:assert's and chai's AssertionError (and anything with code ERR_ASSERTION) is an
 * assertion failure; every other exception is an error. */
export const isAssertion = (error: ErrorFields | null): boolean =>
  error !== null && (error.code === 'ERR_ASSERTION' || /^AssertionError\b/.test(error.name ?? ''));

/** An assertion's message as is; an exception's prefixed with its class, as a stack shows it. */
export function failureMessage(error: ErrorFields | null, fallback = 'failed without a message'): string {
  const message = error?.message?.replace(/\s+$/, '') ?? '';
  if (error === null) return fallback;
  if (isAssertion(error)) return boundMessage(message !== '' ? message : error.name ?? fallback);
  const name = error.name ?? '';
  const full = name !== '' && message !== '' ? `${name}: ${message}` : message || name || fallback;
  return boundMessage(full);
}

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



