import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cargo, docFilter, parseId, rerunCommands, targetsOf, workspaceRoot } from '../../../../src/runners/cargo/runner.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { isFailure, placeFailures } from '../../../../src/core/failures.js';
import type { FailedTest, FailedTestRecord } from '../../../../src/model/results.js';
import { factsFromFiles, readProjectFacts } from '../../../../src/project/facts.js';
import { parseCargo } from '../../../../src/runners/cargo/report.js';
import { cargoHumanOutput } from '../../../../src/runners/cargo/human.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';

const FILES = { 'Cargo.toml': '[package]\nname = "m"\n', 'src/lib.rs': '', 'tests/api.rs': '' };
const JSON_ARGS = ['-Z', 'unstable-options', '--format', 'json', '--report-time'];
const CARGO = ['cargo', 'test', '--offline', '--no-fail-fast', '--message-format', 'json-render-diagnostics'];

const request = (over: Partial<PlanRequest> = {}, files: Record<string, string> = FILES): PlanRequest => ({
  root: '/w/p', facts: factsFromFiles('/w/p', files), files: [], name: null, rerun: null,
  artifacts: artifactPaths('/w/p', 'ID'), env: { PATH: '/bin' }, reportersDir: '/pkg/reporters', ...over,
});
const record = (id: string): FailedTestRecord => ({ id, test_name: id, file: null, line: null, status: 'failed', message: 'm' });

