/** `run-tests plan` for the JavaScript runners: which test files a change can break, from
 * the module graph of the test files and of what the configuration loads (esbuild's
 * metafile, module-graph.ts), joined with the runner's own graph where it has one (jest's
 * --findRelatedTests, vitest's related: runner-graph.ts). Never narrower: a file the graph
 * cannot place, a configuration, a lockfile, or a computed import anywhere a test reaches
 * is the whole suite, with the reason. */
import type { AffectedRequest, AffectedUnits, ChangeSupport, SelectedUnit } from '../../runners/types.js';
import { GraphError, moduleGraph, type ModuleGraph } from './module-graph.js';
import { configNamed, configEntries, wholeSuiteByName } from './change-names.js';
import type { NodeRunnerId } from './script.js';

/** What a runner adds to the module graph: the files its configuration loads around every
 * test file, and what its own graph relates to the changed files. */
export interface RunnerFacts {
  /** Root-relative: setup files, --require and --file files, environments, transforms. */
  readonly setup: readonly string[];
  /** The runner's own graph (null: it has none): for each changed file, or for all of them
   * together (`together`), the units it relates to it. */
  readonly related: { readonly tool: string; readonly byFile: ReadonlyMap<string, readonly string[]> | null; readonly together: readonly string[] } | null;
  /** A change that is the whole suite by the runner's own rule (vitest's forceRerunTriggers). */
  readonly wholeSuite?: string;
}

export interface NodeGraphOptions {
  readonly runner: NodeRunnerId;
  /** The runner's facts for this change (may run its own listing). */
  facts(request: AffectedRequest): Promise<RunnerFacts>;
  /** Whether its own graph follows what esbuild cannot resolve (jest's moduleNameMapper,
   * vite's aliases): then such an import is left to it, not the whole suite. */
  readonly resolvesAliases: boolean;
}

const SOURCE = /\.[cm]?[jt]sx?$/;

/** Files outside the project are placed too: a test may import `../shared/x.js`. */
export function nodeChanges(options: NodeGraphOptions): ChangeSupport {
  return { affected: (request) => affected(request, options), outside: true };
}

const isOutside = (file: string): boolean => file.startsWith('../');

async function affected(request: AffectedRequest, options: NodeGraphOptions): Promise<AffectedUnits> {
  const changed = request.changed.map((file) => file.path);
  const named = configNamed(request.facts, options.runner, request.runnerArgs);
  for (const file of changed) {
    // Outside the project, only what is above it configures it (a workspace's lockfile).
    if (isOutside(file) && !/^(?:\.\.\/)+[^/]+$/.test(file) && !named.includes(file)) continue;
    const reason = wholeSuiteByName(file, options.runner, named);
    if (reason !== null) return { wholeSuite: reason };
  }
  const facts = await options.facts(request);
  if (facts.wholeSuite !== undefined) return { wholeSuite: facts.wholeSuite };
  const units = request.units.map((unit) => unit.name);
  const configs = configEntries(request.facts, named);
  const loaders = [...new Set([...facts.setup, ...configs])].filter((file) => !units.includes(file));
  let graph: ModuleGraph;
  try {
    graph = await moduleGraph(request.root, [...units, ...loaders]);
  } catch (error) {
    if (error instanceof GraphError) return { wholeSuite: `esbuild could not read the module graph: ${error.message}` };
    throw error;
  }
  const loaded = reachedFrom(graph, loaders);
  const reached = reachedFrom(graph, units);
  for (const [file, call] of graph.computed) {
    if (reached.has(file) || loaded.has(file)) return { wholeSuite: `${file} imports a computed path (${call})` };
  }
  if (!options.resolvesAliases) {
    for (const [file, spec] of graph.unresolved) {
      if (reached.has(file) || loaded.has(file)) return { wholeSuite: `${file} imports ${spec}, which resolves to no installed package: an alias the graph cannot follow` };
    }
  }
  const selected = new Map<string, string[]>();
  const byGraph = new Set<string>();
  const add = (unit: string, reason: string): void => {
    const list = selected.get(unit) ?? [];
    if (!list.includes(reason)) list.push(reason);
    selected.set(unit, list);
  };
  const unitSet = new Set(units);
  const importers = importersMap(graph);
  for (const file of changed) {
    const loader = loaded.get(file);
    if (loader !== undefined) {
      const what = configs.includes(loader) ? 'a configuration every test runs under' : 'a setup file, loaded before every test file';
      return { wholeSuite: loader === file ? `${file} changed: ${what}` : `${file} is imported by ${loader}, ${what}` };
    }
    if (graph.imports.has(file)) {
      for (const [unit, via] of importersOf(importers, file, unitSet)) {
        add(unit, via.length === 0 ? `imports ${file}` : `imports ${file} via ${via.join(', ')}`);
        byGraph.add(`${unit}\0${file}`).add(unit);
      }
      continue;
    }
    // Not this project's: a sibling's file, or a deleted one (had a test imported it, the
    // graph could not have been read).
    if (isOutside(file)) continue;
    const snapshot = snapshotOwner(file, options.runner);
    if (snapshot !== null) {
      if (!unitSet.has(snapshot)) return { wholeSuite: `${file} is the snapshot of no test file the suite lists (${snapshot})` };
      add(snapshot, 'its snapshot file changed');
      continue;
    }
    if (!SOURCE.test(file)) return { wholeSuite: `${file} is no source file the graph knows: a test may read it at run time` };
  }
  addRelated(facts.related, changed, unitSet, (unit, file, reason) => {
    if (!byGraph.has(file === null ? unit : `${unit}\0${file}`)) add(unit, reason);
  });
  return { units: [...selected].map(([unit, reasons]): SelectedUnit => ({ unit, reasons })) };
}

