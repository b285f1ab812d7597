import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, readEvents, runFile, runJson } from './helpers.js';

const suite = hasTools('python3') ? describe : describe.skip;

/** Debian's python3 (with its own sitecustomize, which ours must still run), and the
 * python3 on the caller's PATH (pyenv's here), itself first on PATH: a version manager's
 * shim costs seconds a start on a loaded machine. */
const DEBIAN = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };
function callersInterpreter(): NodeJS.ProcessEnv {
  const ran = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const executable = ran.status === 0 ? ran.stdout.trim() : '';
  return { PATH: `${executable === '' ? '' : `${path.dirname(executable)}:`}${process.env.PATH ?? ''}` };
}
const pythonVersion = (env: NodeJS.ProcessEnv): string =>
  spawnSync('python3', ['-c', 'import sys; print(sys.version.split()[0])'], { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout.trim();
const PYTHONS = [
  { label: 'Debian\'s /usr/bin/python3', env: DEBIAN },
  { label: 'the caller\'s python3', env: callersInterpreter() },
].filter(({ env }) => fs.existsSync('/usr/bin/python3') || env !== DEBIAN).map((p) => ({ ...p, version: pythonVersion(p.env) }));

/** More Pythons where pyenv has them (not required, in CI or elsewhere): the oldest the
 * hook is written for, the 3.12 that leaves decorator-skipped tests out of testsRun, and
 * 3.12 and 3.13's exit status 5 for a run without tests. */
function pyenvPythons(): { version: string; env: NodeJS.ProcessEnv }[] {
  const root = spawnSync('pyenv', ['root'], { encoding: 'utf8' });
  const versions = root.status === 0 ? path.join(root.stdout.trim(), 'versions') : null;
  if (versions === null || !fs.existsSync(versions)) return [];
  return fs.readdirSync(versions).filter((v) => /^3\.(?:6|12|13)\.\d+$/.test(v)).sort()
    .map((version) => ({ version, env: { PATH: `${path.join(versions, version, 'bin')}:${process.env.PATH ?? ''}` } }));
}

const MIXED_FAILURES = [
  ['tests.test_widget.CartTest.test_discount', 'tests/test_widget.py', 47, 'failed'],
  // Both failing subtests, in one test.
  ['tests.test_widget.WidgetTest.test_even', 'tests/test_widget.py', 34, 'failed'],
  // Raised in widgets/__init__.py: the line is the call in the test file.
  ['tests.test_widget.WidgetTest.test_explodes', 'tests/test_widget.py', 14, 'error'],
  // An unexpected success fails the run (unittest's wasSuccessful): at its definition.
  ['tests.test_widget.WidgetTest.test_fixed_already', 'tests/test_widget.py', 27, 'failed'],
  ['tests.test_widget.WidgetTest.test_size_is_wrong', 'tests/test_widget.py', 11, 'failed'],
];
const MIXED_RERUN = `python3 -m unittest ${MIXED_FAILURES.map(([id]) => id).join(' ')}`;

/** unittest-import-package (tests/ a package, src/ on PYTHONPATH): each module that failed
 * to load at the line that failed, never at tests/__init__.py; the test failure between. */
const IMPORT_ERRORS = [
  ['load error: tests.test_broken', 'tests/test_broken.py', 3, 'error', "ModuleNotFoundError: No module named 'no_such_module'"],
  ['tests.test_ok.OkTest.test_fails', 'tests/test_ok.py', 9, 'failed', 'AssertionError: 4 != 5'],
  // Raised in the project module the test module imports, which the message names.
  ['load error: tests.test_store', 'src/inventory/store.py', 3, 'error',
    "ModuleNotFoundError: No module named 'no_such_driver'\nraised in src/inventory/store.py:3, imported from tests/test_store.py:3"],
  ['load error: tests.test_syntax', 'tests/test_syntax.py', 5, 'error', "SyntaxError: expected ':'"],
];
const withMessages = (report: RunReport) => report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message]);

