import path from 'node:path';
import { usageError } from '../model/errors.js';
import type { FailedTestRecord } from '../model/results.js';
import type { RunRequest, TestLocation } from '../model/request.js';
import type { ProjectFacts } from '../project/facts.js';
import type { ProjectSelection } from '../detect/roots.js';
import type { Runner } from '../runners/types.js';

/** What a project's run selects once its `file:line` operands are read by its runner:
 * the files given whole, the runner's own operands, and exact tests (null: none). */
export interface LocatedSelection {
  readonly files: readonly string[];
  readonly at: readonly string[];
  readonly tests: readonly FailedTestRecord[] | null;
}

/** The files of every operand, for choosing the projects: a located file selects its project as a file does. */
export const operandFiles = (request: RunRequest): string[] => [...new Set([...request.files, ...(request.locations ?? []).map((l) => l.file)])];

/** A project's `file:line` operands as its runner selects them; null when it has none.
 * A runner that selects by name runs exactly those tests, so files given whole beside
 * them would need a second run: that is refused, as is a runner that cannot select by line. */
export function locateTests(adapter: Runner, request: RunRequest, selection: ProjectSelection, facts: ProjectFacts): LocatedSelection | null {
  const relative = (file: string): string => path.relative(selection.root, file).split(path.sep).join('/');
  const located = (request.locations ?? []).filter((l) => selection.files.includes(relative(l.file)));
  if (located.length === 0) return null;
  const files = selection.files.filter((f) => request.files.some((file) => relative(file) === f));
  const at: string[] = [];
  const tests: FailedTestRecord[] = [];
  for (const location of located) {
    const found = testsAt(adapter, relative(location.file), location, facts);
    if ('operands' in found) at.push(...found.operands);
    else tests.push(...found.tests);
  }
  if (tests.length > 0 && (at.length > 0 || files.length > 0)) {
    throw usageError(`${adapter.id} selects the tests at ${located[0]?.operand} by name: give the files to run whole in a run of their own`);
  }
  return { files, at: [...new Set(at)], tests: tests.length > 0 ? unique(tests) : null };
}

function testsAt(adapter: Runner, file: string, location: TestLocation, facts: ProjectFacts): ReturnType<NonNullable<Runner['testsAt']>> {
  if (!adapter.testsAt) {
    throw usageError(`${adapter.id} cannot select tests by line or node id (${location.operand}): run the file whole, or select with --name`);
  }
  return adapter.testsAt(file, location.at, facts);
}

const unique = (tests: readonly FailedTestRecord[]): FailedTestRecord[] =>
  tests.filter((t, i) => tests.findIndex((u) => u.id === t.id && u.test_name === t.test_name && u.file === t.file) === i);
