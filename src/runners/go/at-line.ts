/** The go test function at a line of a _test.go file, as an exact selection. */
import path from 'node:path';
import { usageError } from '../../model/errors.js';
import type { FailedTestRecord } from '../../model/results.js';
import { goTestId } from './id.js';

/** What go test runs without -bench: TestXxx, FuzzXxx (Xxx not lower-case) and examples. */
const TEST_FUNCTION = /^func\s+((?:Test|Fuzz|Example)\w*)\s*(?:\[[^\]]*\])?\s*\(/;

/** The top-level function declared at the line, or whose body (up to the first `}` at
 * the start of a line) holds it: gofmt'd source, as go's own tools write it. A subtest's
 * line selects its top-level test. */
export function goTestAt(file: string, line: number, text: string, module: string | null): FailedTestRecord {
  const lines = text.split(/\r?\n/);
  const none = usageError(`no Test, Fuzz or Example function is defined at ${file}:${line}`);
  if (!file.endsWith('_test.go') || line > lines.length) throw none;
  let start = line - 1;
  while (start >= 0 && !/^func\s/.test(lines[start] ?? '')) start -= 1;
  const end = lines.findIndex((source, i) => i >= start && /^}/.test(source));
  const name = TEST_FUNCTION.exec(lines[start] ?? '')?.[1];
  if (start < 0 || name === undefined || (end !== -1 && end < line - 1)) throw none;
  if (/^(?:Test|Fuzz)[a-z]/.test(name)) throw none;
  if (module === null) throw usageError(`go.mod names no module: run-tests cannot name the package of ${file}`);
  const dir = path.posix.dirname(file);
  const importPath = dir === '.' ? module : `${module}/${dir}`;
  return { id: goTestId(importPath, name), test_name: name, file, line: start + 1, status: 'failed', message: '' };
}
