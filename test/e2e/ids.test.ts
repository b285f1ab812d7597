import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, hasTools, runCli, runJson } from './helpers.js';
import { project, runSuggested } from './suggested.js';

/** `--id` selects recorded tests only, checked by what ran; `next` works from where the
 * caller stands. */

const ruby = hasTools('ruby', 'bundle') ? describe : describe.skip;
const node = hasTools('node') ? describe : describe.skip;

const WIDGET = 'test/widget_test.rb';
const EXPLODES = ['WidgetTest#test_explodes', WIDGET, 13, 'error'];
const SIZE = ['WidgetTest#test_size_is_wrong', WIDGET, 9, 'failed'];

/** A suggested command as words: paths in a temp dir need no quoting. */
function words(command: string | null): string[] {
  expect(command).not.toMatch(/['"\\]/);
  return command?.split(' ') ?? [];
}

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  expect(change(text)).not.toBe(text);
  await fs.writeFile(file, change(text));
}

const fixWidget = (dir: string) => edit(path.join(dir, WIDGET), (t) => t.replace('assert_equal 5,', 'assert_equal 3,').replace('Widget.explode("too hot")', 'assert true'));
const runCount = async (dir: string): Promise<number> => (await fs.readdir(path.join(dir, '.run-tests/runs'))).length;
const failed = (report: { failed_tests: readonly { test_name: string; file: string | null; line: number | null; status: string }[] }) =>
  report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status]);

ruby('--id', () => {
  it('runs several ids exactly, and a renamed test is not_run, never passed', async () => {
    const dir = await copyFixture('minitest-mixed');
    await runJson(['--cwd', dir]);
    const both = await runJson(['--cwd', dir, '--id', 'WidgetTest#test_explodes', '--id=WidgetTest#test_size_is_wrong']);
    expect([both.exitCode, both.report.rerun, both.report.summary.run, failed(both.report).sort()]).toEqual([1, { selected: 2, not_run: [] }, 2, [EXPLODES, SIZE]]);

    await edit(path.join(dir, WIDGET), (t) => t.replace('def test_size_is_wrong', 'def test_size_renamed'));
    const { exitCode, report } = await runJson(['--cwd', dir, '--id', 'WidgetTest#test_size_is_wrong']);
    // minitest's filter matched nothing: no tests, and the selected one is named as not run.
    expect([exitCode, report.status, report.rerun, report.summary.run]).toEqual([4, 'no_tests', { selected: 1, not_run: ['WidgetTest#test_size_is_wrong'] }, 0]);
    expect(report.warnings).toEqual(['no tests ran', '1 of the 1 selected tests did not run: WidgetTest#test_size_is_wrong']);
  }, 60_000);

  it('refuses an id no run recorded, hostile or not, before anything runs', async () => {
    const dir = await copyFixture('minitest-mixed');
    await runJson(['--cwd', dir]);
    for (const id of ['WidgetTest#test_size', '-rf', '--name=x', '$(touch pwned)', '`touch pwned`; touch pwned']) {
      const { exitCode, stdout, stderr } = await runCli(['--cwd', dir, `--id=${id}`, '--json']);
      expect([exitCode, stdout]).toEqual([2, '']);
      expect(stderr).toBe(`run-tests: --id ${JSON.stringify(id)}: no such test in the failures recorded in ${dir}/.run-tests (last-failures.json and the stored runs' reports); give an id a run printed, or run the suite or its file first\n`);
    }
    expect([await runCount(dir), fs.existsSync(path.join(dir, 'pwned')), fs.existsSync(path.join(os.homedir(), 'pwned'))]).toEqual([1, false, false]);
    for (const [args, message] of [
      [['--id', 'x', '--failed-only'], 'run-tests: --id runs exactly the tests given; it cannot be combined with --failed-only\n'],
      [['--id', 'x', '--name', 'y'], 'run-tests: --id runs exactly the tests given; it cannot be combined with --name\n'],
      [['--id', ''], 'run-tests: --id needs a test id, got ""\n'],
    ] as const) {
      expect(await runCli(['--cwd', dir, ...args])).toEqual({ exitCode: 2, stdout: '', stderr: message });
    }
  }, 60_000);

  it('finds an id in an older run once last-failures no longer holds it', async () => {
    const dir = await copyFixture('minitest-mixed');
    const first = await runJson(['--cwd', dir]);
    await fixWidget(dir);
    const passed = await runJson(['--cwd', dir]);
    expect([passed.exitCode, passed.report.failed_tests]).toEqual([0, []]);
    const again = await runSuggested(first.report.failed_tests[1]?.rerun_argv);
    expect([again.exitCode, again.report.status, again.report.rerun, again.report.summary.run]).toEqual([0, 'passed', { selected: 1, not_run: [] }, 1]);
    expect(again.report.next).toBe(`run-tests --cwd ${dir}`);
  }, 60_000);

  it('finds an id in the stored runs when last-failures.json is corrupt, which the run sets aside', async () => {
    const dir = await copyFixture('minitest-mixed');
    await runJson(['--cwd', dir]);
    await fs.writeFile(path.join(dir, '.run-tests/last-failures.json'), '{');
    const { exitCode, report } = await runJson(['--cwd', dir, '--id', 'WidgetTest#test_explodes']);
    expect([exitCode, report.rerun, failed(report)]).toEqual([1, { selected: 1, not_run: [] }, [EXPLODES]]);
    expect(report.warnings).toEqual([expect.stringMatching(/last-failures\.json was unusable \(not valid JSON\): kept as /)]);
  }, 60_000);

  it('reruns a subproject\'s failure from the directory above it', async () => {
    const top = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-ids-mono-')));
    const dir = await copyFixture('minitest-mixed', path.join(top, 'shop'));
    const first = await runJson([WIDGET].map((f) => `shop/${f}`), { cwd: top });
    expect([first.report.project_root, first.report.next]).toEqual([dir, 'run-tests --failed-only shop']);
    const [explodes] = first.report.failed_tests.filter((t) => t.id === 'WidgetTest#test_explodes');
    expect(explodes?.rerun_argv).toEqual(['run-tests', '--id=WidgetTest#test_explodes', 'shop']);
    const rerun = await runSuggested(explodes?.rerun_argv, { cwd: top });
    expect([rerun.exitCode, rerun.report.rerun, failed(rerun.report)]).toEqual([1, { selected: 1, not_run: [] }, [EXPLODES]]);
  }, 60_000);
});

