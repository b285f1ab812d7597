/** Each runner's ShardSupport.units on real fixture copies: the files the runner itself
 * would run for a selection, sorted, with their sizes, asked of the runner's own code;
 * and a refusal, saying why, where the layout cannot be known. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { readProjectFacts } from '../../src/project/facts.js';
import { minitest } from '../../src/runners/minitest/runner.js';
import { pytest } from '../../src/runners/pytest/runner.js';
import { rails } from '../../src/runners/rails/runner.js';
import { rspec } from '../../src/runners/rspec/runner.js';
import type { Runner } from '../../src/runners/types.js';
import { unittest } from '../../src/runners/unittest/runner.js';
import { copyFixture, hasTools, REPO } from './helpers.js';

const ruby = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;
const python = hasTools('python3', 'pytest-3') ? describe : describe.skip;

/** The unit names for a selection, each checked to carry its file's size. */
async function units(runner: Runner, root: string, files: readonly string[] = [], runnerArgs: readonly string[] = []): Promise<string[]> {
  const listed = await runner.shard?.units({ root, facts: readProjectFacts(root), files, env: process.env, reportersDir: path.join(REPO, 'reporters'), runnerArgs });
  for (const unit of listed ?? []) expect(unit.bytes).toBe(fs.statSync(path.join(root, unit.name)).size);
  return (listed ?? []).map((u) => u.name);
}

ruby('units of the Ruby runners', () => {
  it('rspec: its pattern below its default path, a directory, .rspec and `--` options; a helper that sets the pattern is refused', async () => {
    const dir = await copyFixture('rspec-mixed');
    await fs.outputFile(path.join(dir, 'spec/models/deep/third_spec.rb'), '');
    expect(await units(rspec, dir)).toEqual(['spec/mixed_spec.rb', 'spec/models/deep/third_spec.rb', 'spec/second_spec.rb']);
    expect(await units(rspec, dir, ['spec/models', 'spec/second_spec.rb'])).toEqual(['spec/models/deep/third_spec.rb', 'spec/second_spec.rb']);
    expect(await units(rspec, dir, [], ['--exclude-pattern', '**/second_spec.rb'])).toEqual(['spec/mixed_spec.rb', 'spec/models/deep/third_spec.rb']);
    await fs.writeFile(path.join(dir, '.rspec'), '--require spec_helper\n--pattern spec/models/**/*_spec.rb\n');
    expect(await units(rspec, dir)).toEqual(['spec/models/deep/third_spec.rb']);
    // Reading the list (dry-rb's helpers choose a formatter by it) changes nothing.
    await fs.appendFile(path.join(dir, 'spec/spec_helper.rb'), 'RSpec.configure { |c| c.default_formatter = "doc" if c.files_to_run.one? }\n');
    expect(await units(rspec, dir)).toEqual(['spec/models/deep/third_spec.rb']);
    await fs.appendFile(path.join(dir, 'spec/spec_helper.rb'), 'RSpec.configure { |c| c.pattern = "**/*_check.rb" }\n');
    await expect(units(rspec, dir)).rejects.toThrow("--shard: spec/spec_helper.rb sets rspec's pattern in code, which run-tests does not run to list the spec files");
    await fs.writeFile(path.join(dir, 'spec/spec_helper.rb'), 'RSpec.configure { |c| c.files_to_run.reject! { |f| f.include?("deep") } }\n');
    await expect(units(rspec, dir)).rejects.toThrow("--shard: spec/spec_helper.rb sets rspec's files_to_run in code, which run-tests does not run to list the spec files");
  }, 60_000);

  it('minitest: the Rake::TestTask\'s pattern and TEST for a selection; Minitest::TestTask\'s globs; a Rakefile without a test task is refused', async () => {
    const dir = await copyFixture('minitest-mixed');
    await fs.outputFile(path.join(dir, 'test/deep/more_test.rb'), '');
    expect(await units(minitest, dir)).toEqual(['test/deep/more_test.rb', 'test/text_test.rb', 'test/widget_test.rb']);
    expect(await units(minitest, dir, ['test/deep', 'test/widget_test.rb'])).toEqual(['test/deep/more_test.rb', 'test/widget_test.rb']);
    // The task is `spec`, its pattern spec/**/*_spec.rb (spec_helper.rb is not one).
    expect(await units(minitest, await copyFixture('minitest-spec'))).toEqual(['spec/hash_spec.rb', 'spec/models/cart_spec.rb', 'spec/models/nested/item_spec.rb']);
    await fs.writeFile(path.join(dir, 'Rakefile'), 'require "minitest/test_task"\n\nMinitest::TestTask.create(:test)\n');
    await fs.outputFile(path.join(dir, 'test/deep/test_other.rb'), '');
    // test_helper.rb is test/**/test_*.rb: Minitest::TestTask loads it as a test file.
    expect(await units(minitest, dir)).toEqual(['test/deep/more_test.rb', 'test/deep/test_other.rb', 'test/test_helper.rb', 'test/text_test.rb', 'test/widget_test.rb']);
    expect(await units(minitest, dir, ['test/deep'])).toEqual(['test/deep/more_test.rb', 'test/deep/test_other.rb']);
    await expect(units(minitest, await copyFixture('minitest-no-test-task'))).rejects.toThrow("--shard: rake's `test` task is not a Rake::TestTask or Minitest::TestTask (the Rakefile does not define it), so run-tests cannot tell which files it runs");
  }, 60_000);

  it('rails: test/**/*_test.rb but test/system without arguments; a file or directory as bin/rails test takes it', async () => {
    const dir = await copyFixture('rails-app');
    await fs.outputFile(path.join(dir, 'test/system/browser_test.rb'), '');
    expect(await units(rails, dir)).toEqual(['test/models/calculator_test.rb', 'test/models/greeter_test.rb']);
    expect(await units(rails, dir, ['test/system', 'test/models/greeter_test.rb'])).toEqual(['test/models/greeter_test.rb', 'test/system/browser_test.rb']);
  }, 60_000);
});

