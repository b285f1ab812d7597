import { describe, expect, it } from '@jest/globals';
import { chooseRakeTestTask } from '../../../../src/runners/minitest/rake-tasks.js';

const choose = (rakefile: string | null) => chooseRakeTestTask({ read: (file) => (file === 'Rakefile' ? rakefile : null) });

describe('the rake task that runs the tests', () => {
  it('is `test` without a Rakefile, without a test task in it, or when it declares `test`', () => {
    expect(choose(null)).toEqual({ task: { name: 'test', kind: 'Rake::TestTask', filePattern: null }, why: null });
    expect(choose('task :lint do\nend\n').task.name).toBe('test');
    expect(choose('Rake::TestTask.new(:spec)\nRake::TestTask.new(:test) { |t| t.pattern = "test/**/*_test.rb" }\ntask default: :spec\n'))
      .toEqual({ task: { name: 'test', kind: 'Rake::TestTask', filePattern: '*_test.rb' }, why: null });
    expect(choose('Rake::TestTask.new do |t|\n  t.libs << "test"\nend\n').task.name).toBe('test');
  });

  it('reads a block\'s setters only inside the block: a gemspec\'s s.name further down is not the task\'s', () => {
    // kramdown's Rakefile: an unnamed TestTask, then a Gem::Specification block.
    const rakefile = 'task default: :test\n\ntt = Rake::TestTask.new do |test|\n  test.warning = false\n  test.test_files = FileList[\'test/test_*.rb\']\nend\n\nspec = Gem::Specification.new do |s|\n  s.name = \'kramdown\'\n  s.files = FileList[\'lib/**/*.rb\']\nend\n';
    expect(choose(rakefile)).toEqual({ task: { name: 'test', kind: 'Rake::TestTask', filePattern: 'test_*.rb' }, why: null });
  });

  it('says when the Rakefile declares no test task at all, which rake itself may not say', () => {
    const silent = 'the Rakefile declares no test task: `rake test` runs only what rake finds under that name';
    expect(choose('task :lint do\nend\n').why).toBe(silent);
    expect(choose('task :test do\n  ruby "tests/all.rb"\nend\n').why).toBeNull();
    expect(choose('task test: [:compile]\n').why).toBeNull();
    expect(choose(null).why).toBeNull();
  });

  it('is the default task when that is a test task', () => {
    const rakefile = 'require "rake/testtask"\n\nRake::TestTask.new(:unit)\nRake::TestTask.new(:spec) do |t|\n  t.pattern = "spec/**/*_spec.rb"\nend\n\ntask default: :spec\n';
    expect(choose(rakefile)).toEqual({
      task: { name: 'spec', kind: 'Rake::TestTask', filePattern: '*_spec.rb' },
      why: "the Rakefile's default task `spec` is its Rake::TestTask",
    });
    expect(choose('Rake::TestTask.new(:unit)\nRake::TestTask.new("spec")\ntask :default => [:spec, :rubocop]\n').task.name).toBe('spec');
    expect(choose('Rake::TestTask.new(:unit)\nRake::TestTask.new(:spec)\ntask(default: %i[spec lint])\n').task.name).toBe('spec');
  });

  it('reads the block form and Minitest::TestTask.create', () => {
    expect(choose('Rake::TestTask.new do |t|\n  t.name = "spec"\n  t.test_files = FileList["spec/*_spec.rb"]\nend\n')).toEqual({
      task: { name: 'spec', kind: 'Rake::TestTask', filePattern: '*_spec.rb' },
      why: "the Rakefile's Rake::TestTask is `spec`",
    });
    expect(choose('require "minitest/test_task"\nMinitest::TestTask.create(:spec) do |t|\n  t.test_globs = ["spec/**/*_spec.rb"]\nend\n'))
      .toEqual({ task: { name: 'spec', kind: 'Minitest::TestTask', filePattern: '*_spec.rb' }, why: "the Rakefile's Minitest::TestTask is `spec`" });
    expect(choose('Minitest::TestTask.create\n').task).toEqual({ name: 'test', kind: 'Minitest::TestTask', filePattern: null });
  });

  it('ignores commented-out tasks', () => {
    expect(choose('# Rake::TestTask.new(:old)\nRake::TestTask.new(:spec)\n').task.name).toBe('spec');
    expect(choose('Rake::TestTask.new(:unit)\nRake::TestTask.new(:spec)\n# task default: :unit\ntask default: :spec\n').task.name).toBe('spec');
  });
});