ruby('rerun_argv in a merged monorepo report', () => {
  it('names each failure\'s subproject, so the same id reruns in that project only', async () => {
    const top = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-ids-merged-')));
    await Promise.all(['calc', 'shop'].map((name) => copyFixture('minitest-mixed', path.join(top, name))));
    const { report } = await runJson(['calc/test/widget_test.rb', 'shop/test/widget_test.rb'], { cwd: top });
    expect([report.projects.length, report.next]).toEqual([2, 'run-tests --failed-only calc shop']);
    const argvs = report.failed_tests.map((t) => t.rerun_argv?.join(' ')).sort();
    expect(argvs).toEqual([
      'run-tests --id=WidgetTest#test_explodes calc', 'run-tests --id=WidgetTest#test_explodes shop',
      'run-tests --id=WidgetTest#test_size_is_wrong calc', 'run-tests --id=WidgetTest#test_size_is_wrong shop',
    ]);
    const shop = report.failed_tests.find((t) => t.rerun_argv?.join(' ') === 'run-tests --id=WidgetTest#test_explodes shop');
    const rerun = await runSuggested(shop?.rerun_argv, { cwd: top });
    expect([rerun.exitCode, rerun.report.project_root, rerun.report.rerun, failed(rerun.report)]).toEqual([1, path.join(top, 'shop'), { selected: 1, not_run: [] }, [EXPLODES]]);
    // Nothing ran in calc: its last run is still the merged one.
    expect((await fs.readdir(path.join(top, 'calc/.run-tests/runs'))).length).toBe(1);
  }, 60_000);
});

ruby('next with --cwd', () => {
  it('reruns the failures, then suggests the whole suite once they pass', async () => {
    const dir = await copyFixture('minitest-mixed');
    const first = await runJson(['--cwd', dir], { cwd: os.tmpdir() });
    expect(first.report.next).toBe(`run-tests --cwd ${dir} --failed-only`);
    const rerun = await runJson(words(first.report.next).slice(1), { cwd: os.tmpdir() });
    expect([rerun.exitCode, rerun.report.rerun, rerun.report.next]).toEqual([1, { selected: 2, not_run: [] }, first.report.next]);
    await fixWidget(dir);
    const fixed = await runJson(words(rerun.report.next).slice(1), { cwd: os.tmpdir() });
    expect([fixed.exitCode, fixed.report.status, fixed.report.summary.run, fixed.report.next]).toEqual([0, 'passed', 2, `run-tests --cwd ${dir}`]);
    const whole = await runJson(words(fixed.report.next).slice(1), { cwd: os.tmpdir() });
    expect([whole.exitCode, whole.report.status, whole.report.summary, whole.report.next]).toEqual([0, 'passed', { run: 8, passed: 7, failures: 0, errors: 0, skips: 1 }, null]);
    const nothing = await runJson(['--cwd', dir, '--failed-only'], { cwd: os.tmpdir() });
    expect([nothing.report.status, nothing.report.next]).toEqual(['nothing_to_rerun', `run-tests --cwd ${dir}`]);
  }, 60_000);
});

