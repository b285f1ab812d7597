/** --shard on pytest (7 and 9) and unittest: each part runs exactly its files, and for
 * n = 1 and 3 (pytest 7; pytest 9 n = 1: test/e2e/shards-check.ts takes it through every n from 1 to 4) or
 * 1, 2 and 4 (unittest) the parts together are the whole run (test/e2e/shard-support.ts). Files are
 * added to the temp copies only: other tests count the fixtures' tests. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { PYTESTS } from './pytest-versions.js';
import { copyFixture, hasTools, runCli } from './helpers.js';
import { expectShardsCover, wholeRun } from './shard-support.js';

const suite = hasTools('python3', 'pytest-3') ? describe : describe.skip;

async function addFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
}

const pytestFile = (fails: boolean): string =>
  `import pytest\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n\n\n@pytest.mark.parametrize("n", [1, 2])\ndef test_compares(n):\n    assert ${fails ? 'n == 2' : 'n > 0'}\n`;

suite('--shard on the Python runners', () => {
  describe.each(PYTESTS.map(([label, env]) => ({ label, env })))('$label', ({ label, env }) => {
    it('pytest: the files of its collection (testpaths; a module that skips itself), each in one shard, together the whole run', async () => {
      const dir = await copyFixture('pytest-mixed');
      await addFiles(dir, {
        'tests/test_more.py': pytestFile(true),
        'tests/sub/test_sub.py': pytestFile(false),
        'tests/sub/deeper/extra_test.py': pytestFile(false),
        'tests/test_skipped.py': 'import pytest\n\npytest.skip("not on this platform", allow_module_level=True)\n',
        // Outside testpaths, and not a test file by python_files: never a unit.
        'other/test_outside.py': 'def test_outside():\n    assert False\n',
        'tests/helpers.py': 'def test_not_collected():\n    assert False\n',
      });
      const { report: whole, timings } = await wholeRun(dir, env);
      const units = await expectShardsCover(dir, whole, timings, 1, env);
      expect(units).toEqual([['tests/sub/deeper/extra_test.py', 'tests/sub/test_sub.py', 'tests/test_more.py', 'tests/test_skipped.py', 'tests/test_text.py', 'tests/test_widget.py']]);
      // pytest 9 is the one run-tests finds here: test/e2e/shards-check.ts takes it through n = 1..4.
      if (label === 'pytest 7') await expectShardsCover(dir, whole, timings, 3, env);
    }, 600_000);
  });

  it('unittest: the files its discovery takes tests from (-s tests: named as discovery names them; a module that fails to import), together the whole run', async () => {
    const dir = await copyFixture('unittest-import-error');
    const unittestFile = (klass: string, fails: boolean): string =>
      `import unittest\n\n\nclass ${klass}(unittest.TestCase):\n    def test_adds(self):\n        self.assertEqual(1 + 1, 2)\n\n    def test_compares(self):\n        self.assertEqual(${fails ? 3 : 2}, 2)\n`;
    await addFiles(dir, {
      'tests/test_more.py': unittestFile('MoreTest', true),
      'tests/deep/__init__.py': '',
      'tests/deep/test_deep.py': unittestFile('DeepTest', false),
      // Not test*.py: discovery never imports it.
      'tests/check_other.py': 'raise SystemExit("never imported")\n',
    });
    const { report: whole, timings } = await wholeRun(dir);
    expect(whole.failed_tests.map((t) => t.test_name)).toEqual(['load error: test_broken', 'test_more.MoreTest.test_compares', 'test_ok.OkTest.test_double_wrong']);
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['tests/deep/test_deep.py', 'tests/test_broken.py', 'tests/test_more.py', 'tests/test_ok.py']]);
    for (const n of [2, 4]) await expectShardsCover(dir, whole, timings, n);
  }, 480_000);

  it('unittest: where a load_tests decides what runs, or a module skips itself on import, --shard refuses, saying why', async () => {
    const dir = await copyFixture('unittest-load-tests');
    const { exitCode, stderr } = await runCli(['--cwd', dir, '--shard', '1/2']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('tests/test_calc.py defines load_tests, which decides itself which tests run');
    // A module that skips itself as it is imported: `python -m unittest <name>` ends on it.
    const skipping = await copyFixture('unittest-import-error');
    await addFiles(skipping, { 'tests/test_skipped.py': 'import unittest\n\nraise unittest.SkipTest("not here")\n' });
    const refused = await runCli(['--cwd', skipping, '--shard', '1/2']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('tests/test_skipped.py raises SkipTest as it is imported, which unittest cannot run by name');
  }, 60_000);

  it('pytest: test files inside a package (no pytest config) run by file keep the whole run\'s node ids', async () => {
    const dir = await copyFixture('pytest-in-package');
    const { report: whole, timings } = await wholeRun(dir);
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['shapes/tests/deep/test_deep.py', 'shapes/tests/test_area.py']]);
    await expectShardsCover(dir, whole, timings, 2);
  }, 240_000);

  it('pytest: a file that fails to collect is a unit, whose shard reports the error', async () => {
    const dir = await copyFixture('pytest-collect-error');
    const { report: whole, timings } = await wholeRun(dir);
    expect([whole.status, whole.summary.errors, whole.failed_tests.map((t) => t.file)]).toEqual(['failed', 1, ['tests/test_broken.py']]);
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['tests/test_broken.py', 'tests/test_ok.py']]);
  }, 240_000);
});