describe('cargo adapter', () => {
  it('claims a directory with Cargo.toml, saying when it is a workspace', () => {
    expect(cargo.detect(factsFromFiles('/p', FILES))).toBe('Cargo.toml found: `cargo test`');
    expect(cargo.detect(factsFromFiles('/p', { 'Cargo.toml': '[workspace]\nmembers = ["a"]\n' }))).toBe('Cargo.toml (a workspace) found: `cargo test`');
    expect(cargo.detect(factsFromFiles('/p', { 'src/lib.rs': '' }))).toBeNull();
    expect(cargo.markers).toEqual(['Cargo.toml']);
  });

  it('runs every target with libtest JSON, unlocked for the harness only, its output copied into the report', () => {
    const { shownArgv, humanOutput, ...plan } = cargo.plan(request());
    expect(plan).toEqual({
      argv: [...CARGO, '--', ...JSON_ARGS],
      env: { PATH: '/bin', RUSTC_BOOTSTRAP: 'run_tests_libtest_json' },
      cwd: '/w/p',
      reports: [{ path: '/w/p/.run-tests/runs/ID/cargo-test.jsonl', parser: 'cargo' }],
      captureOutput: '/w/p/.run-tests/runs/ID/cargo-test.jsonl',
      requires: ['cargo'],
    });
    expect(cargo.plan(request({ env: { RUSTC_BOOTSTRAP: '1' } })).env['RUSTC_BOOTSTRAP']).toBe('1');
    // Shown as a person types it: no JSON options, no `--` without libtest arguments.
    expect(shownArgv?.(plan.argv)).toEqual(['cargo', 'test', '--offline', '--no-fail-fast']);
    expect(shownArgv?.([...CARGO, '-p', 'a', '--lib', '--', ...JSON_ARGS, '--exact', 'x'])).toEqual(['cargo', 'test', '--offline', '--no-fail-fast', '-p', 'a', '--lib', '--', '--exact', 'x']);
    expect(humanOutput).toBeDefined();
  });

  it('streams libtest events as the lines libtest prints for a person', () => {
    const human = cargoHumanOutput();
    const lines = [
      '{"reason":"compiler-artifact","package_id":"a"}',
      '     Running unittests src/lib.rs (target/debug/deps/a-1)',
      '{ "type": "suite", "event": "started", "test_count": 2 }',
      '{ "type": "test", "event": "started", "name": "t::a" }',
      '{ "type": "test", "name": "t::a", "event": "ok", "exec_time": 0.1 }',
      '{ "type": "test", "name": "t::b", "event": "failed", "stdout": "boom\\n" }',
      '{ "type": "suite", "event": "failed", "passed": 1, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.25 }',
    ];
    expect(lines.map(human).join('')).toBe([
      '     Running unittests src/lib.rs (target/debug/deps/a-1)', '', 'running 2 tests', 'test t::a ... ok', 'test t::b ... FAILED',
      '', 'failures:', '', '---- t::b stdout ----', 'boom', '', 'failures:', '    t::b', '',
      'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s', '', '',
    ].join('\n'));
  });

  it('passes --name as a substring filter and rejects a /regex/', () => {
    expect(cargo.plan(request({ name: { text: 'adds', regex: false } })).argv).toEqual([...CARGO, '--', ...JSON_ARGS, 'adds']);
    expect(() => cargo.plan(request({ name: { text: '^a', regex: true } }))).toThrow('--name /^a/: cargo test filters by substring');
  });

  it('never lets a --name or a test name become a libtest option', () => {
    expect(cargo.plan(request({ name: { text: '--logfile=/tmp/x', regex: false } })).argv).toEqual([...CARGO, '--', ...JSON_ARGS, '--', '--logfile=/tmp/x']);
    expect(cargo.plan(request({ name: { text: '--exact', regex: false } })).argv).toEqual([...CARGO, '--', ...JSON_ARGS, '--', '--exact']);
    expect(rerunCommands([record('m --lib -x')])).toEqual([{ select: ['-p', 'm', '--lib'], filters: ['--exact', '--', '-x'] }]);
  });

  it('never lets a file become a cargo option: a target named like one is given as --test=NAME', () => {
    const facts = factsFromFiles('/p', { ...FILES, 'tests/--foo.rs': '', 'src/bin/-x.rs': '' });
    expect(targetsOf(['tests/--foo.rs', 'src/bin/-x.rs', 'tests/api.rs'], facts)).toEqual(['--test=--foo', '--bin=-x', '--test', 'api']);
    expect(targetsOf(['--foo'], facts)).toEqual([]);
    expect(rerunCommands([record('m --test --foo a')])).toEqual([{ select: ['-p', 'm', '--test=--foo'], filters: ['--exact', 'a'] }]);
  });

  it('maps files to their targets', () => {
    const facts = factsFromFiles('/p', FILES);
    expect(targetsOf(['src/util.rs', 'tests/api.rs', 'tests/api.rs'], facts)).toEqual(['--lib', '--test', 'api']);
    expect(targetsOf(['src/main.rs', 'src/bin/tool.rs', 'tests/', 'examples/demo.rs'], facts)).toEqual(['--bins', '--bin', 'tool', '--tests', '--example', 'demo']);
    expect(targetsOf(['src/x.rs'], factsFromFiles('/p', { 'src/main.rs': '' }))).toEqual(['--bins']);
    // src/main.rs is its own binary, not src/bin/'s too.
    const binaries = { ...FILES, 'src/main.rs': '', 'src/bin/tool.rs': '' };
    expect(targetsOf(['src/main.rs'], factsFromFiles('/p', binaries))).toEqual(['--bin', 'm']);
    expect(targetsOf(['src/main.rs'], factsFromFiles('/p', { ...binaries, 'Cargo.toml': '[package]\nname = "m"\n\n[[bin]]\nname = "cli"\npath = "src/main.rs"\n' }))).toEqual(['--bin', 'cli']);
    expect(targetsOf(['tests/api.rs', 'build.rs'], facts)).toEqual([]);
  });

  it('reruns each target as its own command, with exact names', () => {
    const commands = rerunCommands(['m --lib tests::a', 'm --test api x', 'm --lib tests::b', 'm --doc src/lib.rs - Foo::bar (line 3)', 'n'].map(record));
    expect(commands).toEqual([
      { select: ['-p', 'm', '--lib'], filters: ['--exact', 'tests::a', 'tests::b'] },
      { select: ['-p', 'm', '--test', 'api'], filters: ['--exact', 'x'] },
      { select: ['-p', 'm', '--doc'], filters: ['Foo::bar'] },
      { select: ['-p', 'n'], filters: [] },
    ]);
    const plan = cargo.plan(request({ rerun: ['m --lib tests::a', 'm --test api x'].map(record) }));
    expect([plan.argv, plan.thenArgv]).toEqual([
      [...CARGO, '-p', 'm', '--lib', '--', ...JSON_ARGS, '--exact', 'tests::a'],
      [[...CARGO, '-p', 'm', '--test', 'api', '--', ...JSON_ARGS, '--exact', 'x']],
    ]);
  });

  it('reads ids and doc test filters', () => {
    expect(parseId('m --test api a b')).toEqual({ pkg: 'm', selector: ['--test', 'api'], test: 'a b' });
    expect(parseId('m')).toEqual({ pkg: 'm', selector: [], test: null });
    expect(docFilter('src/lib.rs - Wrapper<T>::new (line 40)')).toBe('Wrapper<T>::new');
  });

  it('settles a compile error record with any test of its package', () => {
    const passed = (id: string) => ({ id, name: id, file: null, line: null, status: 'passed' as const });
    expect(cargo.covers?.(record('m'), passed('m --lib tests::a'))).toBe(true);
    expect(cargo.covers?.(record('m'), passed('mm --lib tests::a'))).toBe(false);
  });

  it('finds the workspace root above a member, where rustc paths start', () => {
    const member = factsFromFiles('/w/p', { 'Cargo.toml': '[package]\n', '../Cargo.toml': '[workspace]\nmembers = ["p"]\n' });
    expect(workspaceRoot(member, '/w/p')).toBe('/w');
    expect(cargo.plan(request({ facts: member })).reports[0]?.hints).toEqual({ workspace: '/w' });
    expect(workspaceRoot(factsFromFiles('/w/p', FILES), '/w/p')).toBe('/w/p');
  });

  it('reads Cargo.toml as TOML: a spaced `[ workspace ]` and dotted `workspace.members` are workspaces, a string that looks like one is not', () => {
    const workspace = (toml: string) => cargo.detect(factsFromFiles('/p', { 'Cargo.toml': toml })) === 'Cargo.toml (a workspace) found: `cargo test`';
    expect(workspace('[ workspace ]\nmembers = ["a"]\n')).toBe(true);
    expect(workspace('workspace.members = ["a"]\n\n[package]\nname = "m"\n')).toBe(true);
    expect(workspace('[package]\nname = "m"\ndescription = """\n[workspace]\n"""\n')).toBe(false);
    expect(workspaceRoot(factsFromFiles('/w/p', { 'Cargo.toml': '[package]\n', '../Cargo.toml': '[ workspace ] # the root\nmembers = ["p"]\n' }), '/w/p')).toBe('/w');
  });
});

