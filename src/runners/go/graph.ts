/** What a change needs in a go module, from `go list -deps -test -json ./...`: each
 * changed file is placed in the package go builds or embeds it in (or keeps it in
 * testdata/ for), and a package selects every unit whose test build holds it. Pure: the
 * listing is parsed already, and files are looked for through the given reader. */
import path from 'node:path';
import type { AffectedUnits, SelectedUnit } from '../types.js';

/** The fields of a `go list -json` package this reads. */
export interface ListedGoPackage {
  readonly Dir?: string;
  readonly ImportPath?: string;
  /** Set on a package compiled for another's test (`p [p.test]`, `p_test [p.test]`). */
  readonly ForTest?: string;
  readonly Module?: { readonly Dir?: string };
  readonly Deps?: readonly string[];
  readonly Error?: { readonly Pos?: string; readonly Err?: string };
  readonly [files: string]: unknown;
}

/** The file lists of a package that its importers build too. */
export const BUILT_FILES = ['GoFiles', 'CgoFiles', 'CFiles', 'CXXFiles', 'MFiles', 'HFiles', 'FFiles', 'SFiles', 'SwigFiles',
  'SwigCXXFiles', 'SysoFiles', 'EmbedFiles', 'IgnoredGoFiles', 'IgnoredOtherFiles', 'InvalidGoFiles'] as const;
/** The file lists only the package's own test binary builds. */
export const TEST_FILES = ['TestGoFiles', 'XTestGoFiles', 'TestEmbedFiles', 'XTestEmbedFiles'] as const;

/** Files that decide how every package builds: their change is the whole suite. */
const MODULE_FILES = new Set(['go.mod', 'go.sum']);
const WORKSPACE_FILES = new Set(['go.work', 'go.work.sum']);

export interface GoGraphInput {
  readonly packages: readonly ListedGoPackage[];
  /** A listed directory (absolute, as go printed it) relative to the project root. */
  readonly relative: (dir: string) => string;
  /** The changed files, root-relative (`../` outside the project), none deleted. */
  readonly changed: readonly string[];
  /** The units, as shard lists them: package directories, `.` for the root. */
  readonly units: readonly string[];
  /** The project root, absolute: how far above it a go.mod may be looked for. */
  readonly root: string;
  /** Whether a root-relative file exists (go.mod lookups above a file). */
  readonly exists: (relative: string) => boolean;
}

/** Where a changed file is: in packages (whose importers build it too, or only their own
 * test binary), in nothing go builds (`none`), or where go cannot place it. */
type Placed = readonly Placement[] | 'none' | { readonly unplaced: string };

interface Placement {
  readonly pkg: string;
  readonly testOnly: boolean;
}

export function goAffected(input: GoGraphInput): AffectedUnits {
  const failed = input.packages.find((pkg) => pkg.Error?.Err !== undefined);
  if (failed?.Error !== undefined) return { wholeSuite: `go list failed: ${firstLine(failed.Error)}` };
  const graph = readGraph(input);
  const reasons = new Map<string, string[]>();
  const add = (unit: string, reason: string): void => {
    const list = reasons.get(unit) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(unit, list);
  };
  const depth = input.root.split(path.sep).filter((part) => part !== '').length;
  for (const file of input.changed) {
    const whole = wholeSuiteFile(file, graph);
    if (whole !== null) return { wholeSuite: whole };
    if (graph.headers.has(file)) return { wholeSuite: `${file} is a C header: any package's cgo may include it` };
    const placed = place(file, graph, input.exists, depth);
    if (placed === 'none') continue;
    if ('unplaced' in placed) return { wholeSuite: placed.unplaced };
    for (const { pkg, testOnly } of placed) {
      const own = graph.unitOf.get(pkg);
      if (own !== undefined) add(own, 'same package');
      if (testOnly) continue;
      for (const [unit, built] of graph.builds) if (unit !== own && built.has(pkg)) add(unit, `depends on ${pkg}`);
    }
  }
  const units: SelectedUnit[] = [...reasons].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([unit, list]) => ({ unit, reasons: list }));
  return { units };
}

