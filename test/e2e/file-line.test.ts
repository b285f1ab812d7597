/** `file:line` and pytest's `file::node` as operands: the tests at that place run, and
 * only they (every test that ran is listed from the run's JUnit file); where the runner
 * cannot select by line, or the input is no line, exit 2 before anything runs. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, hasTools, junitTests, REPO, runCli, runJson } from './helpers.js';

/** The run's status and every test that ran, as [name, outcome], sorted. */
async function ran(dir: string, operands: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<[number | null, string, [string, string][]]> {
  const junit = path.join(dir, 'ran.xml');
  const { exitCode, report } = await runJson(['--cwd', dir, '--junit', junit, ...operands], { env });
  return [exitCode, report.status, (await junitTests(junit)).map(([, name, outcome]): [string, string] => [name, outcome])];
}

async function withNodeModules(name: string): Promise<string> {
  const dir = await copyFixture(name);
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

const ruby = hasTools('ruby', 'bundle', 'rake', 'rspec') ? describe : describe.skip;

ruby('Ruby runners', () => {
  it('rspec: its own file:line, an example or a whole group', async () => {
    const dir = await copyFixture('rspec-mixed');
    expect(await ran(dir, ['spec/mixed_spec.rb:8'])).toEqual([1, 'failed', [['Calculator subtracts numbers', 'failure']]]);
    expect((await ran(dir, ['spec/mixed_spec.rb:15']))[2].map(([name]) => name)).toEqual([
      'Calculator pending work is disabled with xit', 'Calculator pending work is pending and still fails', 'Calculator pending work is pending but passes', 'Calculator pending work is skipped inside the body',
    ]);
  });

  it('rspec: a line above every example is refused, where run_all_when_everything_filtered would run them all', async () => {
    const dir = await copyFixture('rspec-run-all');
    await fs.writeFile(path.join(dir, 'spec/two_spec.rb'), '# a comment\n\nRSpec.describe "Two" do\n  it("works") { expect(1).to eq 1 }\nend\n');
    expect(await runCli(['--cwd', dir, 'spec/two_spec.rb:1'])).toEqual({ exitCode: 2, stdout: '', stderr: 'run-tests: no example or group is declared at or above spec/two_spec.rb:1\n' });
    expect(await ran(dir, ['spec/two_spec.rb:4'])).toEqual([0, 'passed', [['Two works', 'passed']]]);
  });

  it('rails: bin/rails test file:line', async () => {
    const dir = await copyFixture('rails-app');
    const { report } = await runJson(['--cwd', dir, 'test/models/calculator_test.rb:13']);
    expect([report.status, report.summary.run, report.command]).toEqual(['failed', 1, 'bin/rails test test/models/calculator_test.rb:13']);
    expect(report.failed_tests.map((t) => t.test_name)).toEqual(['CalculatorTest#test_adds_wrongly']);
  });

  it('minitest through rake: the method at the line by its exact name, or every test of the class', async () => {
    const dir = await copyFixture('minitest-mixed');
    expect(await ran(dir, ['test/widget_test.rb:9'])).toEqual([1, 'failed', [['WidgetTest#test_size_is_wrong', 'failure']]]);
    // The `end` of a method is the method's; the `end` of the class, the class's.
    expect(await ran(dir, ['test/text_test.rb:6'])).toEqual([0, 'passed', [['TextTest#test_upcase', 'passed']]]);
    expect(await ran(dir, ['test/text_test.rb:11'])).toEqual([0, 'passed', [['TextTest#test_reverse', 'passed'], ['TextTest#test_upcase', 'passed']]]);
    expect(await runCli(['--cwd', dir, 'test/text_test.rb:1'])).toEqual({
      exitCode: 2, stdout: '', stderr: 'run-tests: no test class or method is defined at test/text_test.rb:1 (def test_… or test "…" in a class)\n',
    });
  });
});

const python = hasTools('python3') ? describe : describe.skip;

python('pytest', () => {
  it('a line is the function (or class) defined there, as its node id; file::test is the node id itself', async () => {
    const dir = await copyFixture('pytest-mixed');
    const { report } = await runJson(['--cwd', dir, 'tests/test_widget.py:11']);
    expect([report.status, report.summary.run, report.command]).toEqual(['failed', 1, 'python3 -m pytest tests/test_widget.py::test_size_is_wrong']);
    expect(await ran(dir, ['tests/test_widget.py:33'])).toEqual([4, 'no_tests', [['tests/test_widget.py::test_skipped', 'skipped']]]);
    expect(await ran(dir, ['tests/test_widget.py::test_adds', 'tests/test_text.py::test_reverse'])).toEqual([0, 'passed', [
      ['tests/test_text.py::test_reverse', 'passed'], ['tests/test_widget.py::test_adds', 'passed'],
    ]]);
  });

  it('a class and its method by line, in a file whose name holds shell characters', async () => {
    const dir = await copyFixture('pytest-mixed');
    const file = 'tests/test_$(touch pwned);x.py';
    await fs.writeFile(path.join(dir, file), 'class TestGroup:\n    def test_one(self):\n        assert True\n\n    @staticmethod\n    def test_two():\n        assert 1 == 2\n');
    expect(await ran(dir, [`${file}:5`])).toEqual([1, 'failed', [[`${file}::TestGroup::test_two`, 'failure']]]);
    expect((await ran(dir, [`${file}:1`]))[2].map(([name]) => name)).toEqual([`${file}::TestGroup::test_one`, `${file}::TestGroup::test_two`]);
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });
});

describe('JavaScript runners: the tests defined at the line, by their exact names', () => {
  it('jest: a test, and a describe block', async () => {
    const dir = await withNodeModules('jest-mixed');
    expect(await ran(dir, ['test/math.test.js:10'])).toEqual([1, 'failed', [['math › add › adds negatives', 'failure']]]);
    expect(await ran(dir, ['test/math.test.js:4'])).toEqual([1, 'failed', [['math › add › adds negatives', 'failure'], ['math › add › adds two numbers', 'passed']]]);
    const { report } = await runJson(['--cwd', dir, 'test/math.test.js:29']);
    expect([report.rerun, report.failed_tests.map((t) => t.test_name)]).toEqual([{ selected: 1, not_run: [] }, ['math › fails [with] (brackets) too']]);
  });

  it('vitest', async () => {
    const dir = await withNodeModules('vitest-mixed');
    expect(await ran(dir, ['test/math.test.ts:14'])).toEqual([1, 'failed', [['math > add > adds negatives', 'failure']]]);
  });

  it('mocha: a test, and a nested describe', async () => {
    const dir = await withNodeModules('mocha-mixed');
    expect(await ran(dir, ['spec/math.spec.js:10'])).toEqual([1, 'failed', [['math adds wrongly', 'failure']]]);
    expect(await ran(dir, ['spec/math.spec.js:23'])).toEqual([0, 'passed', [['math nested multiplies', 'passed'], ['math nested skips at run time', 'skipped']]]);
  });

  it('node --test: a test in a describe, and a test whose subtests speak for it', async () => {
    const dir = await copyFixture('node-test-mixed');
    expect(await ran(dir, ['test/math.test.js:11'])).toEqual([1, 'failed', [['math > adds wrongly', 'failure']]]);
    const { report } = await runJson(['--cwd', dir, 'test/math.test.js:35']);
    expect([report.status, report.rerun, report.summary.run, report.failed_tests.map((t) => t.test_name)]).toEqual(['failed', { selected: 1, not_run: [] }, 2, ['with subtests > second fails']]);
  });

  it('refuses a line outside every test, a computed name, and pytest\'s ::', async () => {
    const dir = await withNodeModules('jest-mixed');
    await fs.writeFile(path.join(dir, 'test/each.test.js'), "test.each([1, 2])('n=%i', (n) => expect(n).toBe(n));\n");
    const refused = async (operand: string) => (await runCli(['--cwd', dir, operand])).stderr;
    expect(await refused('test/math.test.js:1')).toBe('run-tests: no test or suite is defined at test/math.test.js:1 (describe, it, test or suite with a literal name)\n');
    expect(await refused('test/each.test.js:1')).toBe('run-tests: the test at test/each.test.js:1 has a name computed when it runs (a variable, a ${} template or .each): select it with --name\n');
    expect(await refused('test/math.test.js::math')).toBe('run-tests: jest has no node ids (test/math.test.js::math): give a line, test/math.test.js:<line>\n');
    expect(await refused('test/math.test.js:5')).toBe('');
  });
});

const go = hasTools('go') ? describe : describe.skip;

go('go', () => {
  it('the Test function at the line (a subtest\'s line: its test), in its package, by its exact name', async () => {
    const dir = await copyFixture('go-mixed');
    const env = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
    expect(await ran(dir, ['mixed_test.go:11'], env)).toEqual([1, 'failed', [['TestSubtractsWrongly', 'failure']]]);
    expect(await ran(dir, ['sub/calc_test.go:12'], env)).toEqual([1, 'failed', [['TestHalf', 'failure']]]);
    const table = await runJson(['--cwd', dir, 'mixed_test.go:38'], { env });
    expect([table.report.summary.run, table.report.rerun, table.report.command]).toEqual([5, { selected: 1, not_run: [] }, "go test -run '^TestTable$' ."]);
    expect((await runCli(['--cwd', dir, 'sub/calc_test.go:10'], { env })).stderr).toBe('run-tests: no Test, Fuzz or Example function is defined at sub/calc_test.go:10\n');
  });
});

const cargo = hasTools('cargo') ? describe : describe.skip;

cargo('cargo', () => {
  it('the #[test] fn at the line in its target by its exact libtest path, or every test of a mod', async () => {
    const dir = await copyFixture('cargo-mixed');
    const env = { CARGO_TARGET_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-target-')), RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };
    expect(await ran(dir, ['src/lib.rs:36'], env)).toEqual([1, 'failed', [['unit: tests::adds_wrongly', 'failure']]]);
    expect(await ran(dir, ['tests/api.rs:10'], env)).toEqual([1, 'failed', [['integration tests/api.rs: api_doubles_wrongly', 'failure']]]);
    const { report } = await runJson(['--cwd', dir, 'src/lib.rs:27'], { env });
    expect([report.summary, report.rerun]).toEqual([{ run: 5, passed: 2, failures: 2, errors: 0, skips: 1 }, { selected: 5, not_run: [] }]);
    expect((await runCli(['--cwd', dir, 'src/lib.rs:7'], { env })).stderr).toBe('run-tests: no #[test] fn is defined at src/lib.rs:7\n');
  }, 240_000);
});

describe('what is not a line to select by', () => {
  it('exits 2 with the reason: no line, a line of 0, a negative or non-numeric one, a file outside, --name beside it', async () => {
    const dir = await copyFixture('node-test-mixed');
    const stderr = async (...args: string[]) => {
      const result = await runCli(['--cwd', dir, ...args]);
      expect([result.exitCode, result.stdout]).toEqual([2, '']);
      return result.stderr;
    };
    const line = (operand: string, got: string) => `run-tests: ${JSON.stringify(operand)}: the line after ":" must be a whole number from 1 to 10000000, got ${JSON.stringify(got)}\n`;
    expect(await stderr('test/math.test.js:0')).toBe(line('test/math.test.js:0', '0'));
    expect(await stderr('test/math.test.js:-3')).toBe(line('test/math.test.js:-3', '-3'));
    expect(await stderr('test/math.test.js:1e3')).toBe(line('test/math.test.js:1e3', '1e3'));
    expect(await stderr('test/math.test.js:')).toBe(line('test/math.test.js:', ''));
    expect(await stderr('test/math.test.js::')).toBe('run-tests: "test/math.test.js::": name a test after "::" (pytest\'s node id, file::test or file::Class::test)\n');
    expect(await stderr(`${REPO}package.json:3`)).toBe(`run-tests: file ${JSON.stringify(`${REPO}package.json`)} lies outside ${dir}\n`);
    expect(await stderr('test/missing.test.js:3')).toBe(`run-tests: file "test/missing.test.js:3" does not exist (in ${dir})\n`);
    expect(await stderr('test/math.test.js:11', '--name', 'adds')).toBe('run-tests: test/math.test.js:11 selects the tests at that place; it cannot be combined with --name\n');
    expect(await stderr('test/math.test.js:11', 'test/argv.test.js')).toBe('run-tests: node-test selects the tests at test/math.test.js:11 by name: give the files to run whole in a run of their own\n');
  });

  it('a runner that cannot select by line says so', async () => {
    const dir = await copyFixture('unittest-mixed');
    const [file] = (await fs.readdir(path.join(dir, 'tests'))).filter((f) => f.startsWith('test_'));
    expect(await runCli(['--cwd', dir, `tests/${file}:3`])).toEqual({
      exitCode: 2, stdout: '', stderr: `run-tests: unittest cannot select tests by line or node id (tests/${file}:3): run the file whole, or select with --name\n`,
    });
  });
});
