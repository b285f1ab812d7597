import path from 'node:path';
import { usageError } from '../../model/errors.js';
import type { FailedTestRecord } from '../../model/results.js';
import type { ProjectFacts } from '../../project/facts.js';
import { tomlAt, tomlString, tomlTable } from '../../project/toml.js';
import { cargoTestsAt } from './at-line.js';
import { refusedOption } from '../../project/runner-args.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { cargoHumanOutput } from './human.js';
import { packageTargets, targetOfUnit, unitOfSelector } from './targets.js';
import { suiteTarget } from './suite.js';

/** cargo prints artifact messages (which binary is which target of which package) as
 * JSON on stdout and still renders compiler errors as text on stderr; each libtest
 * binary prints its JSON events on stdout. run-tests copies both streams into the
 * report file. `--no-fail-fast`: every target runs even when one fails. */
const CARGO = ['cargo', 'test', '--offline', '--no-fail-fast'] as const;
const CARGO_TEST = [...CARGO, '--message-format', 'json-render-diagnostics'] as const;
const LIBTEST_JSON = ['-Z', 'unstable-options', '--format', 'json', '--report-time'] as const;

/** libtest accepts `-Z unstable-options` on stable when RUSTC_BOOTSTRAP is set at all,
 * while rustc and cargo enable nightly features only for `1` or a crate's own name: a
 * name no crate has unlocks the harness's JSON without changing what compiles. */
export const LIBTEST_BOOTSTRAP = 'run_tests_libtest_json';

