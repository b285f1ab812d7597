/** `run-tests plan` for rspec, minitest and rails: the units a change can break, from
 * what each Ruby file loads (graph.ts), or the whole suite, with why, for any file the
 * graph cannot place. Wider than needed is allowed; narrower never. */
import path from 'node:path';
import type { ProjectFacts } from '../../project/facts.js';
import type { AffectedRequest, AffectedUnits, ChangedFile, ChangeSupport, SelectedUnit } from '../../runners/types.js';
import { reportersDir } from '../listed-units.js';
import { GraphBuilder, type Graph } from './graph.js';
import { projectInflections, testedName } from './names.js';
import { addRailsEdges, autoloads, eagerLoaded, eagerLoading, isRailsApp } from './rails.js';
import { reverseOf, unitsReaching, unknownReached } from './reach.js';
import { MAX_RUBY_FILES, projectFiles, readSourceFacts, type ProjectFiles } from './sources.js';

export interface RubyChangeOptions {
  /** What every unit loads before its own code, as require names (rspec's `--require`
   * from .rspec, a rake task's `-r`). */
  readonly preloads?: (request: AffectedRequest) => readonly string[];
}

export const rubyChanges = (options: RubyChangeOptions = {}): ChangeSupport => ({
  affected: (request) => affectedUnits(request, options),
  // A gem the Gemfile takes from ../shared, a require_relative or -I directory outside.
  outside: true,
});

const LOCKS = new Set(['Gemfile', 'Gemfile.lock', 'gems.rb', 'gems.locked']);
const HELPERS = new Set(['spec_helper.rb', 'rails_helper.rb', 'test_helper.rb']);