interface Graph {
  /** Root-relative file → the packages that list it, and whether only their test binary builds it. */
  readonly files: ReadonlyMap<string, readonly Placement[]>;
  /** Root-relative package directory ('' for the root) → import path. */
  readonly dirs: ReadonlyMap<string, string>;
  /** Import path → the unit of its directory. */
  readonly unitOf: ReadonlyMap<string, string>;
  /** Unit → every import path its test build compiles. */
  readonly builds: ReadonlyMap<string, ReadonlySet<string>>;
  /** Root-relative directories of the modules go builds from. */
  readonly modules: ReadonlySet<string>;
  /** Root-relative C headers of cgo packages: `#include "../x/x.h"` reaches across packages. */
  readonly headers: ReadonlySet<string>;
}

function readGraph(input: GoGraphInput): Graph {
  const dirOf = (unit: string): string => (unit === '.' ? '' : unit);
  const unitDirs = new Map(input.units.map((unit) => [dirOf(unit), unit]));
  const byPath = new Map<string, ListedGoPackage>();
  for (const pkg of input.packages) if (pkg.ImportPath !== undefined && isPlain(pkg)) byPath.set(pkg.ImportPath, pkg);
  const files = new Map<string, Placement[]>();
  const dirs = new Map<string, string>();
  const unitOf = new Map<string, string>();
  const builds = new Map<string, Set<string>>();
  const modules = new Set<string>();
  const headers = new Set<string>();
  for (const pkg of input.packages) {
    if (pkg.Dir === undefined || pkg.ImportPath === undefined) continue;
    const dir = cleanDir(input.relative(pkg.Dir));
    if (pkg.Module?.Dir !== undefined) modules.add(cleanDir(input.relative(pkg.Module.Dir)));
    // The test build of a unit: every package listed in its directory (the package, its
    // test variants, its test main) and all they depend on.
    const unit = unitDirs.get(dir);
    if (unit !== undefined) {
      const built = builds.get(unit) ?? new Set<string>();
      for (const dep of [pkg.ImportPath, ...(pkg.Deps ?? [])]) built.add(withoutVariant(dep));
      builds.set(unit, built);
    }
    if (byPath.get(pkg.ImportPath) !== pkg || isTestMain(pkg, byPath)) continue;
    dirs.set(dir, pkg.ImportPath);
    if (unit !== undefined) unitOf.set(pkg.ImportPath, unit);
    const at = (file: string): string => (dir === '' ? file : `${dir}/${file}`);
    const put = (file: string, testOnly: boolean): void => {
      files.set(at(file), [...(files.get(at(file)) ?? []), { pkg: pkg.ImportPath ?? '', testOnly }]);
    };
    // An ignored _test.go file would only ever be built into the package's own tests.
    for (const list of BUILT_FILES) for (const file of fileList(pkg, list)) put(file, list === 'IgnoredGoFiles' && file.endsWith('_test.go'));
    for (const list of TEST_FILES) for (const file of fileList(pkg, list)) put(file, true);
    for (const file of fileList(pkg, 'HFiles')) headers.add(at(file));
  }
  return { files, dirs, unitOf, builds, modules, headers };
}

/** go.mod and go.sum of a module go builds from (or of the project), go.work above or in
 * the project, vendor/modules.txt: each decides how every package builds. */
