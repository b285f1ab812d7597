import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, once, processGone, readEvents, REPO, runCli, runFile, runJson, waitFor } from './helpers.js';

const suite = hasTools('python3', 'pytest-3') ? describe : describe.skip;

/** Debian's python3-pytest (7.2), whatever else is on PATH; and the caller's own PATH,
 * whose python3 may be another interpreter with other plugins (pyenv here: pytest 9). */
const DEBIAN = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };
const CALLERS = { PATH: process.env.PATH };

/** The caller's python3 itself first on PATH: the same interpreter, without a version
 * manager's shim in front of each start (pyenv's costs seconds on a loaded machine). */
function callersInterpreter(): NodeJS.ProcessEnv {
  const ran = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { env: { ...process.env, ...CALLERS }, encoding: 'utf8' });
  const executable = ran.status === 0 ? ran.stdout.trim() : '';
  return executable === '' ? CALLERS : { PATH: `${path.dirname(executable)}:${process.env.PATH ?? ''}` };
}

/** The version of the pytest that `python3 -m pytest` runs with this PATH, or null. */
function pytestVersion(env: NodeJS.ProcessEnv): string | null {
  const ran = spawnSync('python3', ['-m', 'pytest', '--version'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return /\bpytest (\d+\.\d+\.\d+)/.exec(`${ran.stdout}${ran.stderr}`)?.[1] ?? null;
}

/** The key cases run under both ends of the supported range: pytest 7 as Debian ships it,
 * and the newest pytest. In CI a missing or different one fails the suite, never skips. */
const PYTESTS = ([
  ['pytest 7.2 (Debian\'s /usr/bin/python3)', DEBIAN, /^7\.2\./],
  ['the newest pytest (the python3 on the caller\'s PATH)', callersInterpreter(), /^(?:9|[1-9]\d)\./],
] as const).flatMap(([label, env, wanted]) => {
  const version = pytestVersion(env);
  if (version !== null && wanted.test(version)) return [{ label: `${label}, pytest ${version}`, env, version }];
  const problem = `${label}: python3 -m pytest ${version === null ? 'does not run' : `is ${version}`}, expected ${String(wanted)}`;
  if (process.env.CI) throw new Error(`pytest missing in CI: ${problem} (run scripts/setup-toolchains.sh)`);
  console.warn(`skipping: ${problem}`);
  return [];
});

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** Operands given by --file, which takes a value that starts with a dash (after `--`
 * the words are pytest's own arguments). */
async function runOperands(args: readonly string[], operands: readonly string[], env: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; report: RunReport }> {
  const { exitCode, stdout } = await runCli([...args, '--json', `--file=${operands.join(',')}`], { env });
  return { exitCode, report: JSON.parse(stdout) as RunReport };
}

const MIXED_FAILURES = [
  ['tests/test_widget.py::test_size_is_wrong', 'tests/test_widget.py', 12, 'failed'],
  // Raised in widget.py: the line is the call in the test file.
  ['tests/test_widget.py::test_explodes', 'tests/test_widget.py', 16, 'error'],
  // A conftest.py fixture failed in setup: no frame in the test file, so the definition.
  ['tests/test_widget.py::test_needs_database', 'tests/test_widget.py', 19, 'error'],
  ['tests/test_widget.py::test_leaks', 'tests/test_widget.py', 26, 'error'],
  ['tests/test_widget.py::test_strict_xpass', 'tests/test_widget.py', 48, 'failed'],
  ['tests/test_widget.py::test_words[[x] and y]', 'tests/test_widget.py', 55, 'failed'],
  ['tests/test_widget.py::TestCart::test_discount', 'tests/test_widget.py', 63, 'failed'],
];

const IN_PACKAGE_FAILURES = [
  ['shapes/tests/deep/test_deep.py::test_deep_fails', 'shapes/tests/deep/test_deep.py', 9, 'failed'],
  ['shapes/tests/test_area.py::TestArea::test_wrong', 'shapes/tests/test_area.py', 11, 'failed'],
];

(PYTESTS.length > 0 ? suite.each(PYTESTS) : describe.skip.each([{ label: 'no pytest', env: DEBIAN, version: '' }]))('pytest with $label', ({ env, version }) => {
  it('reports exact counts, names, files, lines and statuses, with the plugins installed beside pytest loaded', async () => {
    const dir = await copyFixture('pytest-mixed');
    // As users run it: the suite turns plugin autoloading off everywhere else (jest.config.js).
    const { exitCode, report } = await runJson(['--cwd', dir], { env: { ...env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: undefined } });
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, framework: 'pytest', command: 'python3 -m pytest', project_root: dir,
      exit_status: 1, signal: null, timed_out: false, warnings: [], error: null, next: `run-tests --cwd ${dir} --failed-only`,
      reason: '[tool.pytest.ini_options] in pyproject.toml found: pytest through `python3 -m pytest`',
    });
    expect(report.summary).toEqual({ run: 16, passed: 7, failures: 4, errors: 3, skips: 2 });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    const message = (name: string) => report.failed_tests.find((t) => t.test_name.endsWith(name))?.message;
    expect(message('::test_size_is_wrong')).toBe('AssertionError: size of abc\nassert 3 == 5');
    expect(message('::test_explodes')).toBe('ValueError: widget exploded: too hot');
    expect(message('::test_needs_database')).toBe('at setup: RuntimeError: database is down');
    expect(message('::test_leaks')).toBe('at teardown: OSError: could not release resource');
    expect(message('::test_strict_xpass')).toBe('[XPASS(strict)] fixed already');
    // The caller's FORCE_COLOR=0 still makes pytest colour its output: any value forces it.
    const log = stripAnsi(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8'));
    expect(log).toContain(`, pytest-${version},`);
    expect(log).toMatch(/5 failed, 7 passed, 1 skipped, 1 xfailed, 1 xpassed, 2 errors/);
    const saved = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
    expect(saved.failed_tests.map((t: { id: string }) => t.id)).toEqual(MIXED_FAILURES.map(([id]) => id));
  });

  /** One plain run of a pytest-mixed copy: one test reads the events it wrote, another
   * reruns its failures in its directory. */
  const mixedRun = once(async () => {
    const dir = await copyFixture('pytest-mixed');
    const { report } = await runJson(['--cwd', dir], { env });
    return { dir, events: readEvents(runFile(dir, 'pytest.jsonl', report.run_id)) };
  });

  it('writes the event format: one test_end per test, and pytest\'s own totals in run_end', async () => {
    const { dir, events } = await mixedRun();
    expect(events[0]).toEqual({ event: 'run_start', schema: 1, runner: 'pytest', runner_version: version, pid: expect.any(Number) });
    const ends = events.filter((e) => e.event === 'test_end');
    expect([ends.length, events.filter((e) => e.event === 'test_start').length]).toEqual([16, 16]);
    expect(ends.find((e) => e.id === 'tests/test_widget.py::test_leaks')).toMatchObject({
      file: path.join(dir, 'tests/test_widget.py'), line: 29, status: 'error', message: 'at teardown: OSError: could not release resource',
      location: { file: path.join(dir, 'tests/test_widget.py'), line: 26 },
    });
    expect(events.at(-1)).toEqual({
      event: 'run_end', pid: events[0]?.pid, interrupted: false, totals: { tests: 16, failed: 5, errors: 2, skipped: 2, passed: 7 },
    });
  });

  it('reruns exactly the previous failures by node id, a bracketed parametrize id included', async () => {
    const { dir } = await mixedRun();
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect(exitCode).toBe(1);
    expect(report.summary).toEqual({ run: 7, passed: 0, failures: 4, errors: 3, skips: 0 });
    expect(report.rerun).toEqual({ selected: 7, not_run: [] });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    expect(report.command).toBe(`python3 -m pytest ${MIXED_FAILURES.map(([id]) => (String(id).includes(' ') ? `'${id}'` : id)).join(' ')}`);
  });

  it('filters by --name as plain text (brackets and spaces too) or a /regex/, and no match is no_tests', async () => {
    const dir = await copyFixture('pytest-mixed');
    const plain = await runJson(['--cwd', dir, '--name', 'words[[x] and'], { env });
    expect([plain.exitCode, plain.report.summary.run, plain.report.failed_tests.map((t) => t.test_name)])
      .toEqual([1, 1, ['tests/test_widget.py::test_words[[x] and y]']]);
    expect(plain.report.command).toBe("RUN_TESTS_PYTEST_FILTER='words\\[\\[x\\] and' python3 -m pytest");
    const regex = await runJson(['--cwd', dir, '--name', '/test_(upcase|reverse)$/'], { env });
    expect([regex.exitCode, regex.report.status, regex.report.summary.passed, regex.report.summary.run]).toEqual([0, 'passed', 2, 2]);
    // pytest exits 5 when it collected nothing; our plugin leaves the verdict to the report.
    const none = await runJson(['--cwd', dir, '--name', 'no such test'], { env });
    expect([none.exitCode, none.report.status, none.report.exit_status, none.report.summary.run]).toEqual([4, 'no_tests', 5, 0]);
    expect(stripAnsi(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8'))).toMatch(/16 deselected/);
    const allowed = await runJson(['--cwd', dir, '--name', 'no such test', '--allow-no-tests'], { env });
    expect([allowed.exitCode, allowed.report.status]).toEqual([0, 'no_tests']);
  });

  it('reports a test file that fails to import as an error entry, and reruns that file', async () => {
    const dir = await copyFixture('pytest-collect-error');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.status, report.exit_status, report.reason]).toEqual([1, 'failed', 2, 'pytest.ini found: pytest through `python3 -m pytest`']);
    expect(report.summary).toEqual({ run: 1, passed: 0, failures: 0, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([['tests/test_broken.py', 'tests/test_broken.py', 3, 'error']]);
    expect(report.failed_tests[0]?.message).toBe("ModuleNotFoundError: No module named 'no_such_module'");
    expect(report.warnings).toEqual([expect.stringMatching(/^pytest ran no tests: it stops after errors during collection/)]);
    const broken = path.join(dir, 'tests/test_broken.py');
    await fs.writeFile(broken, (await fs.readFile(broken, 'utf8')).replace('import no_such_module', 'import json'));
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.status, rerun.report.command, rerun.report.summary.passed]).toEqual([0, 'passed', 'python3 -m pytest tests/test_broken.py', 1]);
    expect(rerun.report.rerun).toEqual({ selected: 1, not_run: [] });
  });

  it('reports a strict xpass as a failure whose message names the reason only when there is one', async () => {
    const dir = await copyFixture('pytest-xpass');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 3, passed: 0, failures: 2, errors: 0, skips: 1 });
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message])).toEqual([
      ['tests/test_xpass.py::test_strict_without_reason', 'tests/test_xpass.py', 4, 'failed', '[XPASS(strict)]'],
      ['tests/test_xpass.py::test_strict_with_reason', 'tests/test_xpass.py', 9, 'failed', '[XPASS(strict)] fixed already'],
    ]);
  });

  it('finds unittest tests inside the package (no pytest config), runs every test file below a directory operand, and reruns them by the same names', async () => {
    const dir = await copyFixture('pytest-in-package');
    const whole = await runJson(['--cwd', dir], { env });
    expect([whole.exitCode, whole.report.framework, whole.report.reason, whole.report.command]).toEqual([
      1, 'pytest', 'shapes/tests/test_*.py found: pytest through `python3 -m pytest`', 'python3 -m pytest',
    ]);
    expect(whole.report.summary).toEqual({ run: 4, passed: 2, failures: 2, errors: 0, skips: 0 });
    expect(failures(whole.report).sort()).toEqual(IN_PACKAGE_FAILURES);
    expect(whole.report.failed_tests.find((t) => t.test_name.endsWith('::test_wrong'))?.message).toBe('AssertionError: 6 != 5');
    const nested = await runJson(['--cwd', dir, 'shapes/tests/deep'], { env });
    expect([nested.exitCode, nested.report.command, nested.report.summary]).toEqual([
      1, 'python3 -m pytest shapes/tests/deep', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 },
    ]);
    expect(failures(nested.report)).toEqual([IN_PACKAGE_FAILURES[0]]);
    const pkg = await runJson(['--cwd', dir, 'shapes'], { env });
    expect([pkg.exitCode, pkg.report.summary.run, failures(pkg.report).sort()]).toEqual([1, 4, IN_PACKAGE_FAILURES]);
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.rerun, failures(rerun.report).sort()]).toEqual([1, { selected: 2, not_run: [] }, IN_PACKAGE_FAILURES]);
  });

  it('finds tests under src/ (a src layout whose pyproject.toml has no pytest section)', async () => {
    const dir = await copyFixture('pytest-src-layout');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.framework, report.reason]).toEqual([1, 'pytest', 'src/calc/tests/test_*.py found: pytest through `python3 -m pytest`']);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['src/calc/tests/test_add.py::test_adds_wrongly', 'src/calc/tests/test_add.py', 9, 'failed']]);
  });

  it('gives pytest a file named like an option as a file, and reruns its tests by the same names', async () => {
    const dir = await copyFixture('pytest-mixed');
    await fs.writeFile(path.join(dir, '--check_test.py'), 'def test_odd_passes():\n    assert True\n\n\ndef test_odd_fails():\n    assert 1 + 1 == 3\n');
    const { exitCode, report } = await runOperands(['--cwd', dir], ['--check_test.py'], env);
    expect([exitCode, report.command, report.summary]).toEqual([1, 'python3 -m pytest ./--check_test.py', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }]);
    expect(failures(report)).toEqual([['--check_test.py::test_odd_fails', '--check_test.py', 6, 'failed']]);
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, failures(rerun.report)]).toEqual([
      1, 'python3 -m pytest ./--check_test.py::test_odd_fails', { selected: 1, not_run: [] }, failures(report),
    ]);
  });
});