python('units of the Python runners', () => {
  it('pytest: its collection from testpaths or the rootdir, a directory, `--` options; a file that fails to collect', async () => {
    const dir = await copyFixture('pytest-mixed');
    await fs.outputFile(path.join(dir, 'other/test_outside.py'), 'def test_x():\n    pass\n');
    expect(await units(pytest, dir)).toEqual(['tests/test_text.py', 'tests/test_widget.py']);
    expect(await units(pytest, dir, ['other', 'tests/test_text.py'])).toEqual(['other/test_outside.py', 'tests/test_text.py']);
    expect(await units(pytest, dir, [], ['--ignore', 'tests/test_text.py'])).toEqual(['tests/test_widget.py']);
    expect(await units(pytest, await copyFixture('pytest-in-package'))).toEqual(['shapes/tests/deep/test_deep.py', 'shapes/tests/test_area.py']);
    expect(await units(pytest, await copyFixture('pytest-collect-error'))).toEqual(['tests/test_broken.py', 'tests/test_ok.py']);
  }, 60_000);

  it('unittest: its discovery with the project\'s arguments, a directory; a load_tests is refused', async () => {
    expect(await units(unittest, await copyFixture('unittest-mixed'))).toEqual(['tests/test_text.py', 'tests/test_widget.py']);
    const dir = await copyFixture('unittest-src-layout');
    await fs.outputFile(path.join(dir, 'tests/deep/__init__.py'), '');
    await fs.outputFile(path.join(dir, 'tests/deep/test_deep.py'), 'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        pass\n');
    await fs.outputFile(path.join(dir, 'tests/deep/empty_test.py'), 'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        pass\n');
    expect(await units(unittest, dir)).toEqual(['tests/deep/test_deep.py', 'tests/test_shapes.py', 'tests/test_site.py']);
    expect(await units(unittest, dir, ['tests/deep'])).toEqual(['tests/deep/test_deep.py']);
    await expect(units(unittest, await copyFixture('unittest-load-tests'))).rejects.toThrow('tests/test_calc.py defines load_tests, which decides itself which tests run');
    await fs.writeFile(path.join(dir, 'Makefile'), 'test:\n\tPYTHONPATH=src python3 -m unittest discover -s tests -t . -k shapes\n');
    await expect(units(unittest, dir)).rejects.toThrow('--shard: Makefile gives unittest -k, which a run of some of its files does not keep');
  }, 60_000);
});
