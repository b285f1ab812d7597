/** What a change needs in a cargo project, from `cargo metadata --no-deps`: the members,
 * their targets and their path dependencies. A file of a crate selects every unit of
 * that crate and of each member that depends on it, at any depth; a shared module under
 * tests/ every integration test of its crate; an integration test, example or bench
 * target's own file only itself (the core selects it). What the workspace resolves as a
 * whole (Cargo.lock, a manifest, cargo's config, the toolchain) and a file of no member
 * crate are the whole suite. Pure: paths are absolute, as cargo prints them. */
import path from 'node:path';
import type { AffectedUnits, SelectedUnit } from '../types.js';
import { DOC_UNIT } from './targets.js';

export interface MetaTarget {
  readonly kind: readonly string[];
  readonly name: string;
  readonly src_path: string;
}

export interface MetaDependency {
  readonly name: string;
  /** null for a path dependency. */
  readonly source: string | null;
  readonly path?: string;
}

export interface MetaPackage {
  readonly id: string;
  readonly name: string;
  readonly manifest_path: string;
  readonly targets: readonly MetaTarget[];
  readonly dependencies?: readonly MetaDependency[];
}

export interface Metadata {
  readonly packages: readonly MetaPackage[];
  readonly workspace_members: readonly string[];
  readonly workspace_root: string;
}

/** A file that compiles another in: `include_str!("…")`, `#[path = "…"] mod x;`, or an
 * integration test's `mod common;`. `dir`: every file below `reaches` (the directory of
 * a `#[path]` module that declares modules of its own). */
export interface Inclusion {
  readonly from: string;
  readonly reaches: string;
  readonly dir: boolean;
  /** A `#[path]` module, whose own modules may be beside it. */
  readonly module?: boolean;
}

export interface CrateGraphInput {
  readonly metadata: Metadata;
  /** The project root, its real path. */
  readonly root: string;
  /** Each changed file, absolute, with the name it is shown by (root-relative). */
  readonly changed: readonly { readonly file: string; readonly shown: string }[];
  /** The units, as shard lists them (root-relative target files, `#doc` for doc tests). */
  readonly units: readonly string[];
  readonly inclusions: readonly Inclusion[];
  /** Whether a directory holds a Cargo.toml: a file outside the workspace in a crate. */
  readonly isCrateDir: (dir: string) => boolean;
}

interface Member {
  readonly pkg: MetaPackage;
  readonly dir: string;
  /** Its units, and whether each is an integration test. */
  readonly units: readonly { readonly unit: string; readonly integration: boolean }[];
}

