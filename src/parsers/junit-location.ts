/** Where a JUnit failure happened, from the text of its <failure>/<error> when the
 * producer gives no `file`/`line` attribute: a stack frame (JavaScript, Ruby, Python)
 * in the test file, or go's `file_test.go:12:` prefix. */
import { relativeFile } from './fields.js';
import StackUtils from 'stack-utils';
import { prefixLocation } from './go-output.js';

export interface Location {
  readonly file: string;
  readonly line: number;
}

/** `path.ext:12` after a space, `(`, `[` or the line start (JS `at f (a.js:1:2)`,
 * vitest `❯ a.js:1:2`, Ruby `./a_spec.rb:7:in`, minitest `[test/a_test.rb:11]`,
 * pytest `a.py:9: AssertionError`). */
const FRAME = /(?:^|[\s(\[])((?:[A-Za-z]:)?[^\s()[\]:'"]*?[^\s()[\]:'"./]\.[A-Za-z][A-Za-z0-9]{0,4}):(\d+)/gm;
/** Python's `File "a.py", line 9`. */
const PY_FRAME = /File "([^"]+)", line (\d+)/g;
const MAX_SCAN = 64 * 1024;

/** V8's frames (`at f (/a b/c.js:1:2)`): stack-utils reads paths with spaces, which FRAME
 * stops at. Paths kept whole (no cwd cut off them: a NUL is in no path). */
const V8 = new StackUtils({ cwd: '\u0000', internals: [] });

/** V8's frames first, then every other language's. */
function* frames(text: string): Generator<{ file: string; line: number }> {
  for (const line of text.split('\n')) {
    const frame = /^\s*at /.test(line) ? V8.parseLine(line.trimEnd()) : null;
    if (frame?.file !== undefined && frame.line !== undefined && frame.line > 0) yield { file: frame.file, line: frame.line };
  }
  for (const re of [FRAME, PY_FRAME]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const line = Number(m[2]);
      if (m[1] !== undefined && line > 0) yield { file: m[1], line };
    }
  }
}

/** The first frame in `file` (project-relative) or, when the file is unknown, the first
 * frame inside the project and outside node_modules. Node's test runner wraps the error:
 * the frames of its `cause:` come first. */
export function textLocation(text: string, file: string | null, root: string): Location | null {
  const body = text.slice(0, MAX_SCAN).replace(/file:\/\//g, '');
  const cause = body.indexOf('cause:');
  const parts = cause < 0 ? [body] : [body.slice(cause), body.slice(0, cause)];
  for (const part of parts) {
    for (const frame of frames(part)) {
      const rel = relativeFile(frame.file, root);
      if (file !== null ? rel === file : isProjectFile(rel)) return { file: rel, line: frame.line };
    }
  }
  return null;
}

const isProjectFile = (rel: string): boolean =>
  !rel.startsWith('/') && !/^[A-Za-z]:/.test(rel) && !rel.startsWith('../') && !rel.includes('node_modules/') && !rel.startsWith('node:');

/** go's `    calc_test.go:12: message` in the package's directory (from the module path in
 * ctx.hints.module, as for `go test -json`); null when the package's directory is unknown. */
export function goLocation(text: string, importPath: string, module: string | null): Location | null {
  if (module === null) return null;
  const dir = importPath === module ? '' : importPath.startsWith(`${module}/`) ? importPath.slice(module.length + 1) : null;
  return prefixLocation(text.split('\n'), dir);
}
