/** `run-tests plan` and `--changed` for rspec, minitest and rails: the Ruby graph
 * (requires, globbed support files, the naming convention, and Rails' constants) on
 * fixtures made git repositories, each case in a copy of its own so that all run at once. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { hasTools, runCli, runJson } from './helpers.js';
import { git, gitFixture, planJson, touch, unitLines, type Plan, type PlannedProject } from './changed-support.js';

const suite = hasTools('ruby', 'bundle') ? describe : describe.skip;

/** The plan of the one project in `dir`, checked to exit 0. */
async function planOf(dir: string): Promise<Plan | null> {
  const { exitCode, projects, stderr } = await planJson(dir);
  expect([exitCode, projects.length, projects[0]?.error ?? null, stderr]).toEqual([0, 1, null, '']);
  return projects[0]?.plan ?? null;
}

/** The whole suite's reason after each edit, the copy reset to its commit before each. */
async function wholeSuiteReasons(dir: string, edits: readonly (() => void)[]): Promise<(string | null)[]> {
  const reasons: (string | null)[] = [];
  for (const edit of edits) {
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-fdq');
    edit();
    const plan = await planOf(dir);
    expect(plan?.units).toEqual([]);
    reasons.push(plan?.whole_suite?.reason ?? null);
  }
  return reasons;
}

const nothing = async (fixture: string) => {
  const plan = await planOf(await gitFixture(fixture));
  expect([plan?.changed, plan?.units, plan?.whole_suite]).toEqual([[], [], null]);
};

const deleted = async (fixture: string, file: string) => {
  const dir = await gitFixture(fixture);
  await fs.remove(path.join(dir, file));
  expect((await planOf(dir))?.whole_suite).toEqual({ reason: `${file} was deleted: what loaded it cannot be told from the tree as it is` });
};

suite('rspec: the require graph', () => {
  it.concurrent('a changed lib file selects the specs that require it, directly or through another file, and no other', async () => {
    const dir = await gitFixture('changed-rspec');
    touch(dir, 'lib/shop/price.rb');
    const plan = await planOf(dir);
    expect([plan?.changed, plan?.whole_suite]).toEqual([[{ file: 'lib/shop/price.rb', change: 'modified' }], null]);
    expect(unitLines(plan)).toEqual([
      'spec/shop/cart_spec.rb: requires lib/shop/price.rb via lib/shop/cart.rb',
      'spec/shop/price_spec.rb: requires lib/shop/price.rb',
    ]);
    const { exitCode, report } = await runJson(['--changed'], { cwd: dir });
    expect([exitCode, report.status, report.summary, report.plan?.units.map((u) => u.unit)]).toEqual([
      0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }, ['spec/shop/cart_spec.rb', 'spec/shop/price_spec.rb'],
    ]);
  });

  it.concurrent('a changed spec is itself; a new lib file no spec requires is nothing to run', async () => {
    const dir = await gitFixture('changed-rspec');
    touch(dir, 'spec/shop/coupon_spec.rb');
    expect(unitLines(await planOf(dir))).toEqual(['spec/shop/coupon_spec.rb: changed test file']);
    git(dir, 'checkout', '-q', '--', '.');
    await fs.outputFile(path.join(dir, 'lib/shop/unused.rb'), 'module Shop; end\n');
    const plan = await planOf(dir);
    expect([plan?.changed, plan?.units, plan?.whole_suite]).toEqual([[{ file: 'lib/shop/unused.rb', change: 'added' }], [], null]);
  });

  it.concurrent('a helper, a globbed support file, a lockfile, .rspec, a file of no Ruby kind, a Ruby file among the specs that none loads, and a computed require are the whole suite', async () => {
    const dir = await gitFixture('changed-rspec');
    expect(await wholeSuiteReasons(dir, [
      () => touch(dir, 'spec/spec_helper.rb'),
      () => touch(dir, 'spec/support/money_matchers.rb'),
      () => touch(dir, 'Gemfile.lock'),
      () => touch(dir, '.rspec'),
      () => touch(dir, 'spec/prices.yml', 'a: 1\n'),
      () => fs.outputFileSync(path.join(dir, 'spec/samples/order.rb'), 'ORDER = [100].freeze\n'),
      () => touch(dir, 'lib/shop/coupon.rb', 'require ENV.fetch("SHOP_PLUGIN", "shop/price")\n'),
    ])).toEqual([
      'spec/spec_helper.rb changed: every test may load it',
      'every test loads spec/support/money_matchers.rb (through spec/spec_helper.rb)',
      'Gemfile.lock changed: every test may load it',
      '.rspec changed: rspec reads its options for every spec',
      'spec/prices.yml is no Ruby source the graph knows: a test may read it at run time',
      'spec/samples/order.rb is loaded by no test but lies among them: a test may read it at run time',
      'lib/shop/coupon.rb:8 loads a computed path (require ENV.fetch("SHOP_PLUGIN", "shop/price")), and spec/shop/coupon_spec.rb reaches it',
    ]);
  });

  it.concurrent('a deleted file is the whole suite', () => deleted('changed-rspec', 'lib/shop/coupon.rb'));
  it.concurrent('no change is nothing to run', () => nothing('changed-rspec'));
});

