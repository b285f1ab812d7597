/** --shard on rspec, minitest and rails: each part runs exactly its files, and for
 * n = 1 and 3 the parts together are the whole run (test/e2e/shard-support.ts; rails
 * too; test/e2e/shards-check.ts takes rspec and minitest through every n from 1 to 4). Files are
 * added to the temp copies only: other tests count the fixtures' tests. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, hasTools } from './helpers.js';
import { expectShardsCover, wholeRun } from './shard-support.js';

const suite = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

async function addFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [file, text] of Object.entries(files)) await fs.outputFile(path.join(dir, file), text);
}

const spec = (name: string, fails: boolean): string =>
  `RSpec.describe "${name}" do\n  it "adds" do\n    expect(1 + 1).to eq(2)\n  end\n\n  it "compares" do\n    expect(${fails ? 3 : 2}).to eq(2)\n  end\nend\n`;
const minitestFile = (klass: string, fails: boolean): string =>
  `require "test_helper"\n\nclass ${klass} < Minitest::Test\n  def test_adds\n    assert_equal 2, 1 + 1\n  end\n\n  def test_compares\n    assert_equal 2, ${fails ? 3 : 2}\n  end\nend\n`;
const railsFile = (klass: string, fails: boolean): string =>
  `require "test_helper"\n\nclass ${klass} < ActiveSupport::TestCase\n  test "adds" do\n    assert_equal 2, 1 + 1\n  end\n\n  test "compares" do\n    assert_equal 2, ${fails ? 3 : 2}\n  end\nend\n`;

suite('--shard on the Ruby runners', () => {
  it('rspec: the spec files of its pattern (nested two deep too), each in one shard, together the whole run', async () => {
    const dir = await copyFixture('rspec-mixed');
    await addFiles(dir, {
      'spec/third_spec.rb': spec('Third', false),
      'spec/models/fourth_spec.rb': spec('Fourth', true),
      'spec/models/deep/fifth_spec.rb': spec('Fifth', false),
      // Not a spec file by rspec's pattern: never a unit.
      'spec/models/sixth_helper.rb': 'raise "never loaded"\n',
    });
    const { report: whole, timings } = await wholeRun(dir);
    expect(whole.summary).toEqual({ run: 19, passed: 9, failures: 5, errors: 2, skips: 3 });
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['spec/mixed_spec.rb', 'spec/models/deep/fifth_spec.rb', 'spec/models/fourth_spec.rb', 'spec/second_spec.rb', 'spec/third_spec.rb']]);
    for (const n of [3]) await expectShardsCover(dir, whole, timings, n);
  }, 480_000);

  it('minitest: the files of the Rake::TestTask\'s pattern, each in one shard, together the whole run', async () => {
    const dir = await copyFixture('minitest-mixed');
    await addFiles(dir, {
      'test/models/cart_test.rb': minitestFile('CartTest', true),
      'test/models/deep/item_test.rb': minitestFile('ItemTest', false),
      'test/order_test.rb': minitestFile('OrderTest', false),
      // Not `test/**/*_test.rb`: rake test never loads it.
      'test/models/helper.rb': 'raise "never loaded"\n',
    });
    const { report: whole, timings } = await wholeRun(dir);
    expect(whole.summary).toEqual({ run: 14, passed: 10, failures: 2, errors: 1, skips: 1 });
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['test/models/cart_test.rb', 'test/models/deep/item_test.rb', 'test/order_test.rb', 'test/text_test.rb', 'test/widget_test.rb']]);
    for (const n of [3]) await expectShardsCover(dir, whole, timings, n);
  }, 480_000);

  it('minitest: Minitest::TestTask loads every file and our plugin selects a shard\'s tests by file: together the whole run', async () => {
    const dir = await copyFixture('minitest-mixed');
    await addFiles(dir, {
      Rakefile: 'require "minitest/test_task"\n\nMinitest::TestTask.create(:test) do |t|\n  t.libs << "lib"\nend\n',
      'test/models/cart_test.rb': minitestFile('CartTest', true),
      'test/models/test_order.rb': minitestFile('OrderTest', false),
    });
    const { report: whole, timings } = await wholeRun(dir);
    expect(whole.summary).toEqual({ run: 12, passed: 8, failures: 2, errors: 1, skips: 1 });
    const units = await expectShardsCover(dir, whole, timings, 1);
    // test_helper.rb is test/**/test_*.rb: the task loads it as a test file too.
    expect(units).toEqual([['test/models/cart_test.rb', 'test/models/test_order.rb', 'test/test_helper.rb', 'test/text_test.rb', 'test/widget_test.rb']]);
    for (const n of [3]) await expectShardsCover(dir, whole, timings, n);
  }, 480_000);

  it('rails: the files bin/rails test runs (test/system left out), each in one shard, together the whole run', async () => {
    const dir = await copyFixture('rails-app');
    await addFiles(dir, {
      'test/models/order_test.rb': railsFile('OrderTest', true),
      'test/controllers/home_test.rb': railsFile('HomeTest', false),
      // bin/rails test without arguments leaves test/system out: not a unit.
      'test/system/browser_test.rb': 'raise "never loaded"\n',
    });
    const { report: whole, timings } = await wholeRun(dir);
    const units = await expectShardsCover(dir, whole, timings, 1);
    expect(units).toEqual([['test/controllers/home_test.rb', 'test/models/calculator_test.rb', 'test/models/greeter_test.rb', 'test/models/order_test.rb']]);
    for (const n of [3]) await expectShardsCover(dir, whole, timings, n);
  }, 480_000);
});