function wholeSuiteFile(file: string, graph: Graph): string | null {
  const name = path.posix.basename(file);
  const dir = cleanDir(path.posix.dirname(file));
  const inside = !file.startsWith('../');
  if (MODULE_FILES.has(name) && (inside || graph.modules.has(dir))) return `${file} changed: it decides how every package builds`;
  if (WORKSPACE_FILES.has(name) && (inside || /^\.\.(\/\.\.)*$/.test(dir))) return `${file} changed: it decides which modules every package builds with`;
  if (name === 'modules.txt' && path.posix.basename(dir) === 'vendor' && (inside || graph.modules.has(path.posix.dirname(dir)))) {
    return `${file} changed: it decides which vendored packages every package builds with`;
  }
  return null;
}

function place(file: string, graph: Graph, exists: (relative: string) => boolean, depth: number): Placed {
  // A file may be in several packages' lists: embedded by one and by another below it.
  const placed = [...(graph.files.get(file) ?? [])];
  // go never builds testdata/: what is below it is read by the package above it.
  const parts = file.split('/');
  const testdata = parts.indexOf('testdata');
  const reader = testdata === -1 ? undefined : graph.dirs.get(parts.slice(0, testdata).join('/'));
  if (reader !== undefined) placed.push({ pkg: reader, testOnly: true });
  if (placed.length > 0) return placed;
  const dir = cleanDir(path.posix.dirname(file));
  if (file.endsWith('.go') && testdata === -1) {
    const pkg = graph.dirs.get(dir);
    // A .go file in no listed package's directory is in no build: a `_` or `.`
    // directory, a nested module, a directory whose files are all constrained away.
    return pkg === undefined ? 'none' : [{ pkg, testOnly: file.endsWith('_test.go') }];
  }
  const module = moduleDirOf(dir, exists, depth);
  // Outside every module go builds from (a sibling project, a nested module of its own).
  if (module === null || !graph.modules.has(module)) return 'none';
  return { unplaced: `${file} is no file go builds, embeds or keeps in a package's testdata/: a test may read it at run time` };
}

/** The directory of the nearest go.mod at or above `dir`, root-relative (`..` segments
 * above the root, up to the filesystem's top, `depth` directories up); null if none. */
function moduleDirOf(dir: string, exists: (relative: string) => boolean, depth: number): string | null {
  for (let at: string | null = dir; at !== null; at = parentOf(at, depth)) {
    if (exists(at === '' ? 'go.mod' : `${at}/go.mod`)) return at;
  }
  return null;
}

function parentOf(dir: string, depth: number): string | null {
  if (dir === '') return depth > 0 ? '..' : null;
  if (/^\.\.(\/\.\.)*$/.test(dir)) return dir.split('/').length < depth ? `${dir}/..` : null;
  return cleanDir(path.posix.dirname(dir));
}

/** A package as the module has it, not a variant compiled for a test. */
const isPlain = (pkg: ListedGoPackage): boolean => (pkg.ForTest ?? '') === '' && !(pkg.ImportPath ?? '').includes(' [');

/** `p.test`, the generated main of p's test binary, listed in p's directory. */
function isTestMain(pkg: ListedGoPackage, byPath: ReadonlyMap<string, ListedGoPackage>): boolean {
  const ip = pkg.ImportPath ?? '';
  return ip.endsWith('.test') && byPath.get(ip.slice(0, -'.test'.length))?.Dir === pkg.Dir;
}

/** `example.com/m/b [example.com/m/a.test]` → `example.com/m/b`. */
const withoutVariant = (importPath: string): string => {
  const at = importPath.indexOf(' [');
  return at === -1 ? importPath : importPath.slice(0, at);
};

const fileList = (pkg: ListedGoPackage, key: string): readonly string[] => {
  const list = pkg[key];
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
};

/** `.` and `` are the root; other directories as path.posix writes them. */
const cleanDir = (dir: string): string => {
  const clean = path.posix.normalize(dir);
  return clean === '.' ? '' : clean.replace(/\/$/, '');
};

function firstLine(error: { readonly Pos?: string; readonly Err?: string }): string {
  const line = (error.Err ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return error.Pos === undefined || error.Pos === '' ? line : `${error.Pos}: ${line}`;
}