suite('minitest: the require graph', () => {
  it.concurrent('a changed lib file selects the tests that require it, and --changed runs them', async () => {
    const dir = await gitFixture('changed-minitest');
    touch(dir, 'lib/calc/adder.rb');
    const plan = await planOf(dir);
    expect(unitLines(plan)).toEqual([
      'test/adder_test.rb: requires lib/calc/adder.rb',
      'test/multiplier_test.rb: requires lib/calc/adder.rb via lib/calc/multiplier.rb',
    ]);
    const { exitCode, report } = await runJson(['--changed'], { cwd: dir });
    expect([exitCode, report.status, report.summary, report.plan?.whole_suite]).toEqual([0, 'passed', { run: 3, passed: 3, failures: 0, errors: 0, skips: 0 }, null]);
  });

  it.concurrent('a changed test is itself', async () => {
    const dir = await gitFixture('changed-minitest');
    touch(dir, 'test/formatter_test.rb');
    touch(dir, 'lib/calc/formatter.rb');
    expect(unitLines(await planOf(dir))).toEqual(['test/formatter_test.rb: changed test file; requires lib/calc/formatter.rb']);
  });

  it.concurrent('test_helper, a support file it globs, the Rakefile and a computed require are the whole suite', async () => {
    const dir = await gitFixture('changed-minitest');
    expect(await wholeSuiteReasons(dir, [
      () => touch(dir, 'test/test_helper.rb'),
      () => touch(dir, 'test/support/number_assertions.rb'),
      () => touch(dir, 'Rakefile'),
      () => touch(dir, 'lib/calc/formatter.rb', 'require ENV.fetch("CALC_EXTRA", "calc/adder")\n'),
    ])).toEqual([
      'test/test_helper.rb changed: every test may load it',
      // adder_test.rb names NumberAssertions itself; the others reach it through test_helper.rb.
      'every test loads test/support/number_assertions.rb',
      'Rakefile changed: it defines the tasks that run the tests',
      'lib/calc/formatter.rb:8 loads a computed path (require ENV.fetch("CALC_EXTRA", "calc/adder")), and test/formatter_test.rb reaches it',
    ]);
  });

  it.concurrent('a deleted file is the whole suite', () => deleted('changed-minitest', 'lib/calc/formatter.rb'));
  it.concurrent('no change is nothing to run', () => nothing('changed-minitest'));
});

