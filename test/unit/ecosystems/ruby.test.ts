import { describe, expect, it } from '@jest/globals';
import { minitest, rakeTestGlob } from '../../../src/runners/minitest/runner.js';
import { rails, railsPathOperand } from '../../../src/runners/rails/runner.js';
import { rspec } from '../../../src/runners/rspec/runner.js';
import { asFileOperand, escapeRubyRegex, minitestFilter, rubyEnv } from '../../../src/ecosystems/ruby.js';
import type { PlanRequest } from '../../../src/runners/types.js';
import { displayCommand } from '../../../src/core/quote.js';
import { factsFromFiles } from '../../../src/project/facts.js';
import { artifactPaths } from '../../../src/store/artifacts.js';
import type { FailedTestRecord } from '../../../src/model/results.js';

const failed = (id: string, file: string | null): FailedTestRecord => ({ id, test_name: id, file, line: 1, status: 'failed', message: 'm' });

const request = (files: Record<string, string>, over: Partial<PlanRequest> = {}, executables: string[] = []): PlanRequest => ({
  root: '/p',
  facts: factsFromFiles('/p', files, executables),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths('/p', 'ID'),
  env: { PATH: '/bin', RUBYOPT: '-rmine', BUNDLE_GEMFILE: '/other/Gemfile', BUNDLER_VERSION: '2', RAILS_MAX_THREADS: '9', KEEP: '1' },
  reportersDir: '/pkg/reporters',
  ...over,
});

describe('ruby environment', () => {
  it('drops BUNDLE_*, BUNDLER_*, RAILS_MAX_THREADS and the parent RUBYOPT, keeping the rest', () => {
    expect(rubyEnv({ PATH: '/bin', RUBYOPT: '-rx', BUNDLE_GEMFILE: 'g', BUNDLER_ORIG_PATH: 'o', RAILS_MAX_THREADS: '5', HOME: '/h' }))
      .toEqual({ PATH: '/bin', HOME: '/h' });
  });
});

describe('file operands', () => {
  it('never start with `-`, so no runner takes one for an option', () => {
    expect([asFileOperand('--dry-run'), asFileOperand('-x_spec.rb'), asFileOperand('spec/-a_spec.rb')]).toEqual(['./--dry-run', './-x_spec.rb', 'spec/-a_spec.rb']);
  });

  it('reach bin/rails test as paths Rails recognizes: relative where it does, else absolute', () => {
    expect(railsPathOperand('test/models/a_test.rb', '/p')).toBe('test/models/a_test.rb');
    expect(railsPathOperand('test/models', '/p')).toBe('test/models');
    expect(railsPathOperand('--dry-run_test.rb', '/p')).toBe('/p/--dry-run_test.rb');
    expect(railsPathOperand('my-tests/a_test.rb', '/p')).toBe('/p/my-tests/a_test.rb');
    expect(() => railsPathOperand('a_test.rb', '/my-app')).toThrow(/cannot be given the path "a_test.rb"/);
    expect(() => railsPathOperand('test/a_test.rb:12', '/p')).toThrow(/as a file and a line/);
  });
});

describe('minitest filter', () => {
  it('escapes names exactly and anchors the rerun alternation', () => {
    expect(escapeRubyRegex('a b (c) [d] x.y*+?{1}|^$#/\\')).toBe('a b \\(c\\) \\[d\\] x\\.y\\*\\+\\?\\{1\\}\\|\\^\\$\\#\\/\\\\');
    const rerun = [failed('FooTest#test_with [brackets] (and parens)', 'test/foo_test.rb'), failed('BarTest#test_b', 'test/bar_test.rb')];
    expect(minitestFilter({ name: null, rerun })).toBe('\\A(?:FooTest\\#test_with \\[brackets\\] \\(and parens\\)|BarTest\\#test_b)\\z');
    // Tests that share a name (same-named describe blocks) are one alternative: it selects them all.
    expect(minitestFilter({ name: null, rerun: [failed('d#test_0001_a', 'spec/d_spec.rb'), failed('d#test_0001_a', 'spec/d_spec.rb')] })).toBe('\\A(?:d\\#test_0001_a)\\z');
    expect(minitestFilter({ name: { text: 'log in', regex: false }, rerun: null })).toBe('log[ _]in');
    expect(minitestFilter({ name: { text: '^test_a', regex: true }, rerun: null })).toBe('^test_a');
  });
});

