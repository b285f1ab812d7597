import path from 'node:path';
import type { Runner } from '../runners/types.js';
import type { ProjectSelection } from '../detect/roots.js';
import { ARTIFACTS_DIR, checkArtifactsDir } from '../store/artifacts.js';
import { isFailedTestRecord, readLastFailures } from '../store/last-failures.js';
import { listRuns } from '../store/runs.js';
import { usageError } from '../model/errors.js';
import type { FailedTestRecord } from '../model/results.js';
import { uncarriable, type RerunSelection } from './rerun.js';

/** A test an id names, as a run recorded it, and the runner that ran it. */
export interface RecordedId {
  readonly framework: string;
  readonly record: FailedTestRecord;
}

/** The ids given with --id that a project recorded, each with its newest record. */
export type IdRecords = ReadonlyMap<string, RecordedId>;

/** What each project recorded of the ids: the projects that recorded none of them do not
 * run. An id alone does not say which test it is (an rspec id is a position, a file may
 * hold two tests of one name), so only an id run-tests printed can be given: its record
 * gives the name and file the rerun is checked by, as with --failed-only. An id no
 * project recorded is a usage error: it never reaches a runner. */
export function projectsWithIds(selections: readonly ProjectSelection[], ids: readonly string[]): { selection: ProjectSelection; ids: IdRecords }[] {
  const found = selections.map((selection) => ({ selection, ids: recordedIds(selection.root, ids) }));
  const unknown = ids.filter((id) => !found.some((project) => project.ids.has(id)));
  if (unknown.length > 0) {
    const where = found.map((project) => path.join(project.selection.root, ARTIFACTS_DIR)).join(', ');
    throw usageError(`--id ${unknown.map((id) => JSON.stringify(id)).join(', ')}: no such test in the failures recorded in ${where} (last-failures.json and the stored runs' reports); give an id a run printed, or run the suite or its file first`);
  }
  return found.filter((project) => project.ids.size > 0);
}

/** Each id's newest record in the project: last-failures.json, then the failed tests of
 * the stored runs' reports, newest first. A store that cannot be read records nothing
 * (the run itself then says why the store is unusable). */
export function recordedIds(root: string, ids: readonly string[]): Map<string, RecordedId> {
  const wanted = new Set(ids);
  const found = new Map<string, RecordedId>();
  const dir = path.join(root, ARTIFACTS_DIR);
  const take = (framework: unknown, records: unknown): void => {
    if (typeof framework !== 'string' || !Array.isArray(records)) return;
    for (const record of records) {
      if (isFailedTestRecord(record) && wanted.has(record.id) && !found.has(record.id)) found.set(record.id, { framework, record: asRecord(record) });
    }
  };
  try {
    checkArtifactsDir(dir);
  } catch {
    return found;
  }
  try {
    const last = readLastFailures(path.join(dir, 'last-failures.json'));
    take(last?.framework, last?.failed_tests);
  } catch {
    // A corrupt list (set aside by the run) leaves the stored runs to look in.
  }
  for (const run of listRuns(dir)) {
    if (found.size === wanted.size) break;
    take(run.report?.framework, run.report?.failed_tests);
  }
  return found;
}

/** Only the record's own fields: a stored report's entry carries more (its rerun_argv). */
const asRecord = (t: FailedTestRecord): FailedTestRecord => ({ test_name: t.test_name, file: t.file, line: t.line, status: t.status, message: t.message, id: t.id });

/** The recorded tests an --id run selects in this project, checked against its runner. */
export function selectIds(ids: IdRecords, adapter: Runner): RerunSelection {
  const selected = [...ids.values()].map(({ framework, record }) => {
    if (framework !== adapter.id) throw usageError(`--id ${JSON.stringify(record.id)} was recorded by a ${framework} run, but this run uses ${adapter.id}; give --runner ${framework}`);
    return record;
  });
  const skipped = uncarriable(selected);
  if (skipped.length > 0) throw usageError(`--id ${skipped.map((t) => JSON.stringify(t.id)).join(', ')}: the recorded test holds a NUL byte, which no command line can carry`);
  return { selected, runnable: selected, warnings: [] };
}
