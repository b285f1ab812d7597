import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, processGone, readEvents, runCli, runFile, runJson, waitFor } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

suite('minitest through bundle exec rake test', () => {
  it('reports exact counts, names, files and lines, and persists the log and failures', async () => {
    const dir = await copyFixture('minitest-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report).toMatchObject({
      status: 'failed', exit_code: 1, framework: 'minitest', command: 'bundle exec rake test', project_root: dir,
      exit_status: 1, signal: null, timed_out: false, warnings: [], error: null, next: `run-tests --cwd ${dir} --failed-only`,
      artifact: runFile(dir, 'test.log', report.run_id), failures_file: path.join(dir, '.run-tests/last-failures.json'),
    });
    expect(report.summary).toEqual({ run: 8, passed: 5, failures: 1, errors: 1, skips: 1 });
    // The error's line is the test-file frame (13), not lib/widget.rb where it was raised.
    expect(failures(report).sort()).toEqual([
      ['WidgetTest#test_explodes', 'test/widget_test.rb', 13, 'error'],
      ['WidgetTest#test_size_is_wrong', 'test/widget_test.rb', 9, 'failed'],
    ]);
    expect(report.failed_tests.find((t) => t.status === 'failed')?.message).toBe('size of abc.\nExpected: 5\n  Actual: 3');
    expect(report.failed_tests.find((t) => t.status === 'error')?.message).toBe('ArgumentError: widget exploded: too hot');
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toMatch(/8 runs, \d+ assertions, 1 failures, 1 errors, 1 skips/);
    const saved = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
    expect(saved).toMatchObject({ version: 2, framework: 'minitest', project_root: dir });
    expect(saved.failed_tests.map((t: { id: string }) => t.id).sort()).toEqual(['WidgetTest#test_explodes', 'WidgetTest#test_size_is_wrong']);
    expect(await fs.readFile(path.join(dir, '.run-tests/.gitignore'), 'utf8')).toBe('*\n');
  });

  it('reruns exactly the previous failures, including names with spaces, brackets and parentheses', async () => {
    const dir = await copyFixture('minitest-mixed');
    // Make the bracket-named test fail too, so the rerun has to select it by its exact name.
    const testFile = path.join(dir, 'test/widget_test.rb');
    await fs.writeFile(testFile, (await fs.readFile(testFile, 'utf8')).replace('assert_equal "[x]", "[x]"', 'assert_equal "[x]", "[y]"'));
    const first = await runJson(['--cwd', dir]);
    expect(first.report.summary).toEqual({ run: 8, passed: 4, failures: 2, errors: 1, skips: 1 });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(exitCode).toBe(1);
    expect(report.summary).toEqual({ run: 3, passed: 0, failures: 2, errors: 1, skips: 0 });
    expect(report.rerun).toEqual({ selected: 3, not_run: [] });
    expect(report.failed_tests.map((t) => t.test_name).sort()).toEqual([
      'WidgetTest#test_explodes', 'WidgetTest#test_size_is_wrong', 'WidgetTest#test_with [brackets] (and parens)',
    ]);
    // Minitest shuffles, so the alternation's order follows the first run; each name is escaped exactly.
    expect(report.command).toMatch(/^TEST=test\/widget_test\.rb bundle exec rake test 'TESTOPTS='\\''--name=\/\\A\(\?:.*\)\\z\/'\\'''$/);
    for (const escaped of ['WidgetTest\\#test_size_is_wrong', 'WidgetTest\\#test_explodes', 'WidgetTest\\#test_with \\[brackets\\] \\(and parens\\)']) {
      expect(report.command).toContain(escaped);
    }
  });

  it('writes a passing test\'s event with every key of a test_end but the failure keys, names escaped, as the schema says', async () => {
    const dir = await copyFixture('minitest-mixed');
    // Passing events come from a template rather than a Hash: a name that needs escaping proves its JSON.
    const odd = 'test_"quoted" \\ back\tslash ü';
    await fs.writeFile(path.join(dir, 'test/odd_name_test.rb'), [
      'require "test_helper"', '', 'class OddNameTest < Minitest::Test',
      `  define_method(${JSON.stringify(odd)}) { assert true }`, 'end', '',
    ].join('\n'));
    const { report } = await runJson(['--cwd', dir]);
    expect(report.summary).toEqual({ run: 9, passed: 6, failures: 1, errors: 1, skips: 1 });
    const events = readEvents(runFile(dir, 'minitest.jsonl'));
    expect([events[0]?.['event'], events.at(-1)?.['event'], events.at(-1)?.['totals']]).toEqual(['run_start', 'run_end', { tests: 9, failed: 1, errors: 1, skipped: 1 }]);
    const tests = events.filter((event) => event['event'] === 'test_end');
    const passed = tests.filter((event) => event['status'] === 'passed');
    expect(passed.map((event) => [event['name'], event['file'], event['line']]).sort()).toEqual([
      [`OddNameTest#${odd}`, path.join(dir, 'test/odd_name_test.rb'), 4],
      ['TextTest#test_reverse', path.join(dir, 'test/text_test.rb'), 8],
      ['TextTest#test_upcase', path.join(dir, 'test/text_test.rb'), 4],
      ['WidgetTest#test_size', path.join(dir, 'test/widget_test.rb'), 4],
      ['WidgetTest#test_with [brackets] (and parens)', path.join(dir, 'test/widget_test.rb'), 20],
      ['WidgetTest#test_with spaces in the name', path.join(dir, 'test/widget_test.rb'), 24],
    ]);
    for (const event of passed) {
      expect(Object.keys(event)).toEqual(['event', 'name', 'file', 'line', 'status', 'duration_ms']);
      expect(event['duration_ms']).toEqual(expect.any(Number));
    }
    const failed = tests.find((event) => event['status'] === 'failed');
    expect(Object.keys(failed ?? {})).toEqual([...Object.keys(passed[0] ?? {}), 'message', 'location']);
    expect(failed?.['location']).toEqual({ file: path.join(dir, 'test/widget_test.rb'), line: 9 });
  });

  it('says nothing_to_rerun (exit 0) after a passing run', async () => {
    const dir = await copyFixture('minitest-mixed');
    const passing = await runJson(['--cwd', dir, 'test/text_test.rb']);
    expect(passing.report.status).toBe('passed');
    expect(passing.report.summary).toEqual({ run: 2, passed: 2, failures: 0, errors: 0, skips: 0 });
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status, report.summary.run, report.command]).toEqual([0, 'nothing_to_rerun', 0, null]);
  });

  it('filters by --name as a substring or a /regex/', async () => {
    const dir = await copyFixture('minitest-mixed');
    const plain = await runJson(['--cwd', dir, '--name', '[brackets] (and']);
    expect([plain.exitCode, plain.report.status, plain.report.summary.run]).toEqual([0, 'passed', 1]);
    const regex = await runJson(['--cwd', dir, '--name', '/^test_(upcase|reverse)$/']);
    expect([regex.exitCode, regex.report.summary.passed, regex.report.summary.run]).toEqual([0, 2, 2]);
    const none = await runJson(['--cwd', dir, '--name', 'no such test']);
    expect([none.exitCode, none.report.status, none.report.summary.run]).toEqual([4, 'no_tests', 0]);
    expect(none.report.warnings).toEqual(['no test matched --name "no such test"']);
    const allowed = await runJson(['--cwd', dir, '--name', 'no such test', '--allow-no-tests']);
    expect([allowed.exitCode, allowed.report.status]).toEqual([0, 'no_tests']);
  });

  it('reports a test file that fails to load as an error entry with its file and line', async () => {
    const dir = await copyFixture('minitest-load-error');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(exitCode).toBe(1);
    expect(report.status).toBe('failed');
    expect(failures(report)).toEqual([['load error: test/broken_test.rb', 'test/broken_test.rb', expect.any(Number), 'error']]);
    expect(report.failed_tests[0]?.message).toMatch(/^NameError: uninitialized constant/);
  });

  it('never passes when the report is clean but the runner exits non-zero, and quotes the log', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.appendFile(path.join(dir, 'Rakefile'), '\nRake::Task[:test].enhance { warn "teardown went wrong"; exit 7 }\n');
    const { exitCode, report } = await runJson(['--cwd', dir, 'test/text_test.rb']);
    expect([exitCode, report.status, report.exit_status, report.summary.passed]).toEqual([3, 'error', 7, 2]);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(/^the report shows no failures but the runner exited 7; last lines of .*\/\.run-tests\/runs\/[^/]+\/test\.log:\n/);
    expect(report.warnings[0]).toContain('teardown went wrong');
  });

  it('passes the live output through to stderr with --stream, keeping stdout for the report', async () => {
    const dir = await copyFixture('minitest-mixed');
    const { report, stderr } = await runJson(['--cwd', dir, 'test/text_test.rb', '--stream']);
    expect(report.status).toBe('passed');
    expect(stderr).toMatch(/2 runs, 2 assertions, 0 failures, 0 errors, 0 skips/);
  });

  it('runs rake test without a Gemfile', async () => {
    const dir = await copyFixture('minitest-plain');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.command, report.summary.run, report.summary.failures]).toEqual([1, 'rake test', 3, 1]);
    expect(failures(report)).toEqual([['ArithmeticTest#test_subtracts_wrongly', 'test/arithmetic_test.rb', 13, 'failed']]);
  });

  it('ignores BUNDLE_GEMFILE and RUBYOPT from the caller', async () => {
    const dir = await copyFixture('minitest-mixed');
    const { report } = await runJson(['--cwd', dir, 'test/text_test.rb'], { env: { BUNDLE_GEMFILE: '/nonexistent/Gemfile', RUBYOPT: '-rnonexistent_lib' } });
    expect([report.status, report.summary.passed]).toEqual(['passed', 2]);
  });

  it('kills the whole process tree on timeout and keeps the tests that finished', async () => {
    const dir = await copyFixture('minitest-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '3', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect(exitCode).toBe(124);
    // rake catches the SIGTERM its test process died of and exits 1 itself.
    expect(report).toMatchObject({ status: 'timed_out', timed_out: true, exit_status: 1, signal: null });
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.duration_ms).toBeGreaterThanOrEqual(3000);
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(1);
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toMatch(/run-tests: timed out after 3s/);
  });

  it('forwards Ctrl-C, writes the log and reports interrupted (exit 130)', async () => {
    const dir = await copyFixture('minitest-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    let cliPid = 0;
    const running = runJson(['--cwd', dir, '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile }, onSpawn: (pid) => { cliPid = pid; } });
    await waitFor('the hanging test to start', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '');
    process.kill(cliPid, 'SIGINT');
    const { exitCode, report } = await running;
    expect([exitCode, report.status, report.summary.passed]).toEqual([130, 'interrupted', 1]);
    await waitFor('the grandchild to die', () => processGone(Number(fs.readFileSync(pidFile, 'utf8'))));
    expect(fs.existsSync(path.join(dir, '.run-tests/last-test.log'))).toBe(true);
  });
});

suite('human output', () => {
  it('prints failures, the summary line, the log and the next step, coloured only when asked', async () => {
    const dir = await copyFixture('minitest-mixed');
    const plain = await runCli(['--cwd', dir], { env: { FORCE_COLOR: '0' } });
    expect(plain.exitCode).toBe(1);
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain(`run-tests · minitest · ${dir}\n$ bundle exec rake test\n`);
    expect(plain.stdout).toContain('test/widget_test.rb:9 failed\n     WidgetTest#test_size_is_wrong\n');
    expect(plain.stdout).toMatch(/\nFAILED {2}5 passed, 1 failed, 1 errors, 1 skipped in \d+\.\d\ds\n/);
    expect(/\nlog: (.*)\nnext: run-tests --cwd (\S+) --failed-only\n/.exec(plain.stdout)?.slice(1)).toEqual([runFile(dir, 'test.log'), dir]);
    const coloured = await runCli(['--cwd', dir], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(coloured.stdout).toContain('\u001b[');
    const noColor = await runCli(['--cwd', dir], { env: { FORCE_COLOR: undefined, NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });
});

suite('reruns and the failures file', () => {
  it('fails clearly (exit 3) when there is no failures file, and never runs the whole suite', async () => {
    const dir = await copyFixture('minitest-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status, report.error?.code, report.command]).toEqual([3, 'error', 'FAILURES_MISSING', null]);
    expect(report.error?.message).toContain(path.join(dir, '.run-tests/last-failures.json'));
    expect(fs.existsSync(path.join(dir, '.run-tests/last-test.log'))).toBe(false);
  });

  it('fails clearly (exit 3) on a corrupt or foreign-version failures file', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.outputFile(path.join(dir, '.run-tests/last-failures.json'), '{"version": 1, "framework"');
    const corrupt = await runJson(['--cwd', dir, '--failed-only']);
    expect([corrupt.exitCode, corrupt.report.error?.code]).toEqual([3, 'STORE_CORRUPT']);
    await fs.outputJson(path.join(dir, '.run-tests/last-failures.json'), { version: 99, framework: 'minitest', failed_tests: [] });
    const future = await runJson(['--cwd', dir, '--failed-only']);
    expect(future.report.error?.message).toContain('version 99, expected 2');
  });
});

suite('bad input exits 2 and runs nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['a control character in --name', ['--name', 'a\u0001b'], /--name must not contain control characters/],
    ['a --name over 200 bytes', ['--name', 'x'.repeat(201)], /--name is longer than 200 bytes/],
    ['an invalid /regex/ --name', ['--name', '/test_(a/'], /--name \/test_\(a\/ is not a valid regular expression/],
    ['a missing file', ['test/nope_test.rb'], /file "test\/nope_test.rb" does not exist/],
    ['a file outside the root', ['/etc/hostname'], /file "\/etc\/hostname" lies outside/],
    ['a zero timeout', ['--timeout', '0'], /--timeout must be a positive number of seconds, got "0"/],
    ['a non-numeric timeout', ['--timeout', 'soon'], /--timeout must be a positive number of seconds, got "soon"/],
    ['an unknown option', ['--frobnicate'], /unknown option '--frobnicate'/],
    ['an unknown runner', ['--runner', 'cobol'], /--runner "cobol" is not a runner/],
  ];
  it.each(cases)('%s', async (_label, args, message) => {
    const dir = await copyFixture('minitest-mixed');
    const result = await runCli(['--cwd', dir, ...args, '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, '.run-tests'))).toBe(false);
  });
});

suite('harness errors exit 3', () => {
  it('says what it looked for, and where, when no runner is detected', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.remove(path.join(dir, 'Gemfile'));
    await fs.remove(path.join(dir, 'Rakefile'));
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'NO_RUNNER']);
    expect(report.error?.message).toMatch(/^no test runner detected in \/.*looked for bin\/rails/);
  });

  it('says what to install when the runner executable is missing', async () => {
    const dir = await copyFixture('minitest-mixed');
    const { exitCode, report } = await runJson(['--cwd', dir], { env: { PATH: '/nonexistent' } });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toMatch(/bundle.*apt-get install ruby bundler rake/);
  });
});
