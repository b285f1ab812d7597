/** `run-tests plan` and `--changed` for cargo, whose graph is `cargo metadata`'s members
 * and path dependencies, on test/fixtures/projects/changed-cargo: core <- mid (with a
 * build script) <- app; solo compiles core/data/words.txt in and reads docs/notes.txt at
 * run time; core's integration tests share tests/common/mod.rs. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { hasTools, runJson } from './helpers.js';
import { gitFixture, planJson, touch, unitLines } from './changed-support.js';

const suite = hasTools('cargo') ? describe : describe.skip;
/** One target dir for this file, out of the copy (git would see it). */
const cargoEnv: NodeJS.ProcessEnv = { CARGO_TARGET_DIR: '', RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };
const COMPILES = 240_000;
const CORE = ['core/src/lib.rs: same crate', 'core/src/lib.rs#doc: same crate', 'core/tests/api.rs: same crate', 'core/tests/more.rs: same crate'];
const ON_CORE = ['app/src/main.rs: depends on crate core_lib', ...CORE, 'mid/src/lib.rs: depends on crate core_lib', 'mid/src/lib.rs#doc: depends on crate core_lib'].sort();
const ON_MID = ['app/src/main.rs: depends on crate mid', 'mid/src/lib.rs: same crate', 'mid/src/lib.rs#doc: same crate'].sort();

/** The one project's plan of the fixture's copy as changed, and the exit code. */
async function planOf(dir: string): Promise<{ exitCode: number | null; units: string[]; whole: string | null; changed: string[] }> {
  const { exitCode, projects } = await planJson(dir);
  expect(projects.map((p) => [p.framework, p.error])).toEqual([['cargo', null]]);
  const plan = projects[0]?.plan ?? null;
  return { exitCode, units: unitLines(plan), whole: plan?.whole_suite?.reason ?? null, changed: (plan?.changed ?? []).map((c) => `${c.file} ${c.change}`) };
}

suite('run-tests plan and --changed for cargo (cargo metadata)', () => {
  beforeAll(async () => {
    cargoEnv.CARGO_TARGET_DIR = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-changed-cargo-target-'));
  });
  afterAll(async () => {
    if (cargoEnv.CARGO_TARGET_DIR) await fs.remove(cargoEnv.CARGO_TARGET_DIR);
  });

  it.concurrent('a crate\'s source: every unit of the crate and of each member depending on it, at any depth', async () => {
    const dir = await gitFixture('changed-cargo');
    touch(dir, 'core/src/parse.rs');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: ON_CORE, whole: null, changed: ['core/src/parse.rs modified'] });
    // A file another member compiles in (include_str!) selects that member too.
    const words = await gitFixture('changed-cargo');
    touch(words, 'core/data/words.txt', 'four\n');
    expect((await planOf(words)).units).toEqual([...ON_CORE, 'solo/src/lib.rs: includes core/data/words.txt', 'solo/src/lib.rs#doc: includes core/data/words.txt'].sort());
    const build = await gitFixture('changed-cargo');
    touch(build, 'mid/build.rs');
    expect((await planOf(build)).units).toEqual(ON_MID);
  });

  it.concurrent('an integration test: that target alone; the module its tests share: each of them', async () => {
    const dir = await gitFixture('changed-cargo');
    touch(dir, 'core/tests/api.rs');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: ['core/tests/api.rs: changed test file'], whole: null, changed: ['core/tests/api.rs modified'] });
    const shared = await gitFixture('changed-cargo');
    touch(shared, 'core/tests/common/mod.rs');
    expect((await planOf(shared)).units).toEqual(['core/tests/api.rs: shared test module core/tests/common/mod.rs', 'core/tests/more.rs: shared test module core/tests/common/mod.rs']);
  });

  it.concurrent('Cargo.lock, a member\'s manifest, a file read at run time from no crate: the whole suite, said why', async () => {
    const cases: [string, string][] = [
      ['Cargo.lock', 'Cargo.lock changed: every crate may build with other dependencies'],
      ['mid/Cargo.toml', "mid/Cargo.toml changed: cargo resolves every member's dependencies and features together"],
      ['docs/notes.txt', 'docs/notes.txt is in no crate of the workspace: a build script or a test may read it'],
    ];
    for (const [file, reason] of cases) {
      const dir = await gitFixture('changed-cargo');
      touch(dir, file);
      expect([file, await planOf(dir)]).toEqual([file, { exitCode: 0, units: [], whole: reason, changed: [`${file} modified`] }]);
    }
  });

  it.concurrent('a deleted file is the whole suite; a clean tree is nothing to run', async () => {
    const dir = await gitFixture('changed-cargo');
    expect(await planOf(dir)).toEqual({ exitCode: 0, units: [], whole: null, changed: [] });
    await fs.remove(path.join(dir, 'core/data/words.txt'));
    expect(await planOf(dir)).toEqual({
      exitCode: 0, units: [], whole: 'core/data/words.txt was deleted: what loaded it cannot be told from the tree as it is', changed: ['core/data/words.txt deleted'],
    });
  });

  it('--changed runs exactly the planned targets\' tests', async () => {
    const dir = await gitFixture('changed-cargo');
    touch(dir, 'mid/build.rs');
    const { exitCode, report } = await runJson(['--cwd', dir, '--changed'], { env: cargoEnv });
    expect([exitCode, report.status, report.warnings]).toEqual([0, 'passed', []]);
    // mid's unit and doc test, app's unit test.
    expect(report.summary).toEqual({ run: 3, passed: 3, failures: 0, errors: 0, skips: 0 });
    expect(unitLines(report.plan ?? null)).toEqual(ON_MID);
  }, COMPILES);
});