export const cargo: Runner = {
  id: 'cargo',
  parsers: { cargo: { load: async () => (await import('./report.js')).createCargoParser } },
  markers: ['Cargo.toml'],
  lookingFor: 'Cargo.toml (cargo test)',
  installHint: 'install Rust with rustup (https://rustup.rs), which provides cargo',
  // A passing test has no file, a failure the file where it failed: the id names the test.
  identity: 'name-and-id',

  detect(facts) {
    if (!facts.exists('Cargo.toml')) return null;
    return isWorkspace(facts.read('Cargo.toml')) ? 'Cargo.toml (a workspace) found: `cargo test`' : 'Cargo.toml found: `cargo test`';
  },

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('cargo-test.jsonl');
    const commands = request.rerun ? rerunCommands(request.rerun) : request.units ? unitCommands(request) : [plainCommand(request)];
    const own = splitAtDashes(request.runnerArgs ?? []);
    const [first, ...rest] = commands.map(({ select, filters }) => [...CARGO_TEST, ...select, ...own.cargo, '--', ...LIBTEST_JSON, ...own.libtest, ...filters]);
    const workspace = workspaceRoot(request.facts, request.root);
    return {
      argv: first ?? [...CARGO_TEST, ...own.cargo, '--', ...LIBTEST_JSON, ...own.libtest],
      ...(rest.length > 0 ? { thenArgv: rest } : {}),
      env: { ...request.env, RUSTC_BOOTSTRAP: request.env['RUSTC_BOOTSTRAP'] ?? LIBTEST_BOOTSTRAP },
      // cargo test as a person types it: JSON messages and libtest's JSON are for run-tests.
      shownArgv: shownCargoCommand,
      humanOutput: cargoHumanOutput,
      cwd: request.root,
      reports: [{ path: report, parser: 'cargo', ...(workspace === request.root ? {} : { hints: { workspace } }) }],
      captureOutput: report,
      requires: ['cargo'],
    };
  },

  /** A unit is a test target, named by its crate root (`tests/api.rs`), or a library's
   * doc tests (`src/lib.rs#doc`); a part runs exactly its targets. */
  shard: {
    selects: 'units',
    // Loaded here, not before the runner starts: cargo metadata runs for --shard only.
    units: async (request) => (await import('./shard.js')).cargoUnits(request),
    unitOf(test, facts) {
      // Its id names its target (a package alone: a compile error, of no one target); a
      // test read back from JUnit has only its suite (`mixed::api`).
      const parsed = parseId(test.id) ?? (test.suite === undefined ? null : suiteTarget(test.suite));
      return parsed === null || parsed.selector.length === 0 ? null : unitOfSelector(facts, parsed.pkg, parsed.selector);
    },
  },

  /** `plan`, `--changed`: a crate's units and its dependents' among the members, from
   * `cargo metadata`; what the workspace resolves together is the whole suite. */
  changes: {
    // Loaded here, not before the runner starts: cargo metadata runs for a plan only.
    affected: async (request) => (await import('./changes.js')).cargoChanges(request),
    // A module replaced by ../lib, a path dependency: files outside the project it places.
    outside: true,
  },

  /** cargo's first `error:` and the lines that explain it, up to a blank line (a
   * dependency it cannot resolve offline, a manifest it cannot read). */
  failureLines(log) {
    const lines = log.split('\n');
    const start = lines.findIndex((line) => /^error(?:\[\w+\])?: /.test(line));
    if (start === -1) return [];
    const end = lines.findIndex((line, i) => i > start && line.trim() === '');
    return lines.slice(start, Math.min(end === -1 ? lines.length : end, start + 5));
  },

  /** The #[test] fn at the line (every one of a `mod` at its other lines), run by its
   * exact libtest path in its target. */
  testsAt(file, at, facts) {
    if ('node' in at) throw usageError(`cargo has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
    return { tests: cargoTestsAt(file, at.line, facts.read(file) ?? '', tomlString(tomlTable(facts.read('Cargo.toml')), 'package', 'name')) };
  },

  /** cargo's own options, and after a `--` of their own the test binaries' (libtest's). */
  refusedArgument(args) {
    const { cargo: options, libtest } = splitAtDashes(args);
    return refusedOption('cargo', options, REFUSED_CARGO) ?? refusedOption('cargo\'s test binaries', libtest, REFUSED_LIBTEST);
  },

  /** A package-level record (a compile error: id = package) is settled once any test
   * of that package has run. */
  covers(record, result) {
    return !record.id.includes(' ') && result.id.startsWith(`${record.id} `);
  },

  /** A test libtest gave no location for (one that returned `Err`, one whose binary
   * crashed): its `fn`, found from the target's crate root along the test's module
   * path. The parser gives a binary or integration test's crate root as its file. */
  async locate(failure, facts) {
    const parsed = parseId(failure.id);
    if (parsed === null || parsed.test === null || parsed.selector[0] === '--doc') return null;
    // Loaded here, not before the runner starts: few runs have a failure to place.
    const { libraryRoot, testDefinition } = await import('./source.js');
    const crateRoot = parsed.selector[0] === '--lib' ? libraryRoot(facts, parsed.pkg) : failure.file;
    return crateRoot === null ? null : testDefinition(facts, crateRoot, parsed.test);
  },
};

/** A planned command (`cargo test … [select] -- <libtest JSON> [filters]`) without the
 * JSON options, and without the `--` when no libtest argument is left. */
export function shownCargoCommand(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  if (end === -1) return argv;
  const libtest = argv.slice(end + 1 + LIBTEST_JSON.length);
  return [...CARGO, ...argv.slice(CARGO_TEST.length, end), ...(libtest.length > 0 ? ['--', ...libtest] : [])];
}

/** What would take the run away from the JSON run-tests reads, or make it run nothing. */
const REFUSED_CARGO: Readonly<Record<string, string>> = {
  '--no-run': 'it builds the tests and runs none',
  '--message-format': "run-tests reads cargo's JSON messages (--message-format json-render-diagnostics)",
  '--help': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
};
const REFUSED_LIBTEST: Readonly<Record<string, string>> = {
  '--format': "run-tests reads libtest's JSON events (--format json)",
  '-q': 'it is --format terse; run-tests reads libtest\'s JSON events (--format json)',
  '--quiet': 'it is --format terse; run-tests reads libtest\'s JSON events (--format json)',
  '--list': 'it lists the tests and runs none',
  '--logfile': 'libtest then writes its results to that file, not where run-tests reads them',
  '--help': 'it prints help and runs no test',
};

/** `run-tests -- <cargo options> -- <test binary options>`, as `cargo test` reads them. */
function splitAtDashes(args: readonly string[]): { cargo: readonly string[]; libtest: readonly string[] } {
  const at = args.indexOf('--');
  return at === -1 ? { cargo: args, libtest: [] } : { cargo: args.slice(0, at), libtest: args.slice(at + 1) };
}

export interface CargoCommand {
  /** Target selection: `-p pkg --test api`, `--lib`, … (empty: every target). */
  readonly select: readonly string[];
  /** libtest arguments after the JSON ones: names, `--exact`. */
  readonly filters: readonly string[];
}

function plainCommand(request: PlanRequest): CargoCommand {
  return { select: targetsOf(request.files, request.facts), filters: nameFilters(request) };
}

function nameFilters({ name }: PlanRequest): string[] {
  if (name?.regex) throw usageError(`--name /${name.text}/: cargo test filters by substring, not by regular expression`);
  return name ? freeArguments([name.text]) : [];
}

/** --shard's part: exactly its targets, one command per package (a target option applies
 * to every package of a command) and its doc tests in one of their own (cargo cannot
 * mix `--doc` with other target options). */
function unitCommands(request: PlanRequest): CargoCommand[] {
  const filters = nameFilters(request);
  const commands = new Map<string, string[]>();
  for (const unit of request.units ?? []) {
    const found = targetOfUnit(request.facts, unit);
    if (found === null) throw usageError(`--shard: ${unit} is no test target of this cargo project`);
    const { target, doc } = found;
    const key = `${target.pkg}${doc ? ' --doc' : ''}`;
    const select = doc ? ['--doc'] : target.kind === 'lib' ? ['--lib'] : targetOption(`--${target.kind}`, target.name);
    commands.set(key, [...(commands.get(key) ?? ['-p', target.pkg]), ...select]);
  }
  if (commands.size === 0) throw usageError('--shard: this part holds no cargo target');
  return [...commands.values()].map((select) => ({ select, filters }));
}

/** The targets of the given files, relative to the package root: `src/**` is the
 * library's unit tests (`--lib`; `--bins` when there is no src/lib.rs), `src/main.rs`
 * and `src/bin/x.rs` their binary (`--bin <name>`), `tests/x.rs` or `tests/x/…` the integration test
 * `x`, likewise examples and benches; `tests/` is every integration test. Anything
 * else (Cargo.toml, build.rs, the root) runs the whole package. */
export function targetsOf(files: readonly string[], facts: ProjectFacts): string[] {
  const selected: string[][] = [];
  for (const file of files) {
    const target = targetOf(file.replace(/\/+$/, ''), facts);
    if (target === null) return [];
    if (!selected.some((s) => s.join('\0') === target.join('\0'))) selected.push(target);
  }
  return selected.flat();
}

const KIND_DIRS: Readonly<Record<string, string>> = { tests: '--test', examples: '--example', benches: '--bench' };

function targetOf(file: string, facts: ProjectFacts): string[] | null {
  const parts = file.split('/');
  const [top = '', second] = parts;
  const stem = (name: string) => name.replace(/\.rs$/, '');
  if (top === 'src') {
    if (file === 'src/main.rs') return mainBinary(facts);
    if (parts[1] === 'bin' && second !== undefined && parts.length > 2) return targetOption('--bin', stem(parts[2] ?? ''));
    return facts.exists('src/lib.rs') ? ['--lib'] : ['--bins'];
  }
  const flag = KIND_DIRS[top];
  if (flag === undefined) return null;
  if (second === undefined) return [`${flag}s`];
  return targetOption(flag, stem(second));
}

/** The binary whose crate root is src/main.rs (the package's name, unless a `[[bin]]`
 * names it), not `--bins`, which would run src/bin/ too. */
function mainBinary(facts: ProjectFacts): string[] {
  const bin = packageTargets(facts, '')?.find((t) => t.kind === 'bin' && t.file === 'src/main.rs');
  return bin === undefined ? ['--bins'] : targetOption('--bin', bin.name);
}

/** `--test api`; `--test=-x` for a target named like an option (`tests/-x.rs`), which
 * cargo would otherwise read as an option of its own. */
export const targetOption = (flag: string, name: string): string[] => (name.startsWith('-') ? [`${flag}=${name}`] : [flag, name]);

/** libtest's free arguments (test names, the --name text) after the options: behind a
 * `--` when one could be read as an option (`--logfile=f` would make libtest write f). */
export const freeArguments = (names: readonly string[]): string[] => (names.some((n) => n.startsWith('-')) ? ['--', ...names] : [...names]);

/** Exact reruns, one command per target so a name never runs in a target it did not
 * fail in. Ids are `<package> <selector> <test>` (a package alone: a compile error,
 * which reruns the whole package). Doc tests are selected by substring: rustdoc splits
 * its test arguments at whitespace, so a doc test's name cannot be passed whole. */
export function rerunCommands(rerun: readonly FailedTestRecord[]): CargoCommand[] {
  const byTarget = new Map<string, { select: string[]; names: Set<string> | null; doc: boolean }>();
  for (const record of rerun) {
    const parsed = parseId(record.id);
    if (parsed === null) continue;
    const key = [parsed.pkg, ...parsed.selector].join(' ');
    const [flag = '', name] = parsed.selector;
    const select = ['-p', parsed.pkg, ...(name === undefined ? parsed.selector : targetOption(flag, name))];
    const entry = byTarget.get(key) ?? { select, names: new Set<string>(), doc: parsed.selector[0] === '--doc' };
    if (parsed.test === null || entry.names === null) entry.names = null;
    else entry.names.add(entry.doc ? docFilter(parsed.test) : parsed.test);
    byTarget.set(key, entry);
  }
  return [...byTarget.values()].map(({ select, names, doc }) => ({
    select,
    filters: names === null ? [] : doc ? freeArguments([...names]) : ['--exact', ...freeArguments([...names])],
  }));
}

/** `mixed --test api api_adds` → package, selector and test; null for an id of another shape. */
export function parseId(id: string): { pkg: string; selector: string[]; test: string | null } | null {
  const m = /^(\S+)(?: (--lib|--doc|--(?:bin|test|example|bench) \S+)(?: (.+))?)?$/.exec(id);
  if (!m?.[1]) return null;
  return { pkg: m[1], selector: m[2]?.split(' ') ?? [], test: m[3] ?? null };
}

/** The most specific whitespace-free part of a doc test's name: the item path of
 * `src/lib.rs - Foo::bar (line 12)`. */
export function docFilter(name: string): string {
  const item = /^\S.*? - (.*?) \(line \d+\)/.exec(name)?.[1] ?? name;
  return item.split(/\s+/).reduce((best, part) => (part.length > best.length ? part : best), '');
}

/** Where rustc runs, which its paths are relative to: the nearest directory at or above
 * the root whose Cargo.toml declares `[workspace]`, else the root. */
export function workspaceRoot(facts: ProjectFacts, root: string): string {
  for (let up = 0; up < 32; up += 1) {
    const relative = up === 0 ? 'Cargo.toml' : `${'../'.repeat(up)}Cargo.toml`;
    const dir = path.resolve(root, '../'.repeat(up));
    if (isWorkspace(facts.read(relative))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  return root;
}

/** A manifest with a `workspace` table, however TOML writes it. */
const isWorkspace = (manifest: string | null): boolean => tomlAt(tomlTable(manifest), 'workspace') !== undefined;
