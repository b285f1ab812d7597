import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, junitTests, once, processGone, REPO, runJson, waitFor } from './helpers.js';
import { VITEST_MIXED_FAILURES, sorted } from './expected.js';

/** A temp copy of a fixture whose node_modules is run-tests' own (vitest 4 is a devDependency). */
async function vitestFixture(name: string): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** One plain run of a vitest-mixed copy: one test reads its report, another reruns its
 * failures in its directory. */
const mixedRun = once(async () => {
  const dir = await vitestFixture('vitest-mixed');
  return { dir, ...(await runJson(['--cwd', dir])) };
});

describe('vitest through its programmatic API', () => {
  it('reports a suite whose hook failed, and reruns its file until a test of that file settles it', async () => {
    const dir = await vitestFixture('vitest-hook');
    const first = await runJson(['--cwd', dir]);
    expect([first.exitCode, first.report.status]).toEqual([1, 'failed']);
    expect(first.report.summary).toEqual({ run: 5, passed: 2, failures: 1, errors: 1, skips: 1 });
    expect(sorted(failures(first.report))).toEqual(sorted([
      ['store > when connected', 'test/hook.test.ts', 8, 'error'],
      ['subtracts wrongly', 'test/other.test.ts', 4, 'failed'],
    ]));
    // -t cannot select a suite: the hook's file runs whole in a second vitest, after the failed test alone.
    const junit = path.join(dir, 'rerun.xml');
    const again = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect(again.report.command?.split(' ; ')).toEqual([
      "npx vitest run test/other.test.ts -t '^(?:subtracts wrongly)$'",
      'npx vitest run test/hook.test.ts',
    ]);
    expect([again.exitCode, again.report.rerun, again.report.warnings]).toEqual([1, { selected: 2, not_run: [] }, []]);
    expect(again.report.summary).toEqual({ run: 4, passed: 1, failures: 1, errors: 1, skips: 1 });
    // Exactly that: the passing test of the other file did not run.
    expect(await junitTests(junit)).toEqual([
      ['test/hook.test.ts', 'store > counts', 'passed'],
      ['test/hook.test.ts', 'store > when connected', 'error'],
      ['test/hook.test.ts', 'store > when connected > reads', 'skipped'],
      ['test/other.test.ts', 'subtracts wrongly', 'failure'],
    ]);
    const test = path.join(dir, 'test/hook.test.ts');
    await fs.writeFile(test, (await fs.readFile(test, 'utf8')).replace('const ready = false;', 'const ready = true;'));
    const fixed = await runJson(['--cwd', dir, '--failed-only']);
    expect([fixed.report.rerun, fixed.report.warnings]).toEqual([{ selected: 2, not_run: [] }, []]);
    expect(sorted(failures(fixed.report))).toEqual([['subtracts wrongly', 'test/other.test.ts', 4, 'failed']]);
  });

  it('reports failures, errors, a timeout, skips, todos and a load error with TypeScript lines', async () => {
    const { exitCode, report } = await mixedRun();
    expect([exitCode, report.status, report.framework, report.exit_status]).toEqual([1, 'failed', 'vitest', 1]);
    expect(report.summary).toEqual({ run: 11, passed: 3, failures: 3, errors: 3, skips: 2 });
    expect(sorted(failures(report))).toEqual(VITEST_MIXED_FAILURES);
    expect(report.warnings).toEqual([]);
    const byName = Object.fromEntries(report.failed_tests.map((t) => [t.test_name, t]));
    // As vitest shows them: the error, vitest's diff, and a code frame in vitest's layout.
    expect(byName['math > times out']?.message).toBe('Error: Test timed out in 50ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".\n\n35|   });\n36|\n37|   it(\'times out\', async () => {\n  |   ^\n38|     await new Promise((resolve) => setTimeout(resolve, 5000));\n39|   }, 50);');
    expect(byName['math > add > adds negatives']).toMatchObject({ id: 'test/math.test.ts::math > add > adds negatives', message: "expected -2 to be -3 // Object.is equality\n\n- Expected\n+ Received\n\n- -3\n+ -2\n\n13|     it('adds negatives', () => {\n14|       console.log('noise from a test: {\"type\":\"end\"}');\n15|       expect(add(-1, -1)).toBe(-3);\n  |                           ^\n16|     });\n17|   });" });
    expect(byName['load error: test/broken.test.ts']).toMatchObject({ id: 'test/broken.test.ts', message: 'Error: broken at load: function' });
    expect(report.command).toBe('npx vitest run');
  });

  it('reruns exactly the failures by anchored names, brackets and parentheses included', async () => {
    const dir = await vitestFixture('vitest-mixed');
    await fs.remove(path.join(dir, 'test/broken.test.ts'));
    await runJson(['--cwd', dir]);
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    // Tests the name pattern deselected are not reported as skipped.
    expect(report.summary).toEqual({ run: 5, passed: 0, failures: 3, errors: 2, skips: 0 });
    expect(sorted(failures(report))).toEqual(VITEST_MIXED_FAILURES.slice(1));
    expect(report.rerun).toEqual({ selected: 5, not_run: [] });
    expect(report.command).toContain('math fails \\[with\\] \\(brackets\\) too');
  });

  it('reruns a load error file whole and the other failures exactly, in a second vitest into the same report', async () => {
    const { dir } = await mixedRun();
    const junit = path.join(dir, 'rerun.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect([exitCode, report.status, report.rerun, report.warnings]).toEqual([1, 'failed', { selected: 6, not_run: [] }, []]);
    expect(report.summary).toEqual({ run: 6, passed: 0, failures: 3, errors: 3, skips: 0 });
    expect(sorted(failures(report))).toEqual(VITEST_MIXED_FAILURES);
    // Exactly the previous failures ran: none of the passing, skipped or todo tests of their files.
    expect(await junitTests(junit)).toEqual([
      ['test/broken.test.ts', 'load error: test/broken.test.ts', 'error'],
      ['test/math.test.ts', 'math > add > adds negatives', 'failure'],
      ['test/math.test.ts', 'math > fails [with] (brackets) too', 'failure'],
      ['test/math.test.ts', 'math > parses config', 'error'],
      ['test/math.test.ts', 'math > times out', 'error'],
      ['test/second.test.ts', 'top level fails', 'failure'],
    ]);
    const [exact, whole] = (report.command ?? '').split(' ; ');
    expect(exact).toMatch(/^npx vitest run test\/(math|second)\.test\.ts test\/(math|second)\.test\.ts -t '\^\(\?:.*\)\$'$/);
    expect(whole).toBe('npx vitest run test/broken.test.ts');
  });

  it('is no_tests, saying so, when no test file matches the files or no test matches --name (vitest exits 1 on the first)', async () => {
    const dir = await vitestFixture('vitest-mixed');
    const noFile = await runJson(['--cwd', dir, 'src/']);
    expect([noFile.exitCode, noFile.report.status, noFile.report.error]).toEqual([4, 'no_tests', null]);
    expect(noFile.report.summary).toEqual({ run: 0, passed: 0, failures: 0, errors: 0, skips: 0 });
    expect(noFile.report.warnings).toEqual(['vitest found no test file to run: no file matched the selection (or its own test file patterns)', 'no tests ran']);
    const noName = await runJson(['--cwd', dir, '--name', 'no such test', 'test/math.test.ts']);
    expect([noName.exitCode, noName.report.status]).toEqual([4, 'no_tests']);
    // Why no test ran, without the bare "no tests ran" besides.
    expect(noName.report.warnings).toEqual(['no test matched the name filter: vitest left out all 8 tests of the files it ran']);
  });

  it('filters by --name as a plain substring or a /regex/, with files', async () => {
    const dir = await vitestFixture('vitest-mixed');
    const plain = await runJson(['--cwd', dir, '--name', 'handles [brackets] and (parens)', 'test/math.test.ts', 'test/second.test.ts']);
    expect([plain.exitCode, plain.report.status, plain.report.summary]).toEqual([0, 'passed', { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }]);
    const regex = await runJson(['--cwd', dir, '--name', '/^math add/', 'test/math.test.ts']);
    expect(regex.report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(regex.report)).toEqual([['math > add > adds negatives', 'test/math.test.ts', 15, 'failed']]);
  });

  it('keeps the environment and arguments of scripts.test, and the tests see no run-tests flags in process.argv', async () => {
    const dir = await vitestFixture('vitest-argv');
    const { exitCode, report } = await runJson(['--cwd', dir, '--name', 'sees no run-tests']);
    expect([exitCode, report.status, report.summary.passed]).toEqual([0, 'passed', 1]);
    expect(report.command).toBe("GREETING=hello npx vitest run --pool threads -t 'sees no run-tests'");
    const all = await runJson(['--cwd', dir]);
    expect([all.exitCode, all.report.summary.passed]).toEqual([0, 2]);
  });

  it('reports process.exit in a test, and a worker that died, never a pass', async () => {
    const dir = await vitestFixture('vitest-exit');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(failures(report)).toContainEqual(['calls process.exit', 'test/exit.test.js', 8, 'error']);
    expect(report.failed_tests.find((t) => t.test_name === 'unhandled error')?.message).toContain('Worker');
    expect(report.warnings).toContain('vitest stopped while running test/crash.test.js and reported no result for it: a test may have called process.exit, or the process crashed or was killed');
  });

  it('kills the tree on timeout and keeps the tests that finished', async () => {
    const dir = await vitestFixture('vitest-hang');
    const pidFile = path.join(dir, 'grandchild.pid');
    // Long enough for vitest to start and finish the first test on a loaded 2-CPU machine
    // (at 5 s it sometimes had not, and a run that timed out before any result has none).
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '12', '--kill-grace', '1'], { env: { HANG_PID_FILE: pidFile } });
    expect([exitCode, report.status, report.timed_out]).toEqual([124, 'timed_out', true]);
    // vitest, sent SIGTERM, may report its own shutdown as an error outside any test
    // before the kill grace ends (on a loaded machine it has the time): never a test's result.
    const { run, errors, ...counts } = report.summary;
    expect([counts, run]).toEqual([{ passed: 1, failures: 0, skips: 0 }, 1 + (errors ?? 0)]);
    expect(report.failed_tests.filter((t) => t.status !== 'error' || ['passes first', 'hangs with a grandchild'].includes(t.test_name))).toEqual([]);
    expect(report.warnings.filter((w) => w.includes('vitest stopped while running test/hang.test.js (during "hangs with a grandchild")'))).toHaveLength(1);
    const grandchild = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(`grandchild ${grandchild} to die`, () => processGone(grandchild));
  });
});