suite.each(PYTHONS)('unittest with $label (python $version)', ({ env, version }) => {
  it('reports each test method once, subtests in their test, skips and expected failures as unittest counts them', async () => {
    const dir = await copyFixture('unittest-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, exit_status: 1, framework: 'unittest', command: 'python3 -m unittest', warnings: [], error: null,
      reason: 'tox.ini runs python -m unittest: unittest through `python3 -m unittest`',
    });
    expect(exitCode).toBe(1);
    // unittest: Ran 13 tests, failures=4 (two of them test_even's subtests), errors=1,
    // skipped=2, expected failures=1, unexpected successes=1.
    expect(report.summary).toEqual({ run: 13, passed: 5, failures: 4, errors: 1, skips: 3 });
    expect(failures(report)).toEqual(MIXED_FAILURES);
    const message = (name: string) => report.failed_tests.find((t) => t.test_name.endsWith(name))?.message;
    expect(message('.test_even')).toBe('(i=1): AssertionError: 1 != 0\n(i=3): AssertionError: 1 != 0');
    expect(message('.test_size_is_wrong')).toBe('AssertionError: 3 != 5 : size of abc');
    expect(message('.test_explodes')).toBe('ValueError: widget exploded: too hot');
    expect(message('.test_fixed_already')).toBe('unexpected success: marked expectedFailure, but passed');
    const events = readEvents(runFile(dir, 'unittest.jsonl'));
    expect(events[0]).toMatchObject({ event: 'run_start', runner: 'unittest', runner_version: `python ${version}` });
    expect(events.at(-1)).toEqual({ event: 'run_end', pid: events[0]?.['pid'], totals: { tests: 13, failed: 4, errors: 1, skipped: 3 }, interrupted: false });
    const skipped = events.filter((e) => e['event'] === 'test_end' && e['status'] === 'skipped').map((e) => [e['name'], e['message']]);
    expect(skipped).toEqual([
      ['tests.test_widget.WidgetTest.test_known_bug', 'expected failure: AssertionError: 2 != 3'],
      ['tests.test_widget.WidgetTest.test_skipped', 'not on this machine'],
      ['tests.test_widget.WidgetTest.test_skips_itself', 'no network'],
    ]);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8'))
      .toContain('FAILED (failures=4, errors=1, skipped=2, expected failures=1, unexpected successes=1)');
  });

  it('reruns exactly the failures by dotted id, and knows a renamed test did not run', async () => {
    const dir = await copyFixture('unittest-mixed');
    await runJson(['--cwd', dir], { env });
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, rerun.report.summary]).toEqual([
      1, MIXED_RERUN, { selected: 5, not_run: [] }, { run: 5, passed: 0, failures: 4, errors: 1, skips: 0 },
    ]);
    expect(failures(rerun.report)).toEqual(MIXED_FAILURES);
    const file = path.join(dir, 'tests/test_widget.py');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('def test_size_is_wrong', 'def test_size_renamed'));
    const renamed = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect(renamed.report.rerun).toEqual({ selected: 5, not_run: ['tests.test_widget.WidgetTest.test_size_is_wrong'] });
    expect(failures(renamed.report).at(-1)).toEqual(['load error: tests.test_widget.WidgetTest.test_size_is_wrong', 'tests/test_widget.py', null, 'error']);
    expect(renamed.report.failed_tests.at(-1)?.message).toBe("AttributeError: type object 'WidgetTest' has no attribute 'test_size_is_wrong'");
  });

  it('places a module that failed to import at its failing import, in the module or in a project module it imports, by discovery and by dotted id', async () => {
    const dir = await copyFixture('unittest-import-package');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.exit_code, report.status, report.command]).toEqual([1, 1, 'failed', 'PYTHONPATH=src python3 -m unittest']);
    expect(report.summary).toEqual({ run: 5, passed: 1, failures: 1, errors: 3, skips: 0 });
    expect(withMessages(report)).toEqual(IMPORT_ERRORS);
    expect(report.failed_tests.map((t) => t.id)).toEqual(['tests.test_broken', 'tests.test_ok.OkTest.test_fails', 'tests.test_store', 'tests.test_syntax']);
    // A rerun names each by its dotted id.
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun]).toEqual([
      1, 'PYTHONPATH=src python3 -m unittest tests.test_broken tests.test_ok.OkTest.test_fails tests.test_store tests.test_syntax', { selected: 4, not_run: [] },
    ]);
    expect(withMessages(rerun.report)).toEqual(IMPORT_ERRORS);
    // By name unittest's loader lets a SyntaxError out before any test: the hook makes it
    // the error discovery reports, and the other names still run.
    const byId = await runJson(['--cwd', dir, '--id', 'tests.test_syntax', '--id', 'tests.test_store'], { env });
    expect([byId.exitCode, byId.report.status, byId.report.command, byId.report.rerun, byId.report.summary]).toEqual([
      1, 'failed', 'PYTHONPATH=src python3 -m unittest tests.test_store tests.test_syntax', { selected: 2, not_run: [] },
      { run: 2, passed: 0, failures: 0, errors: 2, skips: 0 },
    ]);
    expect(withMessages(byId.report)).toEqual([IMPORT_ERRORS[2], IMPORT_ERRORS[3]]);
  });

  it('runs the project\'s sitecustomize, its PYTHONPATH=src, and keeps a nested unittest out of the report', async () => {
    const dir = await copyFixture('unittest-src-layout');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.command, report.reason]).toEqual([
      1, 'PYTHONPATH=src python3 -m unittest discover -s tests -t .', 'Makefile runs python -m unittest: unittest through `python3 -m unittest`',
    ]);
    // test_site.py's two tests pass: the project's own sitecustomize ran, and its nested
    // `python -m unittest tests.test_shapes` wrote nothing into our events.
    expect(report.summary).toEqual({ run: 4, passed: 3, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['tests.test_shapes.AreaTest.test_rectangle', 'tests/test_shapes.py', 11, 'failed']]);
    expect(readEvents(runFile(dir, 'unittest.jsonl')).filter((e) => e['event'] === 'run_start')).toHaveLength(1);
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, failures(rerun.report)]).toEqual([
      1, 'PYTHONPATH=src python3 -m unittest tests.test_shapes.AreaTest.test_rectangle', { selected: 1, not_run: [] }, failures(report),
    ]);
  });
});