/** Cases that do not depend on pytest's version, with Debian's. */
suite('pytest', () => {
  it('says which selected tests did not run when a failed test was renamed since', async () => {
    const dir = await copyFixture('pytest-mixed');
    await runJson(['--cwd', dir, 'tests/test_widget.py'], { env: DEBIAN });
    const testFile = path.join(dir, 'tests/test_widget.py');
    await fs.writeFile(testFile, (await fs.readFile(testFile, 'utf8')).replace('def test_size_is_wrong', 'def test_size_renamed'));
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only'], { env: DEBIAN });
    // pytest refuses the whole command line (exit 4) for one id it cannot find.
    // No test ran at all: pytest failed before any, in its own words, and the counts are unknown.
    expect([exitCode, report.status, report.exit_status, report.summary.run, report.error?.code]).toEqual([3, 'error', 4, null, 'RUNNER_FAILED']);
    expect(report.rerun?.not_run).toHaveLength(7);
    expect(report.warnings).toContainEqual(expect.stringMatching(/^pytest: not found: .*test_widget\.py::test_size_is_wrong/));
  });

  it('says nothing_to_rerun (exit 0) after a passing run', async () => {
    const dir = await copyFixture('pytest-mixed');
    const passing = await runJson(['--cwd', dir, 'tests/test_text.py'], { env: DEBIAN });
    expect([passing.exitCode, passing.report.status, passing.report.command]).toEqual([0, 'passed', 'python3 -m pytest tests/test_text.py']);
    expect(passing.report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only'], { env: DEBIAN });
    expect([exitCode, report.status, report.summary.run, report.command]).toEqual([0, 'nothing_to_rerun', 0, null]);
  });

  it('runs the project\'s virtualenv interpreter', async () => {
    const dir = await copyFixture('pytest-venv');
    const { exitCode, report } = await runJson(['--cwd', dir], { env: CALLERS });
    expect([exitCode, report.status, report.command, report.summary.passed]).toEqual([0, 'passed', '.venv/bin/python -m pytest', 2]);
    expect(report.reason).toBe('tests/test_*.py found: pytest through `.venv/bin/python -m pytest`');
  });

  it('falls back to pytest on PATH when python3 has no pytest module, and shows that command and why', async () => {
    const dir = await copyFixture('pytest-mixed');
    const bin = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-nopytest-'));
    // Without site-packages, this python3 cannot import pytest; /usr/bin/pytest can.
    await fs.outputFile(path.join(bin, 'python3'), '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n', { mode: 0o755 });
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const { exitCode, report } = await runJson(['--cwd', dir, 'tests/test_text.py'], { env });
    expect([exitCode, report.status, report.summary.passed]).toEqual([0, 'passed', 2]);
    const why = 'python3 (/usr/bin/python3) has no pytest module: ran pytest from PATH (/usr/bin/pytest) instead';
    // What ran, as one would type it: `python3 -m pytest` fails by hand with this python3.
    expect([report.command, report.reason]).toEqual(['pytest tests/test_text.py', `[tool.pytest.ini_options] in pyproject.toml found: pytest through \`python3 -m pytest\`; ${why}`]);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain(`run-tests: ${why}`);
    const human = await runCli(['--cwd', dir, 'tests/test_text.py'], { env });
    expect(human.stdout).toContain('$ pytest tests/test_text.py\n');
    await runJson(['--cwd', dir, 'tests/test_widget.py'], { env });
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command?.startsWith('pytest tests/test_widget.py::test_size_is_wrong '), failures(rerun.report)]).toEqual([1, true, MIXED_FAILURES]);
  });

  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await copyFixture('pytest-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { ...DEBIAN, HANG_PID_FILE: pidFile } });
    expect(exitCode).toBe(124);
    // Python dies of the SIGTERM (pytest installs no handler for it).
    expect(report).toMatchObject({ status: 'timed_out', timed_out: true, exit_status: null, signal: 'SIGTERM' });
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.warnings).toContain('pytest stopped while tests/test_hang.py::test_2_hangs_with_a_grandchild was running');
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });

  it('refuses a pytest older than the plugin supports as RUNNER_UNSUPPORTED, before any test runs', async () => {
    // No pytest below 7.0 is installable here: a copy of run-tests whose plugin asks for
    // more than Debian's 7.2 stands for one, the rest of the path unchanged.
    const pkg = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-pkg-'));
    for (const part of ['bin', 'dist', 'reporters', 'package.json']) await fs.copy(path.join(REPO, part), path.join(pkg, part));
    const plugin = path.join(pkg, 'reporters/pytest/run_tests_pytest.py');
    const source = await fs.readFile(plugin, 'utf8');
    expect(source).toContain('SUPPORTED_FROM = (7, 0)\n');
    await fs.writeFile(plugin, source.replace('SUPPORTED_FROM = (7, 0)\n', 'SUPPORTED_FROM = (7, 3)\n'));
    const dir = await copyFixture('pytest-mixed');
    const { exitCode, stdout } = await runCli(['--cwd', dir, '--json'], { env: DEBIAN, bin: path.join(pkg, 'bin/run-tests.js') });
    const report = JSON.parse(stdout) as RunReport;
    expect([exitCode, report.status, report.summary.run, report.error]).toEqual([3, 'error', null, {
      code: 'RUNNER_UNSUPPORTED',
      message: "pytest 7.2.1 (/usr/bin/python3) is not supported: run-tests supports pytest 7.3 or later; install one into this python, or into the project's virtualenv",
    }]);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain('ERROR: run-tests supports pytest 7.3 or later; this is pytest 7.2.1');
  });

  it('says what to install when python3 has no pytest and there is none on PATH (RUNNER_MISSING)', async () => {
    const dir = await copyFixture('pytest-in-package');
    const bin = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-nopytest-'));
    // Without site-packages, this python3 cannot import pytest; PATH holds no pytest.
    await fs.outputFile(path.join(bin, 'python3'), '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n', { mode: 0o755 });
    const { exitCode, report } = await runJson(['--cwd', dir], { env: { PATH: bin } });
    expect([exitCode, report.status, report.framework, report.summary.run, report.error?.code]).toEqual([3, 'error', 'pytest', null, 'RUNNER_MISSING']);
    expect(report.error?.message).toBe('python3 (/usr/bin/python3) has no pytest module, and there is no pytest on PATH; '
      + 'install pytest (Debian: apt-get install python3-pytest), or into the project\'s virtualenv (.venv/bin/python -m pip install pytest)');
  });

  it('says what to install when python3 is missing', async () => {
    const dir = await copyFixture('pytest-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir], { env: { PATH: '/nonexistent' } });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toMatch(/python3 not found on PATH.*apt-get install python3-pytest/);
  });
});
