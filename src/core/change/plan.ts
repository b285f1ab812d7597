import path from 'node:path';
import type { ChangePlan } from '../../model/report.js';
import type { Runner, SelectedUnit, ShardUnit } from '../../runners/types.js';
import type { Change } from '../../model/request.js';
import type { ProjectFacts } from '../../project/facts.js';

export interface PlanInput {
  readonly runner: Runner;
  readonly root: string;
  readonly facts: ProjectFacts;
  readonly change: Change;
  readonly env: NodeJS.ProcessEnv;
  readonly reportersDir: string;
  readonly runnerArgs: readonly string[];
  /** Limits the change to these paths (files or directories, relative to root); empty: all of it. */
  readonly within?: readonly string[];
  /** --watch: the units of the recorded failures, selected too (`failed in the last run`). */
  readonly failed?: readonly string[];
}

/** What the change needs in one project: its changed files, then the units the runner's
 * graph says they can break. Whatever cannot be placed for certain (a deleted file, a
 * runner without a graph, a listing or graph that fails, a unit no listing holds) is the
 * whole suite, with the reason. No changed file in the project: nothing. */
export async function planChange(input: PlanInput): Promise<ChangePlan> {
  const { change, runner } = input;
  const all = change.files.map((file) => ({ ...file, path: relativeTo(input.root, change.top, file.path) }))
    .filter((file) => within(file.path, input.within ?? []));
  const inside = all.filter((file) => !file.path.startsWith('../'));
  // Outside files are the graph's to place, where it can (a sibling the project imports).
  const outside = runner.changes?.outside === true ? all.filter((file) => file.path.startsWith('../')) : [];
  const plan = (rest: Pick<ChangePlan, 'units' | 'whole_suite'>): ChangePlan => ({
    base: change.base, head: change.head, ref: change.ref, tree: change.tree,
    changed: inside.map((file) => ({ file: file.path, change: file.change })), ...rest,
  });
  const whole = (reason: string): ChangePlan => plan({ units: [], whole_suite: { reason } });
  const failed = input.failed ?? [];
  if (inside.length === 0 && outside.length === 0 && failed.length === 0) return plan({ units: [], whole_suite: null });
  const deleted = inside.find((file) => file.change === 'deleted');
  if (deleted) return whole(`${deleted.path} was deleted: what loaded it cannot be told from the tree as it is`);
  if (runner.changes === undefined || runner.shard === undefined) return whole(`run-tests cannot tell which ${runner.id} tests a file can break`);
  const request = { root: input.root, facts: input.facts, files: [], env: input.env, reportersDir: input.reportersDir, runnerArgs: input.runnerArgs };
  let units: readonly ShardUnit[];
  try {
    units = await runner.shard.units(request);
  } catch (error) {
    return whole(`listing the suite's ${runner.id} units failed: ${(error as Error).message}`);
  }
  const names = new Set(units.map((unit) => unit.name));
  const reasons = new Map<string, string[]>();
  const add = (unit: string, reason: string) => {
    const list = reasons.get(unit) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(unit, list);
  };
  for (const file of inside) if (names.has(file.path)) add(file.path, 'changed test file');
  for (const unit of failed) if (names.has(unit)) add(unit, 'failed in the last run');
  if (inside.length === 0 && outside.length === 0) return plan({ units: sortedUnits(reasons), whole_suite: null });
  let affected;
  try {
    affected = await runner.changes.affected({ ...request, changed: [...inside, ...outside], units });
  } catch (error) {
    return whole(`reading ${runner.id}'s dependency graph failed: ${(error as Error).message}`);
  }
  if (affected.wholeSuite !== undefined) return whole(affected.wholeSuite);
  const unknown = affected.units.find((selected) => !names.has(selected.unit));
  if (unknown) return whole(`the graph selected ${unknown.unit}, which the suite's listing does not hold`);
  for (const selected of affected.units) for (const reason of selected.reasons) add(selected.unit, reason);
  return plan({ units: sortedUnits(reasons), whole_suite: null });
}

const sortedUnits = (reasons: ReadonlyMap<string, string[]>): SelectedUnit[] =>
  [...reasons].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([unit, list]) => ({ unit, reasons: list }));

/** `file` (relative to the work tree's top) relative to the project root, `/`-separated. */
const relativeTo = (root: string, top: string, file: string): string =>
  path.relative(root, path.join(top, file)).split(path.sep).join('/');

/** Whether `file` is one of `paths` or below one of them; every file when none are given. */
const within = (file: string, paths: readonly string[]): boolean =>
  paths.length === 0 || paths.some((p) => p === '' || p === '.' || file === p || file.startsWith(`${p.replace(/\/$/, '')}/`));

/** Whether the plan runs nothing: no change in the project needs a test. */
export const nothingToRun = (plan: ChangePlan): boolean => plan.whole_suite === null && plan.units.length === 0;

/** The reason a plan that runs nothing gives. */
export const NO_CHANGE_AFFECTS = 'no change affects this project';
