import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, failures, junitTests, once, processGone, REPO, runJson, waitFor } from './helpers.js';
import { ADDS_NEGATIVES, BEFORE_BROKE, HOOKS_PLAIN, JEST_MIXED_FAILURES, sorted } from './expected.js';

/** A temp copy of a fixture whose node_modules is run-tests' own (jest 30 is a devDependency). */
async function jestFixture(name: string, into?: string): Promise<string> {
  const dir = await copyFixture(name, into);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** One plain run of a jest-mixed copy: one test reads its report, another reruns its
 * failures in its directory. */
const mixedRun = once(async () => {
  const dir = await jestFixture('jest-mixed');
  return { dir, ...(await runJson(['--cwd', dir])) };
});

describe('jest through its programmatic API', () => {
  it('reports hooks that throw: beforeAll on each of its tests, afterAll on its file, with the error itself', async () => {
    const dir = await jestFixture('jest-hooks');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(report.summary).toEqual({ run: 5, passed: 1, failures: 1, errors: 3, skips: 0 });
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status, t.message])).toEqual([
      // As jest shows them: the error (and a diff), then jest's code frame.
      ['with before › one', 'test/hooks.test.js', 3, 'error', BEFORE_BROKE],
      ['with before › two', 'test/hooks.test.js', 3, 'error', BEFORE_BROKE],
      ['plain', 'test/hooks.test.js', 17, 'failed', HOOKS_PLAIN],
      // jest reports an afterAll that threw as an error of its file, after its tests ran:
      // named for the hook, never a load error; its id is the file, as a load error's.
      ['"after all" hook in test/hooks.test.js', 'test/hooks.test.js', 11, 'error', 'Error: after broke'],
    ]);
    expect(report.failed_tests.at(-1)?.id).toBe('test/hooks.test.js');
  });

  it('reports failures, errors, skips, todos and a load error with files and lines', async () => {
    const { exitCode, report } = await mixedRun();
    expect([exitCode, report.status, report.framework, report.exit_status]).toEqual([1, 'failed', 'jest', 1]);
    expect(report.summary).toEqual({ run: 10, passed: 3, failures: 3, errors: 2, skips: 2 });
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES);
    expect(report.warnings).toEqual([]);
    const byName = Object.fromEntries(report.failed_tests.map((t) => [t.test_name, t]));
    expect(byName['math › add › adds negatives']).toMatchObject({
      id: 'test/math.test.js::math › add › adds negatives',
      message: ADDS_NEGATIVES,
    });
    expect(byName['math › parses config']?.message).toBe("SyntaxError: Expected property name or '}' in JSON at position 1\n\n  1 | exports.add = (a, b) => a + b;\n> 2 | exports.parse = (text) => JSON.parse(text);\n    |                                ^\n  3 |");
    expect(byName['top level fails']?.message).toBe('expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   "a": 2,\n+   "a": 1,\n  }\n\n  4 |\n  5 | test(\'top level fails\', () => {\n> 6 |   expect({ a: 1 }).toEqual({ a: 2 });\n    |                    ^\n  7 | });\n  8 |');
    expect(byName['load error: test/broken.test.js']).toMatchObject({ id: 'test/broken.test.js', message: 'Error: broken at load: object' });
    expect(report.command).toBe('npx jest');
  });

  it('reads the same files, lines and messages when the project path has a space', async () => {
    const parent = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-jest-space-')));
    const dir = await jestFixture('jest-mixed', path.join(parent, 'my project'));
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings]).toEqual([1, 'failed', []]);
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES);
    expect(report.failed_tests.find((t) => t.test_name === 'math › add › adds negatives')?.message)
      .toBe(ADDS_NEGATIVES);
    expect(report.failed_tests.filter((t) => /^\s+at /m.test(t.message ?? '')).map((t) => t.test_name)).toEqual([]);
  });

  it('shows a command that, typed in the project root, runs what ran', async () => {
    const dir = await jestFixture('jest-mixed');
    const { report } = await runJson(['--cwd', dir, 'test/second.test.js', '--name', 'top level']);
    expect(report.command).toBe("npx jest test/second.test.js -t 'top level'");
    const typed = spawnSync('sh', ['-c', report.command ?? ''], { cwd: dir, encoding: 'utf8' });
    expect([typed.status, /^Tests: +1 failed, 1 passed, 2 total$/m.test(typed.stderr)]).toEqual([1, true]);
    const events = await fs.readFile(path.join(dir, `.run-tests/runs/${report.run_id}/jest-events.jsonl`), 'utf8');
    expect(events).toContain('"top level fails"');
  });

  it('reruns exactly the failures by anchored names, brackets and parentheses included', async () => {
    const dir = await jestFixture('jest-mixed');
    await fs.remove(path.join(dir, 'test/broken.test.js'));
    await runJson(['--cwd', dir]);
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 4, passed: 0, failures: 3, errors: 1, skips: 0 });
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES.slice(1));
    expect(report.rerun).toEqual({ selected: 4, not_run: [] });
    expect(report.command).toContain("-t '^(?:");
    expect(report.command).toContain('math fails \\[with\\] \\(brackets\\) too');
  });

  it('reruns a load error file whole and the other failures exactly, in a second jest into the same report', async () => {
    const { dir } = await mixedRun();
    const junit = path.join(dir, 'rerun.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect([exitCode, report.status, report.rerun, report.warnings]).toEqual([1, 'failed', { selected: 5, not_run: [] }, []]);
    expect(report.summary).toEqual({ run: 5, passed: 0, failures: 3, errors: 2, skips: 0 });
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES);
    // Exactly the previous failures ran: none of the passing or skipped tests of their files.
    expect(await junitTests(junit)).toEqual([
      ['test/broken.test.js', 'load error: test/broken.test.js', 'error'],
      ['test/math.test.js', 'math › add › adds negatives', 'failure'],
      ['test/math.test.js', 'math › fails [with] (brackets) too', 'failure'],
      ['test/math.test.js', 'math › parses config', 'error'],
      ['test/second.test.js', 'top level fails', 'failure'],
    ]);
    const [exact, whole] = (report.command ?? '').split(' ; ');
    expect(exact).toMatch(/^npx jest test\/(math|second)\.test\.js test\/(math|second)\.test\.js -t '\^\(\?:.*\)\$'$/);
    expect(whole).toBe('npx jest test/broken.test.js');
  });

  it('settles a load error once its file loads, running that file whole', async () => {
    const dir = await jestFixture('jest-mixed');
    await runJson(['--cwd', dir]);
    await fs.writeFile(path.join(dir, 'test/broken.test.js'), "test('loads now', () => expect(1).toBe(1));\n");
    const junit = path.join(dir, 'rerun.xml');
    const { report } = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect([report.rerun, report.summary]).toEqual([{ selected: 5, not_run: [] }, { run: 5, passed: 1, failures: 3, errors: 1, skips: 0 }]);
    expect((await junitTests(junit)).filter(([file]) => file === 'test/broken.test.js')).toEqual([['test/broken.test.js', 'loads now', 'passed']]);
    expect(sorted(failures(report))).toEqual(JEST_MIXED_FAILURES.slice(1));
  });

  it('reruns a file whose afterAll threw whole, once, though tests of it failed too, and only the failure of another file', async () => {
    const dir = await jestFixture('jest-hooks');
    await fs.writeFile(path.join(dir, 'test/other.test.js'), "test('passes', () => {});\ntest('fails', () => expect(1).toBe(2));\n");
    const first = await runJson(['--cwd', dir]);
    expect(first.report.summary).toEqual({ run: 7, passed: 2, failures: 2, errors: 3, skips: 0 });
    const junit = path.join(dir, 'rerun.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect([exitCode, report.rerun, report.warnings]).toEqual([1, { selected: 5, not_run: [] }, []]);
    expect(report.summary).toEqual({ run: 6, passed: 1, failures: 2, errors: 3, skips: 0 });
    expect(await junitTests(junit)).toEqual([
      ['test/hooks.test.js', '"after all" hook in test/hooks.test.js', 'error'],
      ['test/hooks.test.js', 'plain', 'failure'],
      ['test/hooks.test.js', 'with after › three', 'passed'],
      ['test/hooks.test.js', 'with before › one', 'error'],
      ['test/hooks.test.js', 'with before › two', 'error'],
      ['test/other.test.js', 'fails', 'failure'],
    ]);
    expect(report.command?.split(' ; ')).toEqual([
      "npx jest test/other.test.js -t '^(?:fails)$'",
      'npx jest test/hooks.test.js',
    ]);
  });

  it('gives a failure whose stack has no frame in its test file a null line, never a guessed one', async () => {
    const dir = await jestFixture('jest-mixed');
    // The error is made in node's internals, when the spawn fails: no frame of the test.
    const source = "const { spawn } = require('node:child_process');\n\ntest('starts a missing program', async () => {\n  await new Promise((resolve, reject) => spawn('/no/such/program').on('error', reject).on('exit', resolve));\n});\n";
    await fs.writeFile(path.join(dir, 'test/spawn-error.test.js'), source);
    const { report } = await runJson(['--cwd', dir, 'test/spawn-error.test.js']);
    expect([report.status, report.summary]).toEqual(['failed', { run: 1, passed: 0, failures: 0, errors: 1, skips: 0 }]);
    expect(report.failed_tests).toEqual([expect.objectContaining({
      test_name: 'starts a missing program',
      file: 'test/spawn-error.test.js',
      line: null,
      message: 'Error: spawn /no/such/program ENOENT',
    })]);
  });

  it('filters by --name as a plain substring or a /regex/, with files', async () => {
    const dir = await jestFixture('jest-mixed');
    const plain = await runJson(['--cwd', dir, '--name', 'handles [brackets] and (parens)', 'test/math.test.js', 'test/second.test.js']);
    expect([plain.exitCode, plain.report.status, plain.report.summary]).toEqual([0, 'passed', { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }]);
    const regex = await runJson(['--cwd', dir, '--name', '/^math add/', 'test/math.test.js']);
    expect(regex.report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(regex.report)).toEqual([['math › add › adds negatives', 'test/math.test.js', 11, 'failed']]);
  });

  it('is no_tests, saying so, when no test file matches the files or no test matches --name (jest exits 1 on the first)', async () => {
    const dir = await jestFixture('jest-mixed');
    const noFile = await runJson(['--cwd', dir, 'src/']);
    expect([noFile.exitCode, noFile.report.status, noFile.report.error]).toEqual([4, 'no_tests', null]);
    expect(noFile.report.summary).toEqual({ run: 0, passed: 0, failures: 0, errors: 0, skips: 0 });
    expect(noFile.report.warnings).toEqual(['jest found no test file to run: no file matched the selection (or its own test file patterns)', 'no tests ran']);
    const noName = await runJson(['--cwd', dir, '--name', 'no such test', 'test/math.test.js']);
    expect([noName.exitCode, noName.report.status]).toEqual([4, 'no_tests']);
    // Why no test ran, without the bare "no tests ran" besides.
    expect(noName.report.warnings).toEqual(['no test matched the name filter: jest left out all 7 tests of the files it ran']);
  });

  it('runs jest with the config of kcd-scripts when scripts.test is `kcd-scripts test` and jest only its dependency', async () => {
    // jest hoisted above the project, as a workspace installs it; kcd-scripts' published
    // `kcd-scripts/jest` config stands in as a file selecting checks/*.js, which jest's
    // defaults would not: only with it do the fixture's tests run.
    const top = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-kcd-')));
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(top, 'node_modules'));
    const dir = await copyFixture('jest-kcd-scripts', path.join(top, 'project'));
    await fs.outputFile(path.join(dir, 'node_modules/kcd-scripts/package.json'), '{"name":"kcd-scripts","version":"16.0.0"}');
    await fs.outputFile(path.join(dir, 'node_modules/kcd-scripts/jest.js'), "module.exports = { testMatch: ['<rootDir>/checks/*.js'] };\n");
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.framework, report.error]).toEqual([1, 'failed', 'jest', null]);
    expect(report.reason).toBe("scripts.test runs jest: the project's own jest, through run-tests' launcher; scripts.test runs jest through kcd-scripts; run-tests runs jest with kcd-scripts's config (kcd-scripts/jest.js) unless the project has its own");
    // jest is hoisted above the project, where npx would not find it: shown by its path.
    expect(report.command).toMatch(/^\/\S+\/node_modules\/\.bin\/jest --config node_modules\/kcd-scripts\/jest\.js --rootDir \S+\/project --ci$/);
    expect(report.summary).toEqual({ run: 3, passed: 2, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['sum › adds wrongly', 'checks/sum.js', 15, 'failed']]);
  });

  it('keeps process.argv and the environment of scripts.test (cross-env GREETING=hello jest --ci)', async () => {
    const dir = await jestFixture('jest-argv');
    const { exitCode, report } = await runJson(['--cwd', dir, '--name', 'only the command line']);
    expect([exitCode, report.status, report.summary.passed]).toEqual([0, 'passed', 1]);
    expect(report.command).toBe("GREETING=hello npx jest --ci -t 'only the command line'");
    // Run without NODE_ENV (this test process has it from jest), as a shell would.
    const all = await runJson(['--cwd', dir], { env: { NODE_ENV: undefined } });
    expect([all.exitCode, all.report.summary.passed]).toEqual([0, 2]);
  });

  it('runs an ESM project with the node flags of scripts.test', async () => {
    const dir = await jestFixture('jest-esm');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['esm › doubles', 'test/esm.test.js', 11, 'failed']]);
    expect(report.command).toBe('node --experimental-vm-modules node_modules/jest/bin/jest.js');
  });

  it('ends jest with process.exit from the last exit listener, keeping its exit code', async () => {
    // --trace-exit makes node print the stack of a process.exit() to the runner's stderr,
    // into the log; a process that ends by emptying its loop prints none.
    const dir = await jestFixture('jest-esm');
    const { report } = await runJson(['--cwd', dir], { env: { NODE_OPTIONS: '--trace-exit' } });
    expect([report.status, report.exit_status]).toEqual(['failed', 1]);
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toMatch(/WARNING: Exited the environment with code 1\n(?:\s+at .*\(node:.*\n)*\s+at exitWithoutTeardown \(.*reporters\/jest\/launch\.cjs:/);
  });

  it('lets node end jest as usual when an exit listener comes after the launcher\'s', async () => {
    const dir = await jestFixture('jest-esm');
    const marker = path.join(dir, 'late-listener-ran');
    const preload = path.join(REPO, 'test/fixtures/scripts/late-exit-listener.cjs');
    const { report } = await runJson(['--cwd', dir], { env: { NODE_OPTIONS: `--trace-exit --require ${preload}`, LATE_EXIT_OUT: marker } });
    expect([report.status, report.exit_status]).toEqual(['failed', 1]);
    expect(await fs.readFile(marker, 'utf8')).toBe('ran');
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).not.toContain('Exited the environment');
  });

  it('is an error naming the file when a test calls process.exit in band, never a pass', async () => {
    const dir = await jestFixture('jest-exit');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([3, 'error']);
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.warnings[0]).toBe('jest stopped while running test/b_exit.test.js (during "calls process.exit") and reported no result for it: a test may have called process.exit, or the process crashed or was killed');
  });

  it('kills the tree on timeout and keeps the tests that finished', async () => {
    const dir = await jestFixture('jest-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '5', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect([exitCode, report.status, report.timed_out]).toEqual([124, 'timed_out', true]);
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.warnings[0]).toContain('jest stopped while running test/hang.test.js (during "hangs with a grandchild")');
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });

  it('says RUNNER_MISSING with the install hint when jest is not installed', async () => {
    const dir = await copyFixture('jest-argv');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_MISSING']);
    expect(report.error?.message).toContain('npm install');
  });
});