describe('minitest (rake) plan', () => {
  it('runs bundle exec rake test through the bundler launcher, with the reporter injected through the environment', () => {
    const plan = minitest.plan(request({ Gemfile: '', Rakefile: '' }));
    expect(plan.argv).toEqual(['ruby', '/pkg/reporters/bundler/exec.rb', 'rake', 'test']);
    expect(plan.shownArgv?.(plan.argv)).toEqual(['bundle', 'exec', 'rake', 'test']);
    expect(plan.requires).toEqual(['bundle']);
    expect(plan.env).toEqual({
      PATH: '/bin',
      KEEP: '1',
      RUBYLIB: '/pkg/reporters/minitest',
      RUBYOPT: '-rrun_tests/minitest_boot',
      RUN_TESTS_MINITEST_REPORT: '/p/.run-tests/runs/ID/minitest.jsonl',
    });
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/minitest.jsonl', parser: 'minitest-jsonl' }]);
  });

  it('runs plain rake without a Gemfile, and passes files through TEST as an escaped glob', () => {
    const plan = minitest.plan(request({ Rakefile: '' }, { files: ['test/a [1]_test.rb', 'test/b,c_test.rb'] }));
    expect(plan.argv).toEqual(['rake', 'test']);
    expect(plan.env.TEST).toBe('{test/a \\[1\\]_test.rb,test/b\\,c_test.rb}');
    expect(rakeTestGlob(['test/a_test.rb'])).toBe('test/a_test.rb');
  });

  it('gives TEST a file that starts with `-` as ./ (rake\'s loader passes -… to minitest as an option), and a directory as its test files', () => {
    expect(rakeTestGlob(['--dry-run.rb'])).toBe('./--dry-run.rb');
    const plan = minitest.plan(request({ Gemfile: '', 'test/models/a_test.rb': '' }, { files: ['test/models', '-x_test.rb'] }));
    expect(plan.env.TEST).toBe('{test/models/**/{*_test,*_spec,test_*}.rb,./-x_test.rb}');
  });

  it('runs the Rakefile\'s test task, with its own file glob for a directory', () => {
    const rakefile = 'Rake::TestTask.new(:spec) do |t|\n  t.pattern = "spec/**/*_spec.rb"\nend\ntask default: :spec\n';
    const plan = minitest.plan(request({ Gemfile: '', Rakefile: rakefile, 'spec/models/a_spec.rb': '' }, { files: ['spec/models'] }));
    expect(plan.argv.slice(2)).toEqual(['rake', 'spec']);
    expect(plan.env.TEST).toBe('spec/models/**/*_spec.rb');
  });

  it('selects files of a Minitest::TestTask, which ignores TEST, through the plugin', () => {
    const plan = minitest.plan(request({ Rakefile: 'Minitest::TestTask.create(:spec)\n' }, { files: ['spec/a_spec.rb', 'spec/models'] }));
    expect([plan.argv, plan.env.TEST, plan.env.RUN_TESTS_MINITEST_FILES]).toEqual([['rake', 'spec'], undefined, '["spec/a_spec.rb","spec/models"]']);
  });

  it('reruns failures through the plugin filter and their files', () => {
    const plan = minitest.plan(request({ Gemfile: '' }, { rerun: [failed('A#test_x', 'test/a_test.rb'), failed('B#test_y', 'test/b_test.rb')] }));
    expect(plan.env.RUN_TESTS_MINITEST_FILTER).toBe('\\A(?:A\\#test_x|B\\#test_y)\\z');
    expect(plan.env.TEST).toBe('{test/a_test.rb,test/b_test.rb}');
  });

  it('refuses a path that rake would hand to its shell unquoted', () => {
    expect(() => minitest.plan(request({ Gemfile: '' }, { files: ['test/$(x)_test.rb'] }))).toThrow(/rake cannot be given the path/);
  });
});

