import os from 'node:os';
import path from 'node:path';
import type { ProjectSelection } from '../detect/roots.js';
import { Interrupts, type RunRequest } from '../model/request.js';
import { mapLines } from '../process/index.js';
import type { IdRecords } from './ids.js';
import { ProjectsProgress } from './projects-progress.js';
import { runProject, type ProjectRun } from './run-project.js';

export interface ProjectToRun {
  readonly selection: ProjectSelection;
  /** --id: the ids this project recorded; null without --id. */
  readonly ids: IdRecords | null;
}

/** How many projects run at once: --jobs, by default the CPUs, never more than there are. */
export const jobsFor = (request: RunRequest, projects: number): number =>
  Math.max(1, Math.min(request.jobs ?? os.availableParallelism(), projects));

/** Runs the projects, up to `jobsFor` at once, and returns their runs in the projects'
 * order whatever order they finish in. A project not yet started when the run is
 * interrupted does not run (as one after another, with --jobs 1). Several projects share
 * one live display, counted together; at once, each has its own process marker (so that
 * one project's end never takes another's processes for its leftovers) and its --stream
 * lines are prefixed with its directory. */
export async function runProjects(request: RunRequest, projects: readonly ProjectToRun[], interrupts: Interrupts, runId: string): Promise<ProjectRun[]> {
  if (projects.length === 1 && projects[0] !== undefined) return [await runProject(request, projects[0].selection, interrupts, runId, projects[0].ids)];
  const jobs = jobsFor(request, projects.length);
  const roots = projects.map((p) => p.selection.root);
  const live = request.liveCount === null ? null : new ProjectsProgress(request.liveCount, roots, request.cwd);
  try {
    return await inPool(projects, jobs, interrupts, async ({ selection, ids }, index, stop) => {
      const tee = jobs > 1 && request.tee !== null ? prefixedLines(request.tee, `[${relative(request.cwd, selection.root)}] `) : request.tee;
      const own = { ...request, tee, liveCount: live?.of(index) ?? null };
      try {
        return await runProject(own, selection, stop, runId, ids, jobs > 1 ? `${runId}.${index + 1}` : runId);
      } finally {
        if (tee !== request.tee) tee?.end();
      }
    });
  } finally {
    live?.end();
  }
}

/** Runs `work` on each item, at most `limit` at once, taking them in order; the results
 * keep the items' order, without those not started because of an interrupt. A failure
 * (a usage error found while planning a project) stops the others as Ctrl-C would, and
 * is thrown once they have ended: no process outlives the run. */
async function inPool<T, R>(items: readonly T[], limit: number, interrupts: Interrupts, work: (item: T, index: number, stop: Interrupts) => Promise<R>): Promise<R[]> {
  const stop = new Interrupts();
  const unsubscribe = interrupts.on((signal) => stop.raise(signal));
  const results = new Map<number, R>();
  const failures: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && stop.signal === null) {
      const index = next++;
      try {
        results.set(index, await work(items[index] as T, index, stop));
      } catch (error) {
        failures.push(error);
        stop.raise('SIGTERM');
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: limit }, worker));
  } finally {
    unsubscribe();
  }
  if (failures.length > 0) throw failures[0];
  return [...results].sort(([a], [b]) => a - b).map(([, run]) => run);
}

/** The project's output as whole lines, each after `prefix`; the runner's own GitHub
 * workflow commands (`::error …`) stay as they are, or GitHub would not read them. */
function prefixedLines(target: NodeJS.WritableStream, prefix: string): NodeJS.WritableStream {
  return mapLines(target, (line) => (line.startsWith('::') ? `${line}\n` : `${prefix}${line}\n`));
}

const relative = (cwd: string, dir: string): string => path.relative(cwd, dir).split(path.sep).join('/') || '.';
