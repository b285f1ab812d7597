import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures as inOrder, hasTools, processGone, runCli, runJson, waitFor } from './helpers.js';

const suite = hasTools('cargo') ? describe : describe.skip;

/** One target dir for this file: builds are shared between tests and kept out of the repo. */
const cargoEnv: NodeJS.ProcessEnv = { CARGO_TARGET_DIR: '', RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runJson(args, { env: { ...cargoEnv, ...env } });
const COMPILES = 240_000;
/** libtest runs a binary's tests on several threads: results come in finishing order. */
const failures = (report: RunReport) => inOrder(report).sort((a, b) => a[0].localeCompare(b[0]));


const MIXED_FAILURES = [
  ['doc: src/lib.rs - double (line 12)', 'src/lib.rs', 12, 'failed'], // where the example starts
  ['integration tests/api.rs: api_doubles_wrongly', 'tests/api.rs', 11, 'failed'],
  ['unit: tests::adds_wrongly', 'src/lib.rs', 36, 'failed'],
  ['unit: tests::panics_in_helper', 'src/lib.rs', 21, 'failed'], // where the panic is reported: in the helper
];

suite('cargo test', () => {
  let mixed = '';
  beforeAll(async () => {
    cargoEnv.CARGO_TARGET_DIR = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-target-'));
    // Build the hang fixture first, so the timeout test measures the test, not the build.
    const warm = await copyFixture('cargo-hang');
    const built = spawnSync('cargo', ['test', '--offline', '--no-run'], { cwd: warm, env: { ...process.env, ...cargoEnv }, encoding: 'utf8' });
    expect(built.status).toBe(0);
    mixed = await copyFixture('cargo-mixed');
  }, COMPILES);
  afterAll(async () => {
    if (cargoEnv.CARGO_TARGET_DIR) await fs.remove(cargoEnv.CARGO_TARGET_DIR);
  });

  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await copyFixture('cargo-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await run(['--cwd', dir, '--timeout', '8', '--kill-grace', '1'], { HANG_PID_FILE: pidFile });
    expect([exitCode, report.status, report.timed_out]).toEqual([124, 'timed_out', true]);
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.running_at_timeout).toEqual([{ name: 'hangs_forever', file: 'tests/hang.rs' }]);
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toMatch(/run-tests: timed out after 8s/);
  }, COMPILES);

  it('reports unit, integration and doc tests apart, with exact counts, files and lines, and reruns exactly the failures', async () => {
    const { exitCode, report } = await run(['--cwd', mixed]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, framework: 'cargo', reason: 'Cargo.toml found: `cargo test`', project_root: mixed,
      exit_status: 101, signal: null, timed_out: false, warnings: [], error: null, next: `run-tests --cwd ${mixed} --failed-only`,
    });
    expect(report.command).toBe('cargo test --offline --no-fail-fast');
    expect(report.summary).toEqual({ run: 9, passed: 4, failures: 4, errors: 0, skips: 1 });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    expect(report.failed_tests.map((t) => t.id).sort()).toEqual([
      'cargo_mixed --doc src/lib.rs - double (line 12)', 'cargo_mixed --lib tests::adds_wrongly',
      'cargo_mixed --lib tests::panics_in_helper', 'cargo_mixed --test api api_doubles_wrongly',
    ]);
    expect(report.failed_tests.find((t) => t.test_name === 'unit: tests::adds_wrongly')?.message).toBe('assertion `left == right` failed: two and two\n  left: 4\n right: 5');

    const rerun = await run(['--cwd', mixed, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun]).toEqual([1, { selected: 4, not_run: [] }]);
    // Each target is its own command: a name never runs in a target it did not fail in.
    expect(rerun.report.command).toMatch(/^cargo test --offline --no-fail-fast -p cargo_mixed --lib -- --exact tests::\w+ tests::\w+ ; /);
    expect(rerun.report.command).toContain(' ; cargo test --offline --no-fail-fast -p cargo_mixed --test api -- --exact api_doubles_wrongly ; ');
    expect(rerun.report.command).toMatch(/ ; cargo test --offline --no-fail-fast -p cargo_mixed --doc -- double$/);
    expect(rerun.report.summary).toEqual({ run: 4, passed: 0, failures: 4, errors: 0, skips: 0 });
    expect(failures(rerun.report)).toEqual(MIXED_FAILURES);
  }, COMPILES);

  it('filters by --name as a substring, and maps a file to its target', async () => {
    const named = await run(['--cwd', mixed, '--name', 'adds']);
    expect([named.exitCode, named.report.summary]).toEqual([1, { run: 3, passed: 2, failures: 1, errors: 0, skips: 0 }]);
    expect(failures(named.report)).toEqual([MIXED_FAILURES[2]]);
    const file = await run(['--cwd', mixed, 'tests/api.rs']);
    expect([file.exitCode, file.report.command, file.report.summary]).toEqual([
      1, 'cargo test --offline --no-fail-fast --test api', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 },
    ]);
    const regex = await runCli(['--cwd', mixed, '--name', '/^adds/'], { env: cargoEnv });
    expect([regex.exitCode, regex.stderr]).toEqual([2, 'run-tests: --name /^adds/: cargo test filters by substring, not by regular expression\n']);
  }, COMPILES);

  it('never turns --name into a libtest option: --name=--logfile=FILE filters by that text and leaves FILE alone', async () => {
    const victim = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-victim-')), 'keep.txt');
    await fs.writeFile(victim, 'precious\n');
    const { exitCode, report } = await run(['--cwd', mixed, `--name=--logfile=${victim}`]);
    expect([exitCode, report.status, report.summary.run]).toEqual([4, 'no_tests', 0]);
    expect(report.command).toMatch(new RegExp(`^cargo test --offline --no-fail-fast -- -- --logfile=${victim.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(await fs.readFile(victim, 'utf8')).toBe('precious\n');
  }, COMPILES);

  it('runs a test file named like an option as that target, never as a cargo option', async () => {
    const dir = await copyFixture('cargo-mixed');
    await fs.copy(path.join(dir, 'tests/api.rs'), path.join(dir, 'tests/--foo.rs'));
    // --file takes a value that starts with a dash; after `--` it would be cargo's option.
    const cli = await runCli(['--cwd', dir, '--json', '--file=tests/--foo.rs'], { env: cargoEnv });
    const [exitCode, report] = [cli.exitCode, JSON.parse(cli.stdout) as RunReport];
    expect([exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(report.command).toBe('cargo test --offline --no-fail-fast --test=--foo');
    expect(failures(report)).toEqual([['integration tests/--foo.rs: api_doubles_wrongly', 'tests/--foo.rs', 11, 'failed']]);
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, failures(rerun.report)]).toEqual([1, { selected: 1, not_run: [] }, failures(report)]);
  }, COMPILES);

  it.each([
    ['stdout alone', [], ['tests::adds_wrongly', 'tests::panics_in_helper', 'api_doubles_wrongly', 'doc: src/lib.rs - double (line 12)']],
    ['stdout and stderr', ['2>&1'], ['unit: tests::adds_wrongly', 'unit: tests::panics_in_helper', 'integration tests/api.rs: api_doubles_wrongly', 'doc: src/lib.rs - double (line 12)']],
  ])('parses the text of a plain cargo test run saved with %s', async (_label, redirect, names) => {
    const saved = path.join(mixed, `cargo-test-${redirect.length}.txt`);
    // As a user saves it: plain `cargo test`, no JSON, through a shell redirection.
    const shell = `cargo test --offline --no-fail-fast > "$1" ${redirect.join(' ')}`;
    const produced = spawnSync('sh', ['-c', shell, 'sh', saved], { cwd: mixed, env: { ...process.env, ...cargoEnv }, encoding: 'utf8' });
    expect(produced.status).toBe(101);
    const { exitCode, report } = await runJson(['parse', saved, '--cwd', mixed]);
    expect([exitCode, report.status, report.source, report.error]).toEqual([1, 'failed', 'imported', null]);
    expect(report.summary).toEqual({ run: 9, passed: 4, failures: 4, errors: 0, skips: 1 });
    const lines = { adds_wrongly: ['src/lib.rs', 36], panics_in_helper: ['src/lib.rs', 21], api_doubles_wrongly: ['tests/api.rs', 11], 'double (line 12)': ['src/lib.rs', 12] };
    expect(failures(report)).toEqual(names.map((name) => {
      const [file, line] = Object.entries(lines).find(([k]) => name.endsWith(k))?.[1] ?? [];
      return [name, file, line, 'failed'];
    }).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
  }, COMPILES);

  it('places a #[should_panic] test that did not panic at the line libtest names', async () => {
    const dir = await copyFixture('cargo-should-panic');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['unit: tests::panics_on_negative', 'src/lib.rs', 11, 'failed']]);
    expect(report.failed_tests[0]?.message).toBe('test did not panic as expected at src/lib.rs:11:8');
  }, COMPILES);

  it('places a test that returned Err, which libtest gives no location, at its fn along its module path', async () => {
    const dir = await copyFixture('cargo-returns-err');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 6, passed: 2, failures: 4, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([
      ['integration tests/api.rs: api_halves_odd', 'tests/api.rs', 4, 'failed'],
      ['integration tests/cli/main.rs: flags::rejects_flag_word', 'tests/cli/flags.rs', 10, 'failed'],
      ['unit: parse::tests::reads_input', 'src/parse.rs', 13, 'failed'], // the same fn name as tests::reads_input
      ['unit: tests::reads_input', 'src/lib.rs', 24, 'failed'],
    ]);
    expect(report.failed_tests.find((t) => t.test_name === 'unit: tests::reads_input')?.message).toBe('Error: "3 is odd"');
  }, COMPILES);

  it('reports a compile error as an error at the compiler position, never a pass, and settles it once fixed', async () => {
    const dir = await copyFixture('cargo-compile-error');
    const { exitCode, report } = await run(['--cwd', dir]);
    expect([exitCode, report.status, report.exit_status]).toEqual([1, 'failed', 101]);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['compile error: cargo_compile_error (lib test)', 'src/lib.rs', 11, 'error']]);
    expect(report.failed_tests[0]?.message).toMatch(/^error\[E0425\]: cannot find value `not_defined` in this scope\n {2}--> src\/lib.rs:11:31/);
    const lib = path.join(dir, 'src/lib.rs');
    await fs.writeFile(lib, (await fs.readFile(lib, 'utf8')).replace('not_defined', '2'));
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.status, rerun.report.rerun]).toEqual([0, 'passed', { selected: 1, not_run: [] }]);
  }, COMPILES);

  it('runs a whole workspace from its root, and only the member of a file given inside it', async () => {
    const dir = await copyFixture('cargo-workspace');
    const whole = await run(['--cwd', dir]);
    expect([whole.exitCode, whole.report.reason, whole.report.summary]).toEqual([
      1, 'Cargo.toml (a workspace) found: `cargo test`', { run: 4, passed: 3, failures: 1, errors: 0, skips: 0 },
    ]);
    expect(failures(whole.report)).toEqual([['[beta] integration tests/edge.rs: triples_wrongly', 'beta/tests/edge.rs', 8, 'failed']]);
    const member = await run(['--cwd', dir, 'beta/tests/edge.rs']);
    expect([member.exitCode, member.report.project_root, member.report.summary]).toEqual([
      1, path.join(dir, 'beta'), { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 },
    ]);
    expect(member.report.failed_tests.map((t) => [t.test_name, t.file, t.line])).toEqual([['integration tests/edge.rs: triples_wrongly', 'tests/edge.rs', 8]]);
    const rerun = await run(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.summary.run]).toEqual([1, { selected: 1, not_run: [] }, 1]);
  }, COMPILES);

  it('says what to install when cargo is missing', async () => {
    const { exitCode, report } = await run(['--cwd', mixed], { PATH: '/nonexistent' });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
  });
});