/** rails-app, with a model only another model names: Greeter uses Salutation. */
async function railsApp(): Promise<string> {
  const dir = await gitFixture('rails-app');
  await fs.outputFile(path.join(dir, 'app/models/salutation.rb'), 'class Salutation\n  def self.word\n    "Hello"\n  end\nend\n');
  const greeter = path.join(dir, 'app/models/greeter.rb');
  await fs.writeFile(greeter, (await fs.readFile(greeter, 'utf8')).replace('"Hello, #{name}!"', '"#{Salutation.word}, #{name}!"'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'salutation');
  return dir;
}

suite('rails: the constant graph', () => {
  it.concurrent('a changed model selects the tests that name it, through the models that name it, and --changed runs them', async () => {
    const dir = await railsApp();
    touch(dir, 'app/models/salutation.rb');
    expect(unitLines(await planOf(dir))).toEqual(['test/models/greeter_test.rb: convention: app/models/greeter.rb, which loads app/models/salutation.rb']);
    touch(dir, 'app/models/calculator.rb');
    expect(unitLines(await planOf(dir))).toEqual([
      'test/models/calculator_test.rb: convention: app/models/calculator.rb',
      'test/models/greeter_test.rb: convention: app/models/greeter.rb, which loads app/models/salutation.rb',
    ]);
    git(dir, 'checkout', '-q', '--', 'app/models/calculator.rb');
    const { exitCode, report } = await runJson(['--changed'], { cwd: dir });
    expect([exitCode, report.status, report.summary, report.plan?.units.map((u) => u.unit)]).toEqual([
      0, 'passed', { run: 5, passed: 4, failures: 0, errors: 0, skips: 1 }, ['test/models/greeter_test.rb'],
    ]);
  });

  it.concurrent('a changed test is itself; a model no test names is nothing to run', async () => {
    const dir = await railsApp();
    touch(dir, 'test/models/calculator_test.rb');
    expect(unitLines(await planOf(dir))).toEqual(['test/models/calculator_test.rb: changed test file']);
    git(dir, 'checkout', '-q', '--', '.');
    await fs.outputFile(path.join(dir, 'app/models/unused.rb'), 'class Unused\nend\n');
    expect((await planOf(dir))?.units).toEqual([]);
  });

  it.concurrent('config, the routes, the schema, test_helper, a lockfile, eager loading and a computed require are the whole suite', async () => {
    const dir = await railsApp();
    const test = path.join(dir, 'config/environments/test.rb');
    expect(await wholeSuiteReasons(dir, [
      () => touch(dir, 'config/routes.rb'),
      () => fs.outputFileSync(path.join(dir, 'db/schema.rb'), 'ActiveRecord::Schema.define {}\n'),
      () => touch(dir, 'test/test_helper.rb'),
      () => touch(dir, 'Gemfile.lock'),
      () => fs.outputFileSync(path.join(dir, 'app/views/greeters/show.html.erb'), '<%= 1 %>\n'),
      () => touch(dir, 'app/models/calculator.rb', 'require ENV.fetch("CALCULATOR_PLUGIN", "set")\n'),
    ])).toEqual([
      'config/routes.rb changed: configuration every test may load',
      'db/schema.rb changed: the test database is built from db/',
      'test/test_helper.rb changed: every test may load it',
      'Gemfile.lock changed: every test may load it',
      'app/views/greeters/show.html.erb is no Ruby source the graph knows: a test may read it at run time',
      'app/models/calculator.rb:12 loads a computed path (require ENV.fetch("CALCULATOR_PLUGIN", "set")), and test/models/calculator_test.rb reaches it',
    ]);
    // Eager loading, committed: every test then loads every file of app/.
    git(dir, 'checkout', '-q', '--', '.');
    await fs.writeFile(test, (await fs.readFile(test, 'utf8')).replace('config.eager_load = false', 'config.eager_load = ENV["CI"].present?'));
    git(dir, 'commit', '-q', '-am', 'eager in CI');
    touch(dir, 'app/models/salutation.rb');
    expect(unitLines(await planOf(dir))).toEqual(['test/models/greeter_test.rb: convention: app/models/greeter.rb, which loads app/models/salutation.rb']);
    const ci = await runCli(['plan', '--json'], { cwd: dir, env: { CI: 'true' } });
    expect((JSON.parse(ci.stdout) as { projects: PlannedProject[] }).projects.map((p) => p.plan?.whole_suite)).toEqual([
      { reason: 'config/environments/test.rb eager-loads the application (config.eager_load = ENV["CI"].present?, and CI is set): every test loads app/models/salutation.rb' },
    ]);
  });

  it.concurrent('a deleted file is the whole suite', () => deleted('rails-app', 'app/models/greeter.rb'));
  it.concurrent('no change is nothing to run', () => nothing('rails-app'));
});