/** Why a changed file is the whole suite whatever the graph says, or null. */
export function wholeSuiteFile(file: string, facts: ProjectFacts, pathGems: readonly string[], eager: string | null): string | null {
  const gem = pathGems.find((dir) => file.startsWith(`${dir}/`));
  if (gem !== undefined) return `${file} is in a gem the Gemfile takes from ${gem}: every test may load it`;
  if (file.startsWith('../')) return null;
  const name = path.posix.basename(file);
  if (LOCKS.has(name)) return `${file} changed: every test may load it`;
  if (name === 'Rakefile') return `${file} changed: it defines the tasks that run the tests`;
  if (name === '.rspec' || name === '.rspec-local') return `${file} changed: rspec reads its options for every spec`;
  if (!file.endsWith('.rb')) return `${file} is no Ruby source the graph knows: a test may read it at run time`;
  if (file.startsWith('config/')) return `${file} changed: configuration every test may load`;
  if (file.startsWith('db/')) return `${file} changed: the test database is built from db/`;
  if (HELPERS.has(name)) return `${file} changed: every test may load it`;
  const data = /(?:^|\/)(fixtures|templates)\//.exec(file)?.[1];
  if (data !== undefined) return `${file} is below ${data}/: a test may read it at run time`;
  if (/(?:^|\/)(?:factories|fabricators)\//.test(file)) return `${file} is a factory definition: the factory library loads every one for every test`;
  if (/(?:^|\/)minitest\/\w+_plugin\.rb$/.test(file)) return `${file} is a minitest plugin: minitest loads every one it finds for every test`;
  if (eager !== null && eagerLoaded(file, facts)) return `${eager}: every test loads ${file}`;
  return null;
}

/** Directories of the gems Gemfile.lock takes from a path (`gem "x", path: "engines/x"`),
 * relative to the project; the project's own gemspec (`.`) is the project itself. */
export function pathGemDirs(facts: ProjectFacts): string[] {
  const lock = facts.read('Gemfile.lock') ?? '';
  return [...lock.matchAll(/^PATH\n {2}remote: (.+)$/gm)].map((m) => path.posix.normalize((m[1] ?? '').trim()).replace(/\/$/, ''))
    .filter((dir) => dir !== '.' && dir !== '' && !path.posix.isAbsolute(dir));
}

async function affectedUnits(request: AffectedRequest, options: RubyChangeOptions): Promise<AffectedUnits> {
  const { facts } = request;
  const rails = isRailsApp(facts);
  const eager = rails ? eagerLoading(facts, request.env) : null;
  const pathGems = pathGemDirs(facts);
  for (const { path: file } of request.changed) {
    const why = wholeSuiteFile(file, facts, pathGems, eager);
    if (why !== null) return { wholeSuite: why };
  }
  // Outside the project only a Ruby file can be loaded (a path gem's files were above).
  const outside = request.changed.filter((file) => file.path.startsWith('../') && file.path.endsWith('.rb'));
  const inside = request.changed.filter((file) => !file.path.startsWith('../'));
  if (inside.length === 0 && outside.length === 0) return { units: [] };
  const found = projectFiles(facts);
  if (found === null) return { wholeSuite: `the project has more than ${MAX_RUBY_FILES} Ruby files, more than a plan reads` };
  const known = new Set(found.ruby);
  const unread = inside.find((file) => !known.has(file.path));
  if (unread !== undefined) return { wholeSuite: `${unread.path} is in a directory the graph does not read` };

  const units = new Set(request.units.map((unit) => unit.name));
  const graph = await readGraph(request, options, { found, outside, units, rails });
  const unknown = unknownReached(graph, [...units], outside.length > 0);
  if (unknown !== null) return { wholeSuite: unknown };
  return selected(graph, [...inside, ...outside], units);
}

interface GraphParts {
  readonly found: ProjectFiles;
  readonly outside: readonly ChangedFile[];
  readonly units: ReadonlySet<string>;
  readonly rails: boolean;
}

/** The graph of the project's files (and of Rails' views), read by the project's Ruby. */
async function readGraph(request: AffectedRequest, options: RubyChangeOptions, { found, outside, units, rails }: GraphParts): Promise<Graph> {
  const { facts, root } = request;
  const templates = rails ? found.templates : [];
  const sources = await readSourceFacts(root, [...found.ruby, ...templates], request.env, reportersDir(request));
  // Changed files outside are reached by the loads that name them, and read no further.
  const files = [...found.ruby, ...outside.map((file) => file.path)];
  const builder = new GraphBuilder({
    root, files, templates, opaqueTemplate: rails ? found.opaque : null, sources, units,
    changed: new Set(request.changed.map((file) => file.path)),
    preloads: options.preloads?.(request) ?? [],
    autoload: autoloads(facts, sources),
    // config/initializers/inflections.rb, or a gem's own Zeitwerk loader in lib/.
    inflections: projectInflections(facts, found.ruby.filter((file) => ['inflect', 'irregular'].some((w) => sources.get(file)?.words.includes(w)))),
  });
  if (rails) addRailsEdges(builder);
  return builder.build();
}

/** The units that reach each changed file, with its reasons; the whole suite when one of
 * them every unit reaches, a data file among the tests, or a deleted file outside. */
function selected(graph: Graph, changed: readonly ChangedFile[], units: ReadonlySet<string>): AffectedUnits {
  const reverse = reverseOf(graph);
  const reasons = new Map<string, string[]>();
  for (const { path: file, change } of changed) {
    const reaching = unitsReaching(graph, reverse, file, units);
    const [loader] = reaching.keys();
    if (loader !== undefined && change === 'deleted') return { wholeSuite: `${file} was deleted, and ${loader} loads it` };
    if (reaching.size === 0 && readAtRunTime(file, units)) return { wholeSuite: `${file} is loaded by no test but lies among them: a test may read it at run time` };
    if (units.size > 1 && reaching.size + (units.has(file) ? 1 : 0) === units.size) return { wholeSuite: everyTest(file, reaching) };
    for (const [unit, why] of reaching) reasons.set(unit, [...(reasons.get(unit) ?? []), why]);
  }
  const byUnit = [...reasons].sort(([a], [b]) => (a < b ? -1 : 1));
  return { units: byUnit.map(([unit, list]): SelectedUnit => ({ unit, reasons: list })) };
}

/** A file among the tests that no test loads is data a test reads (a sample source
 * file), unless it is a test file the suite does not run (test/system/ under Rails). */
const readAtRunTime = (file: string, units: ReadonlySet<string>): boolean =>
  !file.startsWith('../') && /(?:^|\/)(?:spec|test|tests)\//.test(file) && !units.has(file) && testedName(file) === null;

/** The reason for a file every unit reaches, naming the file they reach it through when
 * they share one (`spec/spec_helper.rb`). */
function everyTest(file: string, reaching: ReadonlyMap<string, string>): string {
  const vias = new Set([...reaching.values()].map((why) => / via (\S+)$/.exec(why)?.[1] ?? null));
  const [via] = vias;
  return `every test loads ${file}${vias.size === 1 && via != null ? ` (through ${via})` : ''}`;
}
