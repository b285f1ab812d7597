import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { cargo } from '../../../../src/runners/cargo/runner.js';
import { packageTargets, targetOfUnit, unitOfSelector } from '../../../../src/runners/cargo/targets.js';
import type { PlanRequest, ShardSupport } from '../../../../src/runners/types.js';
import { factsFromFiles, readProjectFacts } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import { copyFixture, hasTools } from '../../../e2e/helpers.js';

const shard = cargo.shard as ShardSupport;
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => fs.remove(dir)));
});

const fixture = async (name: string): Promise<string> => {
  const dir = await copyFixture(name);
  temps.push(dir);
  return dir;
};
const unitsOf = (root: string) => shard.units({ root, facts: readProjectFacts(root), files: [], env: process.env });
const size = (root: string, file: string): number => fs.statSync(path.join(root, file)).size;

describe('cargo --shard units (cargo metadata)', () => {
  if (!hasTools('cargo')) return void it.skip('needs cargo', () => undefined);

  it('lists every target plain cargo test runs, by its crate root, and the library\'s doc tests', async () => {
    const root = await fixture('cargo-targets');
    // Not tests/gated.rs: it needs a feature the defaults leave off.
    expect(await unitsOf(root)).toEqual([
      { name: 'examples/demo.rs', bytes: size(root, 'examples/demo.rs') },
      { name: 'src/bin/tool.rs', bytes: size(root, 'src/bin/tool.rs') },
      { name: 'src/lib.rs', bytes: size(root, 'src/lib.rs') },
      { name: 'src/lib.rs#doc', bytes: size(root, 'src/lib.rs') },
      { name: 'src/main.rs', bytes: size(root, 'src/main.rs') },
      { name: 'tests/api.rs', bytes: size(root, 'tests/api.rs') },
      { name: 'tests/multi/main.rs', bytes: size(root, 'tests/multi/main.rs') },
    ]);
  });

  it('at a workspace root, its members\' targets; in a member, that member\'s', async () => {
    const root = await fixture('cargo-workspace');
    expect((await unitsOf(root)).map((u) => u.name)).toEqual([
      'alpha/src/lib.rs', 'alpha/src/lib.rs#doc', 'beta/src/lib.rs', 'beta/src/lib.rs#doc', 'beta/tests/edge.rs',
    ]);
    expect((await unitsOf(path.join(root, 'beta'))).map((u) => u.name)).toEqual(['src/lib.rs', 'src/lib.rs#doc', 'tests/edge.rs']);
  });

  it('fails with cargo\'s words where cargo cannot read the project', async () => {
    const root = await fixture('cargo-mixed');
    await fs.appendFile(path.join(root, 'Cargo.toml'), '\n[dependencies]\nnot a toml line\n');
    await expect(unitsOf(root)).rejects.toMatchObject({
      code: 'RUNNER_FAILED', message: expect.stringMatching(/^--shard: listing cargo's targets \(cargo metadata\) failed \(exit 101\):\nerror: /),
    });
  });

  it('refuses files (a file of a member selects the member, not a target), and options that change the targets', async () => {
    const facts = factsFromFiles('/p', {});
    await expect(shard.units({ root: '/p', facts, files: ['tests/api.rs'], env: {} })).rejects.toMatchObject({ code: 'USAGE' });
    for (const option of ['--features', '--features=extra', '-p', '--all-targets', '--test', '--doc']) {
      await expect(shard.units({ root: '/p', facts, files: [], env: {}, runnerArgs: ['--release', option, 'x'] })).rejects.toMatchObject({
        code: 'USAGE', message: `--shard deals out the targets plain \`cargo test\` runs; ${option} changes them: run it without --shard`,
      });
    }
  });

  it('takes the options that keep the targets: cargo\'s --release, and the test binaries\' after their --', async () => {
    const root = await fixture('cargo-workspace');
    const units = await shard.units({ root, facts: readProjectFacts(root), files: [], env: process.env, runnerArgs: ['--release', '--', '--test', '--exact'] });
    expect(units.map((u) => u.name)).toContain('beta/tests/edge.rs');
  });
});

const MANIFEST = `[package]
name = "m"
autoexamples = false

[lib]
path = "lib/m.rs"

[[test]]
name = "renamed"
path = "checks/it.rs"

[[bin]]
name = "cli"

[[example]]
name = "ex"
path = "ex/main.rs"
`;
const FILES = {
  'Cargo.toml': MANIFEST, 'lib/m.rs': '', 'src/main.rs': '', 'src/bin/cli/main.rs': '', 'src/bin/other.rs': '',
  'tests/api.rs': '', 'tests/multi/main.rs': '', 'tests/multi/helper.rs': '', 'tests/data/input.txt': '', 'checks/it.rs': '',
  'examples/skipped.rs': '', 'ex/main.rs': '',
};

describe('cargo targets from the manifests', () => {
  it('finds declared targets, then the ones cargo infers, as cargo does', () => {
    expect(packageTargets(factsFromFiles('/p', FILES), '')).toEqual([
      { pkg: 'm', kind: 'lib', name: 'm', file: 'lib/m.rs' },
      { pkg: 'm', kind: 'bin', name: 'cli', file: 'src/bin/cli/main.rs' },
      { pkg: 'm', kind: 'bin', name: 'm', file: 'src/main.rs' },
      { pkg: 'm', kind: 'bin', name: 'other', file: 'src/bin/other.rs' },
      { pkg: 'm', kind: 'test', name: 'renamed', file: 'checks/it.rs' },
      { pkg: 'm', kind: 'test', name: 'api', file: 'tests/api.rs' },
      { pkg: 'm', kind: 'test', name: 'multi', file: 'tests/multi/main.rs' },
      { pkg: 'm', kind: 'example', name: 'ex', file: 'ex/main.rs' },
    ]);
    expect(packageTargets(factsFromFiles('/p', FILES), 'nothing')).toBeNull();
  });

  it('maps a unit to its target in the nearest package, and a test\'s selector back to its unit', () => {
    const facts = factsFromFiles('/w', {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/a/Cargo.toml': '[package]\nname = "a"\n', 'crates/a/src/lib.rs': '', 'crates/a/tests/t.rs': '',
      'crates/b/Cargo.toml': '[package]\nname = "b"\n', 'crates/b/src/main.rs': '',
    });
    expect(targetOfUnit(facts, 'crates/a/tests/t.rs')).toEqual({ target: { pkg: 'a', kind: 'test', name: 't', file: 'crates/a/tests/t.rs' }, doc: false });
    expect(targetOfUnit(facts, 'crates/a/src/lib.rs#doc')).toEqual({ target: { pkg: 'a', kind: 'lib', name: 'a', file: 'crates/a/src/lib.rs' }, doc: true });
    expect(targetOfUnit(facts, 'crates/b/src/main.rs#doc')).toBeNull(); // a binary has no doc tests
    expect(targetOfUnit(facts, 'crates/a/tests/none.rs')).toBeNull();
    expect(unitOfSelector(facts, 'a', ['--test', 't'])).toBe('crates/a/tests/t.rs');
    expect(unitOfSelector(facts, 'a', ['--lib'])).toBe('crates/a/src/lib.rs');
    expect(unitOfSelector(facts, 'a', ['--doc'])).toBe('crates/a/src/lib.rs#doc');
    expect(unitOfSelector(facts, 'b', ['--bin', 'b'])).toBe('crates/b/src/main.rs');
    expect(unitOfSelector(facts, 'b', ['--lib'])).toBeNull();
  });

  it('names the unit of a test by its id: its package and target', () => {
    const facts = factsFromFiles('/p', FILES);
    const unitOf = (id: string, file: string | null = null) => shard.unitOf?.({ id, name: id, file, suite: 'x' }, facts);
    expect(unitOf('m --lib tests::adds')).toBe('lib/m.rs');
    expect(unitOf('m --doc lib/m.rs - add (line 3)')).toBe('lib/m.rs#doc');
    // A failure's file is where it panicked, not its target.
    expect(unitOf('m --test renamed it_works', 'tests/common/mod.rs')).toBe('checks/it.rs');
    expect(unitOf('m --bin cli tests::x')).toBe('src/bin/cli/main.rs');
    expect(unitOf('m --test multi a')).toBe('tests/multi/main.rs');
    expect(unitOf('m')).toBeNull(); // a compile error: the whole package
    expect(unitOf('other --lib x')).toBeNull();
    // Read back from JUnit: no id of cargo's, its suite only.
    const fromJunit = (suite: string) => shard.unitOf?.({ id: '::unit: x', name: 'unit: x', file: null, suite }, facts);
    expect(fromJunit('m')).toBe('lib/m.rs');
    expect(fromJunit('m::renamed')).toBe('checks/it.rs');
    expect(fromJunit('m::bin/cli')).toBe('src/bin/cli/main.rs');
    expect(fromJunit('m::doc/m')).toBe('lib/m.rs#doc');
    expect(fromJunit('m::example/ex')).toBe('ex/main.rs');
    expect(fromJunit('cargo')).toBeNull();
  });
});

describe('cargo plan of a part', () => {
  const request = (units: string[], over: Partial<PlanRequest> = {}): PlanRequest => ({
    root: '/p', facts: factsFromFiles('/p', FILES), files: [], units, name: null, rerun: null,
    artifacts: artifactPaths('/p', 'ID'), env: {}, reportersDir: '/r', ...over,
  });
  const commands = (plan: ReturnType<typeof cargo.plan>) => [plan.argv, ...(plan.thenArgv ?? [])].map((argv) => {
    const end = argv.indexOf('--');
    return [...argv.slice(argv.indexOf('json-render-diagnostics') + 1, end), '|', ...argv.slice(end + 6)].join(' ');
  });

  it('runs exactly its targets, its doc tests in a command of their own', () => {
    expect(commands(cargo.plan(request(['src/main.rs', 'lib/m.rs#doc', 'checks/it.rs', 'lib/m.rs', 'src/bin/cli/main.rs'])))).toEqual([
      '-p m --bin m --test renamed --lib --bin cli |',
      '-p m --doc |',
    ]);
    expect(commands(cargo.plan(request(['tests/api.rs'], { name: { text: '-x', regex: false } })))).toEqual(['-p m --test api | -- -x']);
  });

  it('runs each package of a workspace in a command of its own', () => {
    const facts = factsFromFiles('/w', {
      'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\n',
      'a/Cargo.toml': '[package]\nname = "a"\n', 'a/src/lib.rs': '', 'b/Cargo.toml': '[package]\nname = "b"\n', 'b/src/lib.rs': '', 'b/tests/-x.rs': '',
    });
    expect(commands(cargo.plan(request(['b/tests/-x.rs', 'a/src/lib.rs', 'b/src/lib.rs'], { facts })))).toEqual(['-p b --test=-x --lib |', '-p a --lib |']);
  });

  it('refuses a unit that is no target, and a part without units', () => {
    expect(() => cargo.plan(request(['tests/data/input.txt']))).toThrow('--shard: tests/data/input.txt is no test target of this cargo project');
    expect(() => cargo.plan(request([]))).toThrow('--shard: this part holds no cargo target');
  });
});