suite('unittest', () => {
  const env = callersInterpreter();

  it('runs the doctests load_tests adds, and reruns a doctest through the module that adds it', async () => {
    const dir = await copyFixture('unittest-load-tests');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.status, report.command, report.reason]).toEqual([1, 'failed', 'python3 -m unittest', 'load_tests in tests/test_calc.py: unittest through `python3 -m unittest`']);
    // One TestCase method and three doctests (add, halve, Counter): unittest's "Ran 4 tests".
    expect(report.summary).toEqual({ run: 4, passed: 3, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['calc.halve', 'calc/__init__.py', 16, 'failed']]);
    expect(report.failed_tests[0]?.message).toBe('File "calc/__init__.py", line 16, in calc.halve\nFailed example:\n    halve(5)\nExpected:\n    2\nGot:\n    2.5');
    expect(report.failed_tests[0]?.id).toBe('tests.test_calc::calc.halve');
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, failures(rerun.report)]).toEqual([
      1, 'python3 -m unittest tests.test_calc', { selected: 1, not_run: [] }, failures(report),
    ]);
    const calc = path.join(dir, 'calc/__init__.py');
    await fs.writeFile(calc, (await fs.readFile(calc, 'utf8')).replace('    >>> halve(5)\n    2\n', '    >>> halve(5)\n    2.5\n'));
    const fixed = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([fixed.exitCode, fixed.report.status, fixed.report.rerun, fixed.report.summary.passed]).toEqual([0, 'passed', { selected: 1, not_run: [] }, 4]);
  });

  it('reports a module that fails to import as an error entry with its file and line, and reruns it from its discovery directory', async () => {
    const dir = await copyFixture('unittest-import-error');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.status, report.command, report.reason]).toEqual([
      1, 'failed', 'python3 -m unittest discover -s tests -v', '.github/workflows/test.yml runs python -m unittest: unittest through `python3 -m unittest`',
    ]);
    // unittest counts the module that failed to import as a test run, in error.
    expect(report.summary).toEqual({ run: 3, passed: 1, failures: 1, errors: 1, skips: 0 });
    expect(failures(report)).toEqual([
      ['load error: test_broken', 'tests/test_broken.py', 3, 'error'],
      ['test_ok.OkTest.test_double_wrong', 'tests/test_ok.py', 11, 'failed'],
    ]);
    expect(report.failed_tests[0]?.message).toBe("ModuleNotFoundError: No module named 'no_such_module'");
    const broken = path.join(dir, 'tests/test_broken.py');
    await fs.writeFile(broken, (await fs.readFile(broken, 'utf8')).replace('import no_such_module', 'import json'));
    // tests/ is where discovery imported test_ok from (its helpers too): on PYTHONPATH.
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.command, rerun.report.rerun, rerun.report.summary]).toEqual([
      1, 'PYTHONPATH=tests python3 -m unittest test_broken test_ok.OkTest.test_double_wrong', { selected: 2, not_run: [] },
      { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 },
    ]);
  });

  it('reports a setUpClass that raised as an error entry of its class, a skipping setUpModule as a skip, and reruns the class', async () => {
    const dir = await copyFixture('unittest-setupclass');
    const { exitCode, report } = await runJson(['--cwd', dir], { env });
    expect([exitCode, report.status, report.command, report.reason]).toEqual([1, 'failed', 'python3 -m unittest -v', 'noxfile.py runs python -m unittest: unittest through `python3 -m unittest`']);
    // unittest: Ran 1 test, errors=1, skipped=1; the class and module fixtures are counted here.
    expect(report.summary).toEqual({ run: 3, passed: 1, failures: 0, errors: 1, skips: 1 });
    // The innermost line in the test file: connect(), which setUpClass calls.
    expect(failures(report)).toEqual([['setUpClass (tests.test_db.DbTest)', 'tests/test_db.py', 5, 'error']]);
    expect(report.failed_tests[0]).toMatchObject({ id: 'tests.test_db.DbTest', message: 'RuntimeError: database is down' });
    const events = readEvents(runFile(dir, 'unittest.jsonl'));
    expect(events.filter((e) => e['event'] === 'test_end' && e['status'] === 'skipped')).toEqual([
      { event: 'test_end', id: 'tests.test_module_fixture', name: 'setUpModule (tests.test_module_fixture)', status: 'skipped', message: 'no GPU here' },
    ]);
    const db = path.join(dir, 'tests/test_db.py');
    await fs.writeFile(db, (await fs.readFile(db, 'utf8')).replace('raise RuntimeError("database is down")', 'return object()'));
    const rerun = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([rerun.exitCode, rerun.report.status, rerun.report.command, rerun.report.rerun, rerun.report.summary.passed]).toEqual([
      0, 'passed', 'python3 -m unittest tests.test_db.DbTest', { selected: 1, not_run: [] }, 2,
    ]);
  });

  it('runs file and directory operands, filters by --name in its hook (plain text or a /regex/), and says no_tests when nothing matched', async () => {
    const dir = await copyFixture('unittest-mixed');
    const file = await runJson(['--cwd', dir, 'tests/test_text.py'], { env });
    expect([file.exitCode, file.report.status, file.report.command, file.report.summary.passed]).toEqual([0, 'passed', 'python3 -m unittest tests/test_text.py', 2]);
    const nothing = await runJson(['--cwd', dir, '--failed-only'], { env });
    expect([nothing.exitCode, nothing.report.status]).toEqual([0, 'nothing_to_rerun']);
    const plain = await runJson(['--cwd', dir, '--name', 'test_even'], { env });
    expect([plain.exitCode, plain.report.command, plain.report.summary, failures(plain.report)]).toEqual([
      1, 'python3 -m unittest -k test_even', { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 }, [MIXED_FAILURES[1]],
    ]);
    const regex = await runJson(['--cwd', dir, '--name', '/TextTest\\.test_(upcase|reverse)$/'], { env });
    expect([regex.exitCode, regex.report.status, regex.report.summary.passed, regex.report.summary.run]).toEqual([0, 'passed', 2, 2]);
    const none = await runJson(['--cwd', dir, '--name', 'no such test'], { env });
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
    const directory = await runJson(['--cwd', dir, 'tests'], { env });
    expect([directory.exitCode, directory.report.command, directory.report.summary.run, failures(directory.report)]).toEqual([
      1, 'python3 -m unittest discover -s tests -t .', 13, MIXED_FAILURES,
    ]);
  });

  it('keeps the tests that finished when the timeout kills the run, and names the one that was running', async () => {
    const dir = await copyFixture('unittest-hang');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env });
    expect([exitCode, report.status, report.timed_out, report.signal]).toEqual([124, 'timed_out', true, 'SIGTERM']);
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.warnings).toContain('the run stopped while "tests.test_hang.HangTest.test_2_hangs" was running');
    expect(report.running_at_timeout).toEqual([{ name: 'tests.test_hang.HangTest.test_2_hangs', file: 'tests/test_hang.py' }]);
  });
});

const OTHERS = pyenvPythons();
(OTHERS.length > 0 && hasTools('python3') ? describe.each(OTHERS) : describe.skip.each([{ version: 'none', env: {} }]))('unittest with pyenv\'s python $version', ({ version, env }) => {
  it('counts the mixed run the same, and a run without tests is no_tests whatever unittest exits with', async () => {
    const dir = await copyFixture('unittest-mixed');
    const { report } = await runJson(['--cwd', dir], { env });
    expect([report.status, report.summary, report.warnings, failures(report)]).toEqual([
      'failed', { run: 13, passed: 5, failures: 4, errors: 1, skips: 3 }, [], MIXED_FAILURES,
    ]);
    const none = await runJson(['--cwd', dir, '--name', 'no such test'], { env });
    const minor = Number(version.split('.')[1]);
    expect([none.exitCode, none.report.status, none.report.exit_status]).toEqual([4, 'no_tests', minor >= 12 ? 5 : 0]);
  });
});
