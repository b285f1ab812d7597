import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, junitTests, runJson } from './helpers.js';

/** --failed-only checks what ran by identity (name and file), never by the selector alone. */

const rspecSuite = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;
const pytestSuite = hasTools('python3', 'pytest-3') ? describe : describe.skip;
/** Debian's python3-pytest, as test/e2e/pytest.test.ts runs it. */
const DEBIAN = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };

const TOTALS = ['Cart totals the prices', 'spec/cart_spec.rb', 9, 'failed'];

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  await fs.writeFile(file, changed);
}

const recorded = async (dir: string): Promise<string[]> =>
  ((await fs.readJson(path.join(dir, '.run-tests/last-failures.json'))) as { failed_tests: { test_name: string }[] }).failed_tests.map((t) => t.test_name);

rspecSuite('an rspec rerun whose example id now names another example', () => {
  it.each([
    ['a passing example is inserted above the failing one', (text: string) => text.replace('  it "totals the prices" do', '  it "was inserted" do\n    expect(true).to be(true)\n  end\n\n  it "totals the prices" do'), 'Cart was inserted'],
    ['the failing example is deleted', (text: string) => text.replace(/  it "totals the prices" do\n.*\n  end\n\n/, ''), 'Cart counts its items'],
  ])('when %s, reports the failure as not run, never passes, and keeps it recorded', async (_, change, ranInstead) => {
    const dir = await copyFixture('rspec-rerun-identity');
    const first = await runJson(['--cwd', dir]);
    expect([first.exitCode, first.report.status, failures(first.report)]).toEqual([1, 'failed', [TOTALS]]);
    expect(first.report.failed_tests[0]?.id).toBe('./spec/cart_spec.rb[1:2]');
    await edit(path.join(dir, 'spec/cart_spec.rb'), change);

    const junit = path.join(dir, 'rerun.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only', '--junit', junit]);
    expect([exitCode, report.status]).toEqual([3, 'error']);
    // The selector ran another example, which passed: it speaks for itself only.
    expect((await junitTests(junit)).filter(([file]) => file.endsWith('.rb'))).toEqual([['spec/cart_spec.rb', ranInstead, 'passed']]);
    expect(report.command).toContain("'./spec/cart_spec.rb[1:2]'");
    expect(report.summary).toEqual({ run: 1, passed: 1, failures: 0, errors: 0, skips: 0 });
    expect(report.rerun).toEqual({ selected: 1, not_run: ['Cart totals the prices'] });
    expect(report.warnings).toEqual(['1 of the 1 selected tests did not run: Cart totals the prices']);
    expect(report.failures_file).toBe(path.join(dir, '.run-tests/last-failures.json'));
    expect(await recorded(dir)).toEqual(['Cart totals the prices']);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toContain('1 example, 0 failures');

    // Still recorded, so still rerun: never "nothing to rerun".
    const again = await runJson(['--cwd', dir, '--failed-only']);
    expect([again.exitCode, again.report.status, again.report.rerun]).toEqual([3, 'error', { selected: 1, not_run: ['Cart totals the prices'] }]);
  });

  it('settles the record once the example runs under its new id', async () => {
    const dir = await copyFixture('rspec-rerun-identity');
    await runJson(['--cwd', dir]);
    await edit(path.join(dir, 'spec/cart_spec.rb'), (text) => text.replace('  it "totals the prices" do', '  it "was inserted" do\n    expect(true).to be(true)\n  end\n\n  it "totals the prices" do').replace('eq(4)', 'eq(3)'));
    const file = await runJson(['--cwd', dir, 'spec/cart_spec.rb']);
    expect([file.exitCode, file.report.status, file.report.summary.run]).toEqual([0, 'passed', 4]);
    expect(await recorded(dir)).toEqual([]);
    const next = await runJson(['--cwd', dir, '--failed-only']);
    expect([next.exitCode, next.report.status]).toEqual([0, 'nothing_to_rerun']);
  });
});

pytestSuite('a pytest rerun whose failing test was renamed', () => {
  it('lists it as not run, with pytest\'s own words, and keeps it recorded', async () => {
    const dir = await copyFixture('pytest-rerun-identity');
    const first = await runJson(['--cwd', dir], { env: DEBIAN });
    expect([first.exitCode, failures(first.report)]).toEqual([1, [['tests/test_cart.py::test_totals', 'tests/test_cart.py', 6, 'failed']]]);
    await edit(path.join(dir, 'tests/test_cart.py'), (text) => text.replace('def test_totals():\n    assert 1 + 2 == 4', 'def test_totals_fixed():\n    assert 1 + 2 == 3'));

    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only'], { env: DEBIAN });
    expect([exitCode, report.status, report.error?.code]).toEqual([3, 'error', 'RUNNER_FAILED']);
    expect(report.error?.message).toContain('ERROR: not found:');
    expect(report.rerun).toEqual({ selected: 1, not_run: ['tests/test_cart.py::test_totals'] });
    expect(report.summary).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
    expect(report.failures_file).toBeNull();
    expect(await recorded(dir)).toEqual(['tests/test_cart.py::test_totals']);
  });
});