describe('cargo failures without a line', () => {
  const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

  it('places a test that returned Err at its fn, in the file its module path leads to', async () => {
    const recorded = parseCargo(readFileSync(`${fixtures}outputs/cargo/returns-err.jsonl`, 'utf8'), { root: '<root>' });
    const facts = readProjectFacts(`${fixtures}projects/cargo-returns-err`);
    const placed = await placeFailures(recorded.tests, (failure) => cargo.locate?.(failure, facts) ?? Promise.resolve(null));
    expect(placed.filter(isFailure).map((t) => [t.id, t.file, t.line])).toEqual([
      ['cargo_returns_err --lib parse::tests::reads_input', 'src/parse.rs', 13],
      ['cargo_returns_err --lib tests::reads_input', 'src/lib.rs', 24],
      ['cargo_returns_err --test api api_halves_odd', 'tests/api.rs', 4],
      ['cargo_returns_err --test cli flags::rejects_flag_word', 'tests/cli/flags.rs', 10],
    ]);
  });

  it('looks in a workspace member\'s library or binary, and places no doc test, build or package entry', async () => {
    const facts = factsFromFiles('/w', {
      'Cargo.toml': '[workspace]\nmembers = ["beta"]\n',
      'beta/Cargo.toml': '[package]\nname = "beta"\n',
      'beta/src/lib.rs': '#[test]\nfn t() {}\n',
      'beta/src/main.rs': '\n#[test]\nfn t() {}\n',
    });
    const failure = (id: string, file: string | null = null): FailedTest => ({ id, name: id, file, line: null, status: 'failed', message: 'm' });
    const locate = (id: string, file?: string) => cargo.locate?.(failure(id, file), facts);
    expect(await locate('beta --lib t')).toEqual({ file: 'beta/src/lib.rs', line: 2 });
    expect(await locate('beta --bin beta t', 'beta/src/main.rs')).toEqual({ file: 'beta/src/main.rs', line: 3 });
    expect(await locate('alpha --lib t')).toBeNull(); // not a member
    expect(await locate('beta --doc src/lib.rs - t (line 1)', 'beta/src/lib.rs')).toBeNull();
    expect(await locate('beta --test edge t')).toBeNull(); // no crate root given
    expect(await locate('beta')).toBeNull();
    expect(await locate('build')).toBeNull();
  });
});
