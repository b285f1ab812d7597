/** --shard's units for cargo: a test target, named by its crate root relative to the
 * project root (`src/lib.rs`, `src/main.rs`, `tests/api.rs`, `beta/tests/edge.rs`), and
 * a library's doc tests, `src/lib.rs#doc`. `cargo metadata` lists the targets (see
 * shard.ts); the plan and unitOf map a unit to its target and back from the manifests
 * (cargo's own target discovery: declared targets, then src/main.rs, src/bin/, tests/,
 * examples/, benches/), which units() checks against cargo's listing. */
import path from 'node:path';
import type { TomlTable } from 'smol-toml';
import { tomlAt, tomlString, tomlTable } from '../../project/toml.js';
import { manifestIn, packageDirs, type ManifestReader } from './members.js';

export type CargoTargetKind = 'lib' | 'bin' | 'test' | 'example' | 'bench';

export interface CargoTarget {
  readonly pkg: string;
  readonly kind: CargoTargetKind;
  readonly name: string;
  /** The crate root, relative to the project root. */
  readonly file: string;
}

/** The suffix of the unit of a library's doc tests. */
export const DOC_UNIT = '#doc';

/** The unit of a target, or of its doc tests. */
export const unitName = (target: CargoTarget, doc: boolean): string => (doc ? `${target.file}${DOC_UNIT}` : target.file);

/** The target a unit names, and whether it is its doc tests; null when no package's
 * manifest gives it. The package is the nearest one holding the file, as cargo's is. */
export function targetOfUnit(facts: ManifestReader, unit: string): { target: CargoTarget; doc: boolean } | null {
  const doc = unit.endsWith(DOC_UNIT);
  const file = doc ? unit.slice(0, -DOC_UNIT.length) : unit;
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const pkgDir = dir === '.' ? '' : dir;
    const targets = packageTargets(facts, pkgDir);
    if (targets !== null) {
      const target = targets.find((t) => t.file === file && (!doc || t.kind === 'lib'));
      return target === undefined ? null : { target, doc };
    }
    if (pkgDir === '') return null;
  }
}

/** The unit of a test, from its id's package and target selector (`mixed --test api …`,
 * `mixed --doc …`); null for a package-level entry (a compile error) or an unknown target. */
export function unitOfSelector(facts: ManifestReader, pkg: string, selector: readonly string[]): string | null {
  const [flag = '', name] = selector;
  const doc = flag === '--doc';
  const kind = doc ? 'lib' : flag.replace(/^--/, '');
  const target = projectTargets(facts).find((t) => t.pkg === pkg && t.kind === kind && (kind === 'lib' || t.name === name));
  return target === undefined ? null : unitName(target, doc);
}

/** Every package's targets, read once per project's facts: unitOf runs for each test of a run. */
const targetsByProject = new WeakMap<ManifestReader, readonly CargoTarget[]>();

function projectTargets(facts: ManifestReader): readonly CargoTarget[] {
  const known = targetsByProject.get(facts);
  if (known !== undefined) return known;
  const targets = packageDirs(facts).flatMap((dir) => packageTargets(facts, dir) ?? []);
  targetsByProject.set(facts, targets);
  return targets;
}

/** The targets of the package whose manifest is in `dir` (project-relative, '' for the
 * root), or null when that directory holds no package. */
export function packageTargets(facts: ManifestReader, dir: string): CargoTarget[] | null {
  const manifest = tomlTable(facts.read(manifestIn(dir)));
  const pkg = tomlString(manifest, 'package', 'name');
  if (pkg === null) return null;
  const at = (file: string): string => path.posix.join(dir, file);
  const targets: CargoTarget[] = [];
  const lib = tomlString(manifest, 'lib', 'path') ?? (facts.read(at('src/lib.rs')) === null ? null : 'src/lib.rs');
  if (lib !== null) targets.push({ pkg, kind: 'lib', name: pkg, file: at(clean(lib)) });
  for (const kind of ['bin', 'test', 'example', 'bench'] as const) {
    for (const { name, file } of kindTargets(facts, dir, manifest, kind, pkg)) targets.push({ pkg, kind, name, file: at(file) });
  }
  return targets;
}

/** Where cargo looks for each kind's targets, and the manifest keys that turn it off. */
const KINDS: Readonly<Record<Exclude<CargoTargetKind, 'lib'>, { dir: string; table: string; auto: string }>> = {
  bin: { dir: 'src/bin', table: 'bin', auto: 'autobins' },
  test: { dir: 'tests', table: 'test', auto: 'autotests' },
  example: { dir: 'examples', table: 'example', auto: 'autoexamples' },
  bench: { dir: 'benches', table: 'bench', auto: 'autobenches' },
};

interface Found {
  readonly name: string;
  readonly file: string;
}

/** Declared targets of a kind (`[[test]] name, path`), then the ones cargo infers from
 * its directory that none of those names or holds. */
function kindTargets(facts: ManifestReader, dir: string, manifest: TomlTable | null, kind: keyof typeof KINDS, pkg: string): Found[] {
  const { table, auto } = KINDS[kind];
  const inferred = inferTargets(facts, dir, kind, pkg);
  const declared = tableEntries(manifest, table).flatMap((entry): Found[] => {
    const name = typeof entry['name'] === 'string' ? entry['name'] : null;
    const file = typeof entry['path'] === 'string' ? clean(entry['path']) : inferred.find((t) => t.name === name)?.file;
    return name === null || file === undefined ? [] : [{ name, file }];
  });
  if (tomlAt(manifest, 'package', auto) === false) return declared;
  const rest = inferred.filter((t) => !declared.some((d) => d.name === t.name || d.file === t.file));
  return [...declared, ...rest];
}

/** `<dir>/x.rs` and `<dir>/x/main.rs` are target `x`; `src/main.rs` is the package's binary. */
function inferTargets(facts: ManifestReader, dir: string, kind: keyof typeof KINDS, pkg: string): Found[] {
  const base = KINDS[kind].dir;
  const found: Found[] = [];
  if (kind === 'bin' && facts.read(path.posix.join(dir, 'src/main.rs')) !== null) found.push({ name: pkg, file: 'src/main.rs' });
  for (const entry of [...facts.list(path.posix.join(dir, base))].sort()) {
    const file = entry.endsWith('.rs') ? `${base}/${entry}` : `${base}/${entry}/main.rs`;
    if (facts.read(path.posix.join(dir, file)) !== null) found.push({ name: entry.replace(/\.rs$/, ''), file });
  }
  return found;
}

function tableEntries(manifest: TomlTable | null, key: string): Record<string, unknown>[] {
  const value = tomlAt(manifest, key);
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

/** `./tests/x.rs` → `tests/x.rs`. */
const clean = (file: string): string => path.posix.normalize(file.replace(/\\/g, '/'));
