import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { cargo } from '../../../../src/runners/cargo/runner.js';
import { cargoAffected } from '../../../../src/runners/cargo/crate-graph.js';
import { inclusionsIn } from '../../../../src/runners/cargo/includes.js';
import type { AffectedUnits, ChangeSupport, ShardSupport } from '../../../../src/runners/types.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import { hasTools } from '../../../e2e/helpers.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => fs.remove(dir)));
});

const manifest = (name: string, more = '') => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${more}`;
const lib = '#[test]\nfn t() {}\n';

/** A workspace (core; mid on core; app dev-depending on mid and on a crate outside; solo,
 * compiling a file of core's in) beside that outside crate and a directory of no crate. */
async function workspace(): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-changes-')));
  temps.push(dir);
  const files: Record<string, string> = {
    'ws/Cargo.toml': '[workspace]\nmembers = ["core", "mid", "app", "solo"]\nresolver = "2"\n',
    'ws/README.md': 'r\n',
    'ws/core/Cargo.toml': manifest('core', '\n[features]\nextra = []\n\n[[test]]\nname = "gated"\nrequired-features = ["extra"]\n'),
    'ws/core/src/lib.rs': `mod parse;\n${lib}`,
    'ws/core/src/parse.rs': '',
    'ws/core/src/shared.rs': 'pub fn s() {}\n',
    'ws/core/tests/api.rs': `mod common;\n${lib}`,
    'ws/core/tests/common.rs': 'pub fn c() {}\n',
    'ws/core/tests/gated.rs': lib,
    'ws/core/tests/data/input.json': '{}\n',
    'ws/core/examples/demo.rs': 'fn main() {}\n',
    'ws/core/examples/helper/mod.rs': '',
    'ws/mid/Cargo.toml': manifest('mid', '\n[dependencies]\ncore = { path = "../core" }\n'),
    'ws/mid/build.rs': 'fn main() {}\n',
    'ws/mid/src/lib.rs': lib,
    'ws/app/Cargo.toml': manifest('app', '\n[dependencies]\nouter = { path = "../../outer" }\n\n[dev-dependencies]\nmid = { path = "../mid" }\n'),
    'ws/app/src/main.rs': `fn main() {}\n${lib}`,
    'ws/solo/Cargo.toml': manifest('solo'),
    'ws/solo/src/lib.rs': `#[path = "../../core/src/shared.rs"]\nmod shared;\n#[path = "../../core/gen/mod.rs"]\nmod gen;\n${lib}`,
    'ws/core/gen/mod.rs': 'mod part;\n',
    'ws/core/gen/part.rs': '',
    'outer/Cargo.toml': manifest('outer'),
    'outer/src/lib.rs': '',
    'notes/todo.txt': 't\n',
  };
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
  return path.join(dir, 'ws');
}

/** What the cargo graph says of `changed`, given every unit shard lists. */
async function affected(root: string, changed: string[]): Promise<AffectedUnits> {
  const facts = readProjectFacts(root);
  const units = await (cargo.shard as ShardSupport).units({ root, facts, files: [], env: process.env });
  return (cargo.changes as ChangeSupport).affected({ root, facts, files: [], env: process.env, units, changed: changed.map((p) => ({ path: p, change: 'modified' })) });
}

const lines = (result: AffectedUnits): string[] | string =>
  result.wholeSuite ?? result.units.map((u) => `${u.unit}: ${u.reasons.join('; ')}`);

