/** --shard's units of a cargo project, as `cargo metadata` lists them: the targets plain
 * `cargo test` runs in the packages it selects (the workspace's default members at its
 * root, else the package of the manifest), and each library's doc tests. Loaded for
 * --shard only. */
import fs from 'node:fs';
import path from 'node:path';
import { HarnessError, usageError } from '../../model/errors.js';
import { listingStdout } from '../../ecosystems/listed-units.js';
import type { ShardUnit, UnitsRequest } from '../types.js';
import { targetOfUnit, unitName, type CargoTarget, type CargoTargetKind } from './targets.js';

interface MetaTarget {
  readonly kind: readonly string[];
  readonly crate_types?: readonly string[];
  readonly name: string;
  readonly src_path: string;
  readonly test?: boolean;
  readonly doctest?: boolean;
  readonly 'required-features'?: readonly string[] | null;
}

interface MetaPackage {
  readonly id: string;
  readonly name: string;
  readonly manifest_path: string;
  readonly targets: readonly MetaTarget[];
  readonly features?: Readonly<Record<string, readonly string[]>>;
}

interface Metadata {
  readonly packages: readonly MetaPackage[];
  readonly workspace_members: readonly string[];
  /** cargo >= 1.71; the packages a plain `cargo test` here tests. */
  readonly workspace_default_members?: readonly string[];
  readonly workspace_root: string;
}

export async function cargoUnits(request: UnitsRequest): Promise<ShardUnit[]> {
  if (request.files.length > 0) {
    // A file is a target (or a whole package) as targetsOf reads it: parts of whole targets
    // could be dealt from them, but a file of a workspace member selects the member itself.
    throw usageError('--shard deals out every test target of the cargo project: give no files (run from a member\'s directory to shard that member)');
  }
  refuseSelecting(request.runnerArgs ?? []);
  const argv = ['cargo', 'metadata', '--offline', '--no-deps', '--format-version', '1'];
  const out = await listingStdout(argv, request.root, request.env, 'cargo\'s targets (cargo metadata)');
  const metadata = JSON.parse(out) as Metadata;
  // cargo's paths are real ones: the root's, if it is reached through a link.
  const root = fs.realpathSync(request.root);
  const units: ShardUnit[] = [];
  for (const pkg of testedPackages(metadata, root)) {
    for (const target of pkg.targets) {
      const kind = kindOf(target);
      if (kind === null || !enabled(target, pkg)) continue;
      const own = checked(request, { pkg: pkg.name, kind, name: target.name, file: relative(root, target.src_path) });
      const bytes = sizeOf(target.src_path);
      if (target.test === true) units.push({ name: unitName(own, false), bytes });
      if (kind === 'lib' && target.doctest === true && doctested(target)) units.push({ name: unitName(own, true), bytes });
    }
  }
  return units.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** cargo options (before a `--` of their own) that change which packages, targets or
 * required features a run has: the units are those of plain `cargo test`. */
const SELECTING = ['-p', '--package', '--workspace', '--all', '--exclude', '--lib', '--bin', '--bins', '--test', '--tests', '--example', '--examples',
  '--bench', '--benches', '--all-targets', '--doc', '-F', '--features', '--all-features', '--no-default-features', '--manifest-path'];

function refuseSelecting(args: readonly string[]): void {
  const end = args.indexOf('--');
  const found = (end === -1 ? args : args.slice(0, end)).find((arg) => SELECTING.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  if (found !== undefined) throw usageError(`--shard deals out the targets plain \`cargo test\` runs; ${found} changes them: run it without --shard`);
}

/** The packages `cargo test` without `-p` tests in the root. */
function testedPackages(metadata: Metadata, root: string): MetaPackage[] {
  const own = metadata.packages.find((p) => path.dirname(p.manifest_path) === root);
  const atWorkspaceRoot = path.resolve(metadata.workspace_root) === root;
  if (!atWorkspaceRoot) return own === undefined ? [] : [own];
  const ids = metadata.workspace_default_members ?? (own === undefined ? metadata.workspace_members : [own.id]);
  return metadata.packages.filter((p) => ids.includes(p.id));
}

const KINDS: readonly CargoTargetKind[] = ['bin', 'test', 'example', 'bench'];

/** A library of any crate type is `lib`; a build script is no test target. */
function kindOf(target: MetaTarget): CargoTargetKind | null {
  const kind = KINDS.find((k) => target.kind.includes(k));
  if (kind !== undefined) return kind;
  return target.kind.includes('custom-build') ? null : 'lib';
}

/** rustdoc tests a library it can link: not a cdylib, staticlib or dylib alone. */
const doctested = (target: MetaTarget): boolean => (target.crate_types ?? target.kind).some((t) => ['lib', 'rlib', 'proc-macro'].includes(t));

/** A target with `required-features` the default features do not enable is skipped by
 * `cargo test` (and refused when named). */
function enabled(target: MetaTarget, pkg: MetaPackage): boolean {
  const required = target['required-features'] ?? [];
  if (required.length === 0) return true;
  const on = new Set<string>();
  const add = (feature: string): void => {
    if (on.has(feature)) return;
    on.add(feature);
    for (const implied of pkg.features?.[feature] ?? []) add(implied);
  };
  add('default');
  return required.every((feature) => on.has(feature));
}

/** The target as the plan will find it from its unit, or a harness error: a unit the
 * plan cannot select exactly is never dealt. */
function checked(request: UnitsRequest, target: CargoTarget): CargoTarget {
  const found = targetOfUnit(request.facts, target.file)?.target;
  if (found?.pkg === target.pkg && found.kind === target.kind && (target.kind === 'lib' || found.name === target.name)) return target;
  throw new HarnessError('RUNNER_FAILED', `--shard: cargo's ${target.kind} target ${target.name} of ${target.pkg} (${target.file}) is not where its manifest says: run-tests cannot select it exactly`, { path: request.root });
}

const relative = (root: string, file: string): string => path.relative(root, file).split(path.sep).join('/');

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
