/** Which test files of a Python project a change can break, from the import graph of
 * its test modules (reporters/python/import_graph.py reads it with Python's own parser):
 * pure, so every rule is tested without a python. THE RULE: wider than needed is
 * allowed, narrower never; whatever the graph cannot place is the whole suite, with why. */
import type { AffectedUnits, SelectedUnit } from '../runners/types.js';

/** The graph as the script prints it; paths relative to the project root. */
export interface ImportGraph {
  /** Every module the entries reach, with the project files it imports (the packages'
   * `__init__.py` on the way, and an entry's own packages' too). */
  readonly modules: Readonly<Record<string, readonly string[]>>;
  /** Modules whose imports cannot be known: unparsable, or a computed import. */
  readonly problems: readonly { readonly file: string; readonly reason: string }[];
  /** Modules loaded before every test (pytest plugins, sitecustomize.py), and why. */
  readonly preloaded: readonly { readonly file: string; readonly why: string }[];
}

export interface PythonChange {
  /** Changed files, relative to the root (`../x` outside it), none deleted. */
  readonly changed: readonly string[];
  /** Every unit of the suite: its test files. */
  readonly units: readonly string[];
  /** Directories imports are resolved against, relative to the root (`../lib` too). */
  readonly roots: readonly string[];
  /** pytest: conftest.py files select the units below them. */
  readonly conftests: boolean;
}

const CONFIGS: ReadonlySet<string> = new Set(['pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py', 'noxfile.py']);
const REQUIREMENTS = /^(?:requirements.*\.(?:txt|in)|constraints.*\.txt|Pipfile|Pipfile\.lock|poetry\.lock|uv\.lock|pdm\.lock)$/;
/** Files pytest reads from the directories above its rootdir too. */
const PYTEST_ABOVE: ReadonlySet<string> = new Set(['conftest.py', 'pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini']);

/** What a run of the tests writes itself: Python's bytecode cache, checked against its
 * source as it is loaded, and pytest's cache (which tests failed last). */
const RUN_CACHE = /(?:^|\/)(?:__pycache__|\.pytest_cache)\//;

const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);
const dirName = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
const below = (file: string, dir: string): boolean => dir === '' || file.startsWith(`${dir}/`);

/** Why one changed file alone is the whole suite, or null when the graph places it (or
 * it is another project's, outside this one and off its import path). */
export function wholeSuiteFile(file: string, change: Pick<PythonChange, 'roots' | 'conftests'>): string | null {
  const name = baseName(file);
  if (RUN_CACHE.test(file)) return null;
  if (file.startsWith('../')) {
    if (change.conftests && PYTEST_ABOVE.has(name) && /^(?:\.\.\/)+[^/]+$/.test(file)) return `${file} changed: pytest reads it from a directory above the project`;
    const root = change.roots.find((r) => r.startsWith('../') && below(file, r));
    return root !== undefined && file.endsWith('.py') ? `${file} changed: it is on the tests' import path (${root}), outside the project` : null;
  }
  if (CONFIGS.has(name)) return `${file} changed: it configures the project and how its tests run`;
  if (REQUIREMENTS.test(name)) return `${file} changed: it sets the packages the tests run with`;
  if (!file.endsWith('.py')) return `${file} is no Python module: the tests may read it at run time, which the import graph cannot place`;
  if (change.conftests && file === 'conftest.py') return 'conftest.py changed: pytest loads it for every test';
  return null;
}

/** conftest.py files pytest loads for the units: in each unit's directory and those above it. */
export function conftestsOf(units: readonly string[], exists: (file: string) => boolean): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const unit of units) {
    for (let dir = dirName(unit); !seen.has(dir); dir = dirName(dir)) {
      seen.add(dir);
      const conftest = dir === '' ? 'conftest.py' : `${dir}/conftest.py`;
      if (exists(conftest)) found.add(conftest);
      if (dir === '') break;
    }
  }
  return [...found].sort();
}

/** The units the change can break, each with why, or the whole suite. */
export function affectedByImports(change: PythonChange, graph: ImportGraph): AffectedUnits {
  const problem = graph.problems[0];
  if (problem !== undefined) return { wholeSuite: `${problem.file} ${problem.reason}: the import graph cannot tell what it loads` };
  const reasons = new Map<string, string[]>();
  const add = (unit: string, reason: string): void => {
    const list = reasons.get(unit) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(unit, list);
  };
  const units = new Set(change.units);
  const importers = reverseEdges(graph.modules);
  for (const file of change.changed) {
    if (file.startsWith('../')) continue;
    if (change.conftests && baseName(file) === 'conftest.py') {
      for (const unit of change.units) if (below(unit, dirName(file))) add(unit, 'conftest.py above it changed');
    }
    if (!Object.hasOwn(graph.modules, file)) continue;
    const next = towards(file, importers);
    const preloaded = graph.preloaded.find((p) => next.has(p.file));
    if (preloaded !== undefined) {
      const via = preloaded.file === file ? '' : ` via ${preloaded.file}`;
      return { wholeSuite: `${file} changed: it is loaded before every test${via} (${preloaded.why})` };
    }
    if (change.conftests && file !== 'conftest.py' && next.has('conftest.py')) {
      return { wholeSuite: `${file} changed: conftest.py imports it, which pytest loads for every test` };
    }
    for (const [module, hop] of next) {
      if (module !== file && units.has(module)) add(module, hop === file ? `imports ${file}` : `imports ${file} via ${hop}`);
    }
    // A unit that reaches the file itself has said so; the others below a conftest.py that does, through it.
    for (const module of next.keys()) {
      if (!change.conftests || module === file || baseName(module) !== 'conftest.py') continue;
      for (const unit of change.units) if (below(unit, dirName(module)) && !next.has(unit)) add(unit, `imports ${file} via ${module}`);
    }
  }
  return { units: [...reasons].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([unit, list]): SelectedUnit => ({ unit, reasons: list })) };
}

function reverseEdges(modules: ImportGraph['modules']): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const [module, deps] of Object.entries(modules)) {
    for (const dep of deps) {
      const list = importers.get(dep) ?? [];
      list.push(module);
      importers.set(dep, list);
    }
  }
  return importers;
}

/** Every module that reaches `file`, with the module it imports first on a shortest way
 * there (breadth first over the importers: linear in the graph). */
function towards(file: string, importers: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const next = new Map<string, string>([[file, file]]);
  const queue = [file];
  for (let i = 0; i < queue.length; i += 1) {
    const here = queue[i] ?? '';
    for (const importer of [...(importers.get(here) ?? [])].sort()) {
      if (next.has(importer)) continue;
      next.set(importer, here);
      queue.push(importer);
    }
  }
  return next;
}
