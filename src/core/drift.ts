import path from 'node:path';
import type { RunReport } from '../model/report.js';
import { gitState, gitStateAgain, gitTop } from './tree-git.js';
import { changedPaths, restat, walkState, type TreeState } from './tree-state.js';

/** The report's fields that bind it to the tree it ran on (see RunReport.git, .drift). */
export type TreeFields = Pick<RunReport, 'git' | 'drift' | 'drift_paths' | 'drift_paths_more'>;

/** At most this many changed paths are named; the rest are counted. */
export const MAX_DRIFT_PATHS = 20;

const UNKNOWN = 'the project files could not be listed before and after the run: whether they changed during it is unknown';

export interface TreeDrift {
  readonly fields: TreeFields;
  readonly warnings: readonly string[];
}

export interface TreeBinding {
  /** Looks at the tree again once the runner is done, and says what changed. */
  finish(): Promise<TreeDrift>;
}

/** Looks at the project's tree as the runner starts (without waiting: it overlaps the
 * runner's start), to compare it with the tree once the runner is done. `own` are files
 * the run itself writes into the project (its reports), which are no change. A change
 * made before that first look still counts by its change time, if it left the file
 * listed (a tracked file restored to its committed content leaves no trace). */
export function bindTree(root: string, own: readonly string[] = []): TreeBinding {
  // The runner has just been spawned and cannot have changed anything yet; the clock
  // gives whole ms, and the next one is the first a change of the run can be stamped in.
  const sinceMs = Date.now() + 1;
  const skip = new Set(own.map((file) => path.relative(root, file).split(path.sep).join('/')));
  const before = firstLook(root, skip);
  // Never rejects either: a run that ends before asking (a harness error) leaves it unawaited.
  return { finish: async () => lookAgain(await before, root, skip, sinceMs).catch(() => ({ fields: {}, warnings: [UNKNOWN] })) };
}

/** The tree through git, else by walking it; null when it could not be looked at.
 * Never rejects: the run may end (a runner that cannot start) without asking. */
export async function firstLook(root: string, skip: ReadonlySet<string>): Promise<TreeState | null> {
  try {
    const where = await gitTop(root);
    return (where === null ? null : await gitState(root, where, skip)) ?? (await walkState(root, skip));
  } catch {
    return null;
  }
}

/** Compares the tree as it is now with `before`, counting what changed since `sinceMs`. */
export async function lookAgain(before: TreeState | null, root: string, skip: ReadonlySet<string>, sinceMs: number): Promise<TreeDrift> {
  const now = before === null ? null : before.git ? await gitStateAgain(root, before.git, skip, sinceMs) : restat(root, before);
  if (before === null || now === null) return { fields: {}, warnings: [UNKNOWN] };
  return compare(before, now, sinceMs);
}

/** The fields, and a warning naming what changed while the tests ran. */
export function compare(before: TreeState, after: TreeState, sinceMs: number): TreeDrift {
  const changed = changedPaths(before, after, sinceMs);
  const shown = changed.slice(0, MAX_DRIFT_PATHS);
  const more = changed.length - shown.length;
  const fields: TreeFields = {
    ...(before.git ? { git: { revision: before.git.revision, dirty: before.git.dirty } } : {}),
    drift: changed.length > 0,
    drift_paths: shown,
    drift_paths_more: more,
  };
  if (changed.length === 0) return { fields, warnings: [] };
  const named = `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return { fields, warnings: [`files of the project changed while the tests ran (${named}): the result may not describe the tree as it is now`] };
}

/** A merged report's drift: any project's, its paths relative to `cwd` (as failed_tests'
 * files are). No `git`: each project's report carries its own. Empty when no project
 * has a drift of its own (none ran). */
export function mergeDrift(cwd: string, reports: readonly RunReport[]): TreeFields {
  const bound = reports.filter((r) => r.drift !== undefined);
  if (bound.length === 0) return {};
  const paths = bound.flatMap((r) => (r.drift_paths ?? []).map((file) => path.relative(cwd, path.join(r.project_root, file)).split(path.sep).join('/')));
  const more = bound.reduce((sum, r) => sum + (r.drift_paths_more ?? 0), 0);
  const shown = paths.slice(0, MAX_DRIFT_PATHS);
  return { drift: bound.some((r) => r.drift), drift_paths: shown, drift_paths_more: more + paths.length - shown.length };
}