describe('cargo changes (cargo metadata)', () => {
  if (!hasTools('cargo')) return void it.skip('needs cargo', () => undefined);
  let root = '';
  beforeAll(async () => {
    root = await workspace();
  });

  it('selects a crate\'s units and those of every member depending on it, through dev- and build-dependencies too', async () => {
    const core = ['core/src/lib.rs: same crate', 'core/src/lib.rs#doc: same crate', 'core/tests/api.rs: same crate', 'core/tests/common.rs: same crate'];
    const users = ['app/src/main.rs: depends on crate core', 'mid/src/lib.rs: depends on crate core', 'mid/src/lib.rs#doc: depends on crate core'];
    expect(lines(await affected(root, ['core/src/parse.rs']))).toEqual([users[0], ...core, ...users.slice(1)]);
    // A file of the crate no graph holds (data, an example's module) is its crate's too.
    expect(lines(await affected(root, ['core/tests/data/input.json']))).toEqual([users[0], ...core, ...users.slice(1)]);
    expect(lines(await affected(root, ['core/examples/helper/mod.rs']))).toEqual([users[0], ...core, ...users.slice(1)]);
    expect(lines(await affected(root, ['mid/build.rs']))).toEqual(['app/src/main.rs: depends on crate mid', 'mid/src/lib.rs: same crate', 'mid/src/lib.rs#doc: same crate']);
    // A file another member compiles in by #[path] selects that member too.
    const solo = (file: string) => [`solo/src/lib.rs: includes ${file}`, `solo/src/lib.rs#doc: includes ${file}`];
    expect(lines(await affected(root, ['core/src/shared.rs']))).toEqual([users[0], ...core, ...users.slice(1), ...solo('core/src/shared.rs')]);
    // And the modules such a module declares, beside it.
    expect(lines(await affected(root, ['core/gen/part.rs']))).toEqual([users[0], ...core, ...users.slice(1), ...solo('core/gen/part.rs')]);
  });

  it('selects only what declares a test target\'s file as a module, and nothing for a target plain cargo test does not run', async () => {
    // tests/common.rs is a target of its own (the core selects it) and a module of tests/api.rs.
    expect(lines(await affected(root, ['core/tests/common.rs']))).toEqual(['core/tests/api.rs: includes core/tests/common.rs']);
    expect(lines(await affected(root, ['core/tests/api.rs', 'core/tests/gated.rs', 'core/examples/demo.rs']))).toEqual([]);
  });

  it('is the whole suite for what the workspace resolves together and for a file of no member', async () => {
    expect(lines(await affected(root, ['Cargo.lock']))).toBe('Cargo.lock changed: every crate may build with other dependencies');
    expect(lines(await affected(root, ['core/src/parse.rs', 'mid/Cargo.toml']))).toBe("mid/Cargo.toml changed: cargo resolves every member's dependencies and features together");
    expect(lines(await affected(root, ['.cargo/config.toml']))).toBe('.cargo/config.toml changed: it configures every build');
    expect(lines(await affected(root, ['../.cargo/config']))).toBe('../.cargo/config changed: it configures every build');
    expect(lines(await affected(root, ['rust-toolchain.toml']))).toBe('rust-toolchain.toml changed: it chooses the toolchain every crate builds with');
    expect(lines(await affected(root, ['README.md']))).toBe('README.md is in no crate of the workspace: a build script or a test may read it');
    expect(lines(await affected(root, ['../outer/src/lib.rs']))).toBe('../outer/src/lib.rs is in a crate outside the workspace (../outer): cargo metadata --no-deps does not say what depends on it');
    // A file of no crate outside the workspace is no crate's.
    expect(lines(await affected(root, ['../notes/todo.txt']))).toEqual([]);
  });

  it('in a member\'s directory, its units for a change in a member it depends on, named from the member', async () => {
    expect(lines(await affected(path.join(root, 'mid'), ['../core/src/parse.rs']))).toEqual(['src/lib.rs: depends on crate core', 'src/lib.rs#doc: depends on crate core']);
    expect(lines(await affected(path.join(root, 'mid'), ['../solo/src/lib.rs']))).toEqual([]);
    expect(lines(await affected(path.join(root, 'mid'), ['../Cargo.lock']))).toBe('../Cargo.lock changed: every crate may build with other dependencies');
  });

  // Last: it breaks the workspace.
  it('is the whole suite, with cargo\'s error, when cargo cannot read the workspace', async () => {
    await fs.outputFile(path.join(root, 'solo/Cargo.toml'), '[package\n');
    const facts = readProjectFacts(root);
    const request = { root, facts, files: [], env: process.env, units: [], changed: [{ path: 'core/src/parse.rs', change: 'modified' as const }] };
    expect(lines(await (cargo.changes as ChangeSupport).affected(request))).toMatch(/^cargo metadata failed: error: .* \(solo\/Cargo\.toml:1:\d+\)$/);
  });
});

describe('cargo changes, from the metadata read', () => {
  const pkg = (name: string, dependencies: { name: string; source: string | null; path?: string }[] = []) => ({
    id: name, name, manifest_path: `/w/${name}/Cargo.toml`, targets: [{ kind: ['lib'], name, src_path: `/w/${name}/src/lib.rs` }], dependencies,
  });
  const input = (packages: ReturnType<typeof pkg>[]) => ({
    metadata: { packages, workspace_members: packages.map((p) => p.id), workspace_root: '/w' }, root: '/w',
    changed: [{ file: '/w/a/src/lib.rs', shown: 'a/src/lib.rs' }], units: packages.map((p) => `${p.name}/src/lib.rs`), inclusions: [], isCrateDir: () => false,
  });

  it('follows dependency cycles (through dev-dependencies) once', () => {
    const result = cargoAffected(input([pkg('a', [{ name: 'b', source: null, path: '/w/b' }]), pkg('b', [{ name: 'a', source: null, path: '/w/a' }])]));
    expect(lines(result)).toEqual(['a/src/lib.rs: same crate', 'b/src/lib.rs: depends on crate a']);
  });

  it('is the whole suite where cargo gives no path for a path dependency (cargo before 1.51)', () => {
    expect(lines(cargoAffected(input([pkg('a'), pkg('b', [{ name: 'a', source: null }])])))).toBe('cargo metadata gives no path for the path dependency a of b: this cargo is too old to say what depends on what');
  });
});

describe('cargo changes: what a file compiles in', () => {
  it('reads include macros and #[path] relative to the file, and mod declarations under tests/', () => {
    const text = [
      'const A: &str = include_str!("../data/a.txt");', 'const B: &[u8] = include_bytes!(r"b.bin");', 'include!("gen.rs");',
      '#[path = "sys/linux.rs"]', 'mod sys;', '#[cfg_attr(unix, path = "unix.rs")]', 'mod os;', 'mod common;', 'pub(crate) mod util;',
    ].join('\n');
    expect(inclusionsIn('/w/c/src/lib.rs', text, '/w/c/tests').map((i) => `${i.reaches}${i.dir ? '/' : ''}`)).toEqual([
      '/w/c/data/a.txt', '/w/c/src/b.bin', '/w/c/src/gen.rs', '/w/c/src/sys/linux.rs', '/w/c/src/unix.rs',
    ]);
    expect(inclusionsIn('/w/c/tests/api.rs', 'mod common;\npub(crate) mod util;\nfn x() {}', '/w/c/tests').map((i) => i.reaches)).toEqual([
      '/w/c/tests/common.rs', '/w/c/tests/common/mod.rs', '/w/c/tests/util.rs', '/w/c/tests/util/mod.rs',
    ]);
  });
});
