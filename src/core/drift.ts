import path from 'node:path';
import type { RunReport } from './report.js';
import { changedPaths, gitState, gitTop, restat, walkState, type TreeState } from './tree-state.js';

/** The report's fields that bind it to the tree it ran on (see RunReport.git, .drift). */
export type TreeFields = Pick<RunReport, 'git' | 'drift' | 'drift_paths' | 'drift_paths_more'>;

/** At most this many changed paths are named; the rest are counted. */
export const MAX_DRIFT_PATHS = 20;

const UNKNOWN = 'the project files could not be listed before and after the run: whether they changed during it is unknown';

export interface TreeBinding {
  /** Looks at the tree again once the runner is done, and says what changed. */
  finish(): Promise<{ readonly fields: TreeFields; readonly warnings: readonly string[] }>;
}

/** Looks at the project's tree as the runner starts (without waiting: it overlaps the
 * runner's start), to compare it with the tree once the runner is done. `own` are files
 * the run itself writes into the project (its reports), which are no change. Tests that
 * change files in the runner's first moments, before this look, go unseen. */
export function bindTree(root: string, own: readonly string[] = []): TreeBinding {
  // Taken as the runner has just been spawned: it cannot have changed anything yet.
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  const skip = new Set(own.map((file) => path.relative(root, file).split(path.sep).join('/')));
  // Never rejects: the run may end (a runner that cannot start) without asking.
  const before = snapshot(root, skip).catch(() => null);
  return {
    async finish() {
      const first = await before;
      const now = first === null ? null : first.git ? await gitState(root, first.git.top, skip) : restat(root, first);
      if (first === null || now === null) return { fields: {}, warnings: [UNKNOWN] };
      return compare(first, now, startedNs);
    },
  };
}

async function snapshot(root: string, skip: ReadonlySet<string>): Promise<TreeState> {
  const top = await gitTop(root);
  return (top === null ? null : await gitState(root, top, skip)) ?? walkState(root, skip);
}

/** The fields, and a warning naming what changed while the tests ran. */
export function compare(before: TreeState, after: TreeState, sinceNs: bigint): { fields: TreeFields; warnings: string[] } {
  const changed = changedPaths(before, after, sinceNs);
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