export function cargoAffected(input: CrateGraphInput): AffectedUnits {
  const members = readMembers(input);
  const unpathed = members.flatMap((m) => (m.pkg.dependencies ?? []).filter((d) => d.source === null && d.path === undefined).map((d) => `${d.name} of ${m.pkg.name}`));
  if (unpathed.length > 0) return { wholeSuite: `cargo metadata gives no path for the path dependency ${unpathed[0] ?? ''}: this cargo is too old to say what depends on what` };
  const dependents = reverseDependencies(members);
  const shown = (file: string): string => slashed(path.relative(input.root, file));
  const reasons = new Map<string, string[]>();
  const add = (unit: string, reason: string): void => {
    const list = reasons.get(unit) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(unit, list);
  };
  const crateAndDependents = (member: Member, reason: string): void => {
    for (const { unit } of member.units) add(unit, reason);
    for (const other of dependents(member)) for (const { unit } of other.units) add(unit, `depends on crate ${member.pkg.name}`);
  };
  // A file, and each file that includes it, in turn; `reason` for the crate's own units.
  const queue = input.changed.map(({ file, shown: name }) => ({ file, name, reason: null as string | null }));
  const seen = new Set<string>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { file, name, reason } = next;
    // Once per file and reason: a file that includes two changed files says so for each.
    const key = `${file}\0${reason ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const whole = wholeSuiteFile(file, name, input);
    if (whole !== null) return { wholeSuite: whole };
    const member = memberOf(file, members);
    if (member === null) {
      const outside = outsideFile(file, name, input);
      if (outside !== null) return { wholeSuite: outside };
      continue;
    }
    const placed = placeInCrate(file, member, input.root);
    if (placed === 'integration') {
      for (const { unit, integration } of member.units) if (integration) add(unit, reason ?? `shared test module ${name}`);
    } else if (placed === 'crate') crateAndDependents(member, reason ?? 'same crate');
    else if (reason !== null && member.units.some(({ unit }) => unit === placed.unit)) add(placed.unit, reason);
    for (const inclusion of input.inclusions) {
      if (inclusion.dir ? !within(file, inclusion.reaches) : inclusion.reaches !== file) continue;
      if (selectedAlready(inclusion.from, placed, member, members)) continue;
      queue.push({ file: inclusion.from, name: shown(inclusion.from), reason: `includes ${name}` });
    }
  }
  const units: SelectedUnit[] = [...reasons].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([unit, list]) => ({ unit, reasons: list }));
  return { units };
}

function readMembers(input: CrateGraphInput): Member[] {
  const ids = new Set(input.metadata.workspace_members);
  const packages = input.metadata.packages.filter((pkg) => ids.has(pkg.id));
  const byTarget = new Map<string, { pkg: MetaPackage; integration: boolean }>();
  for (const pkg of packages) for (const target of pkg.targets) byTarget.set(target.src_path, { pkg, integration: target.kind.includes('test') });
  const unitsOf = new Map<MetaPackage, { unit: string; integration: boolean }[]>();
  for (const unit of input.units) {
    const file = unit.endsWith(DOC_UNIT) ? unit.slice(0, -DOC_UNIT.length) : unit;
    const found = byTarget.get(path.resolve(input.root, file));
    if (found === undefined) continue;
    unitsOf.set(found.pkg, [...(unitsOf.get(found.pkg) ?? []), { unit, integration: found.integration }]);
  }
  return packages.map((pkg) => ({ pkg, dir: path.dirname(pkg.manifest_path), units: unitsOf.get(pkg) ?? [] }));
}

/** The members that depend on a member, directly or through others (dev- and build-
 * dependencies too: a test builds with them). */
function reverseDependencies(members: readonly Member[]): (member: Member) => Member[] {
  const byDir = new Map(members.map((m) => [m.dir, m]));
  const users = new Map<Member, Member[]>();
  for (const member of members) {
    for (const dep of member.pkg.dependencies ?? []) {
      const used = dep.path === undefined ? undefined : byDir.get(path.resolve(dep.path));
      if (used !== undefined && used !== member) users.set(used, [...(users.get(used) ?? []), member]);
    }
  }
  return (member) => {
    const found = new Set<Member>();
    const walk = (m: Member): void => {
      for (const user of users.get(m) ?? []) {
        if (found.has(user) || user === member) continue;
        found.add(user);
        walk(user);
      }
    };
    walk(member);
    return [...found];
  };
}

/** The member whose directory holds the file, the innermost. */
function memberOf(file: string, members: readonly Member[]): Member | null {
  let best: Member | null = null;
  for (const member of members) if (within(file, member.dir) && (best === null || member.dir.length > best.dir.length)) best = member;
  return best;
}

/** Whether what a file that includes the placed one selects is selected already: a
 * file of the same crate when the whole crate is, one of its tests/ when all of its
 * integration tests are. */
function selectedAlready(from: string, placed: ReturnType<typeof placeInCrate>, member: Member, members: readonly Member[]): boolean {
  if (typeof placed !== 'string' || memberOf(from, members) !== member) return false;
  return placed === 'crate' || within(from, path.join(member.dir, 'tests'));
}

/** A test, example or bench target's own file is that unit (the core selects it);
 * another .rs file under tests/ a module any integration test may declare; any other
 * file of the crate (its sources, build script, README, data) the whole crate. */
function placeInCrate(file: string, member: Member, root: string): 'crate' | 'integration' | { readonly unit: string } {
  const target = member.pkg.targets.find((t) => t.src_path === file);
  if (target !== undefined && ['test', 'example', 'bench'].some((kind) => target.kind.includes(kind))) return { unit: slashed(path.relative(root, file)) };
  const relative = slashed(path.relative(member.dir, file));
  return target === undefined && relative.startsWith('tests/') && relative.endsWith('.rs') ? 'integration' : 'crate';
}

const slashed = (file: string): string => file.split(path.sep).join('/');

/** Files cargo reads for every crate of the workspace. */
function wholeSuiteFile(file: string, shown: string, input: CrateGraphInput): string | null {
  const name = path.basename(file);
  const dir = path.dirname(file);
  const workspace = path.resolve(input.metadata.workspace_root);
  const governs = (at: string): boolean => within(file, workspace) || within(input.root, at) || within(workspace, at);
  if (name === 'Cargo.lock' && governs(dir)) return `${shown} changed: every crate may build with other dependencies`;
  if (name === 'Cargo.toml' && within(file, workspace)) return `${shown} changed: cargo resolves every member's dependencies and features together`;
  if (['config', 'config.toml'].includes(name) && path.basename(dir) === '.cargo' && governs(path.dirname(dir))) return `${shown} changed: it configures every build`;
  if (['rust-toolchain', 'rust-toolchain.toml'].includes(name) && governs(dir)) return `${shown} changed: it chooses the toolchain every crate builds with`;
  return null;
}

/** A file of no member: in the workspace, any build script or include!() may read it;
 * outside, in a crate, something may depend on that crate through others, which
 * --no-deps does not list. Elsewhere (a sibling project's file) it is no crate's. */
function outsideFile(file: string, shown: string, input: CrateGraphInput): string | null {
  const workspace = path.resolve(input.metadata.workspace_root);
  if (within(file, workspace) || within(file, input.root)) return `${shown} is in no crate of the workspace: a build script or a test may read it`;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (input.isCrateDir(dir)) return `${shown} is in a crate outside the workspace (${slashed(path.relative(input.root, dir))}): cargo metadata --no-deps does not say what depends on it`;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Whether `file` is `dir` or below it. */
const within = (file: string, dir: string): boolean => file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);