node('next with --runner', () => {
  it('keeps --runner mocha, which detection would not find', async () => {
    // No package.json evidence of mocha: only --runner chooses it.
    const dir = await project('mocha-mixed', true);
    await fs.writeJson(path.join(dir, 'package.json'), { name: 'bare', private: true });
    await fs.remove(path.join(dir, 'spec/setup.spec.js'));
    await fs.move(path.join(dir, 'spec/math.spec.js'), path.join(dir, 'test/math.spec.js'));
    await fs.remove(path.join(dir, 'test/setup.js'));
    const detected = await runJson(['test/math.spec.js'], { cwd: dir });
    expect(detected.report.framework).toBe('node-test');
    const first = await runJson(['--runner', 'mocha', 'test/math.spec.js'], { cwd: dir });
    expect([first.exitCode, first.report.framework, first.report.next]).toEqual([1, 'mocha', 'run-tests --runner mocha --failed-only']);
    expect(first.report.failed_tests.map((t) => t.rerun_argv)).toEqual([
      ['run-tests', '--runner', 'mocha', '--id=test/math.spec.js::math adds wrongly'],
      ['run-tests', '--runner', 'mocha', '--id=test/math.spec.js::math explodes'],
    ]);
    // Without --runner the id is refused: detection chooses another runner than the one that recorded it.
    expect(await runCli(['--id=test/math.spec.js::math explodes'], { cwd: dir })).toEqual({
      exitCode: 2, stdout: '', stderr: 'run-tests: --id "test/math.spec.js::math explodes" was recorded by a mocha run, but this run uses node-test; give --runner mocha\n',
    });
    const rerun = await runJson(words(first.report.next).slice(1), { cwd: dir });
    expect([rerun.exitCode, rerun.report.framework, rerun.report.rerun]).toEqual([1, 'mocha', { selected: 2, not_run: [] }]);
    await edit(path.join(dir, 'test/math.spec.js'), (t) => t.replace('1 + 1, 3', '1 + 1, 2').replace("explode('too hot');", ''));
    const fixed = await runJson(words(rerun.report.next).slice(1), { cwd: dir });
    expect([fixed.exitCode, fixed.report.status, fixed.report.next]).toEqual([0, 'passed', 'run-tests --runner mocha']);
    const whole = await runJson(words(fixed.report.next).slice(1), { cwd: dir });
    expect([whole.exitCode, whole.report.framework, whole.report.summary]).toEqual([0, 'mocha', { run: 7, passed: 5, failures: 0, errors: 0, skips: 2 }]);
  }, 60_000);
});

(hasTools('python3', 'pytest-3') ? describe : describe.skip)('--id that reads like an option', () => {
  it('stays the value of --id and reaches pytest as a node id, never an option', async () => {
    const env = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };
    const dir = await copyFixture('pytest-mixed');
    await fs.writeFile(path.join(dir, '--check_test.py'), 'def test_odd_passes():\n    assert True\n\n\ndef test_odd_fails():\n    assert 1 + 1 == 3\n');
    const { stdout } = await runCli(['--cwd', dir, '--json', '--file=--check_test.py'], { env });
    const [odd] = (JSON.parse(stdout) as { failed_tests: { rerun_argv: string[] }[] }).failed_tests;
    expect(odd?.rerun_argv).toEqual(['run-tests', '--cwd', dir, '--id=--check_test.py::test_odd_fails']);
    const rerun = await runSuggested(odd?.rerun_argv, { env });
    const ran = (r: typeof rerun) => [r.exitCode, r.report.command, r.report.rerun, failed(r.report)];
    const expected = [1, 'python3 -m pytest ./--check_test.py::test_odd_fails', { selected: 1, not_run: [] }, [['--check_test.py::test_odd_fails', '--check_test.py', 6, 'failed']]];
    expect(ran(rerun)).toEqual(expected);
    // Given as two words, the option still takes it as its value.
    expect(ran(await runJson(['--cwd', dir, '--id', '--check_test.py::test_odd_fails'], { env }))).toEqual(expected);
  }, 60_000);
});