describe('rails plan', () => {
  it('runs bin/rails test with files and an exact -n filter on reruns', () => {
    const plan = rails.plan(request({ 'bin/rails': '' }, { rerun: [failed('UserTest#test_a b', 'test/models/user_test.rb')] }, ['bin/rails']));
    expect(plan.argv).toEqual(['bin/rails', 'test', 'test/models/user_test.rb', '-n', '/\\A(?:UserTest\\#test_a b)\\z/']);
    expect(plan.env.RUN_TESTS_MINITEST_FILTER).toBeUndefined();
  });

  it('gives files Rails would not read as paths absolute', () => {
    const plan = rails.plan(request({ 'bin/rails': '' }, { files: ['--dry-run_test.rb', 'test/models'] }, ['bin/rails']));
    expect(plan.argv).toEqual(['bin/rails', 'test', '/p/--dry-run_test.rb', 'test/models']);
    // Shown as run: relative, `--dry-run_test.rb` would be an option and `my-tests/…` no path to Rails.
    const shown = rails.plan(request({ 'bin/rails': '' }, { files: ['--dry-run_test.rb', 'my-tests/a_test.rb', 'test/models'] }, ['bin/rails']));
    expect(displayCommand(shown)).toBe('bin/rails test /p/--dry-run_test.rb /p/my-tests/a_test.rb test/models');
  });

  it('uses ruby when bin/rails is not executable', () => {
    expect(rails.plan(request({ 'bin/rails': '' })).argv).toEqual(['ruby', 'bin/rails', 'test']);
  });
});

describe('rspec plan', () => {
  it('adds the JSON and stream formatters and keeps a human formatter for the log, none of them shown', () => {
    const plan = rspec.plan(request({ Gemfile: '', 'Gemfile.lock': '' }, { files: ['spec/a_spec.rb'], name: { text: 'a (b)', regex: false } }));
    const rspecArgv = ['rspec', '--format', 'progress', '--format', 'json', '--out', '/p/.run-tests/runs/ID/rspec.json',
      '--require', '/pkg/reporters/rspec/run_tests_formatter.rb', '--format', 'RunTests::StreamFormatter', '--out', '/p/.run-tests/runs/ID/rspec-events.jsonl',
      'spec/a_spec.rb', '--example', 'a (b)'];
    expect(plan.argv).toEqual(['ruby', '/pkg/reporters/bundler/exec.rb', ...rspecArgv]);
    // Shown as a person runs it: without the formatters run-tests adds.
    expect(plan.shownArgv?.(plan.argv)).toEqual(['bundle', 'exec', 'rspec', 'spec/a_spec.rb', '--example', 'a (b)']);
    expect(plan.env.RUBYOPT).toBeUndefined();
    expect(plan.reports.map((r) => r.parser)).toEqual(['rspec-json', 'rspec-stream']);
  });

  it('reruns by example id, and uses --example-matches for a /regex/ name', () => {
    const rerun = rspec.plan(request({ Gemfile: '' }, { rerun: [failed('./spec/a_spec.rb[1:2]', 'spec/a_spec.rb'), failed('spec/broken_spec.rb', 'spec/broken_spec.rb')] }));
    expect(rerun.argv.slice(-2)).toEqual(['./spec/a_spec.rb[1:2]', 'spec/broken_spec.rb']);
    expect(rspec.plan(request({ Gemfile: '' }, { name: { text: '^a', regex: true } })).argv.slice(-2)).toEqual(['--example-matches', '^a']);
  });

  it('gives a file that starts with `-` as ./, and a --name as the value of --example', () => {
    const plan = rspec.plan(request({ Gemfile: '' }, { files: ['--dry-run'], name: { text: '--fail-fast', regex: false } }));
    expect(plan.argv.slice(-3)).toEqual(['./--dry-run', '--example', '--fail-fast']);
    const rerun = rspec.plan(request({ Gemfile: '' }, { rerun: [{ ...failed('-x_spec.rb', '-x_spec.rb'), test_name: 'load error: -x_spec.rb' }] }));
    expect(rerun.argv.slice(-1)).toEqual(['./-x_spec.rb']);
  });
});