/** The runner's own graph, joined: a unit it relates to a changed file (null: to one of
 * them) that esbuild's graph did not, with the runner's word for it. A changed test file
 * is the core's to select. */
function addRelated(related: RunnerFacts['related'], changed: readonly string[], units: ReadonlySet<string>, add: (unit: string, file: string | null, reason: string) => void): void {
  if (related === null) return;
  const named = (files: readonly string[]): string => (files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`);
  if (related.byFile !== null) {
    for (const [file, list] of related.byFile) {
      for (const unit of list) if (units.has(unit) && unit !== file) add(unit, file, `depends on ${file} (${related.tool})`);
    }
    return;
  }
  const sources = changed.filter((file) => !units.has(file));
  for (const unit of related.together) {
    if (units.has(unit) && !changed.includes(unit) && sources.length > 0) add(unit, null, `depends on ${sources.length === 1 ? '' : 'one of '}${named(sources)} (${related.tool})`);
  }
}

/** Every file reached from `entries`, each with the entry that reached it first. */
function reachedFrom(graph: ModuleGraph, entries: readonly string[]): Map<string, string> {
  const reached = new Map<string, string>();
  for (const entry of entries) {
    const queue = [entry];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (reached.has(file)) continue;
      reached.set(file, entry);
      for (const next of graph.imports.get(file) ?? []) if (!reached.has(next)) queue.push(next);
    }
  }
  return reached;
}

/** Each file with the files that import it. */
function importersMap(graph: ModuleGraph): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const [from, list] of graph.imports) {
    for (const to of list) {
      const known = importers.get(to);
      if (known === undefined) importers.set(to, [from]);
      else known.push(from);
    }
  }
  return importers;
}

/** The units that reach `file`, each with the files between (the shortest way, from the
 * file the unit imports to the one that imports `file`). */
function importersOf(importers: ReadonlyMap<string, readonly string[]>, file: string, units: ReadonlySet<string>): Map<string, string[]> {
  const towards = new Map<string, string | null>([[file, null]]);
  const found = new Map<string, string[]>();
  for (let frontier = [file]; frontier.length > 0;) {
    const next: string[] = [];
    for (const at of frontier) {
      for (const importer of importers.get(at) ?? []) {
        if (towards.has(importer)) continue;
        towards.set(importer, at);
        next.push(importer);
        if (units.has(importer)) found.set(importer, between(towards, importer, file));
      }
    }
    frontier = next;
  }
  return found;
}

function between(towards: ReadonlyMap<string, string | null>, from: string, to: string): string[] {
  const files: string[] = [];
  for (let at = towards.get(from) ?? null; at !== null && at !== to; at = towards.get(at) ?? null) files.push(at);
  return files;
}

/** jest's and vitest's snapshots: `dir/__snapshots__/x.test.js.snap` is `dir/x.test.js`'s. */
function snapshotOwner(file: string, runner: NodeRunnerId): string | null {
  if (runner !== 'jest' && runner !== 'vitest') return null;
  const match = /^(?:(.*)\/)?__snapshots__\/([^/]+)\.snap$/.exec(file);
  if (match === null) return null;
  return match[1] === undefined ? (match[2] ?? '') : `${match[1]}/${match[2] ?? ''}`;
}
