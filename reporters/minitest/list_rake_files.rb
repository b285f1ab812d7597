# frozen_string_literal: true

# The test files `rake TASK` would load, as rake itself finds them: the Rakefile (and
# rakelib/) is loaded as rake loads it, with every Rake::TestTask and Minitest::TestTask
# it declares noted, and the task's own list is asked for: Rake::TestTask#file_list
# (which reads TEST, as the run does), or Minitest::TestTask's test_globs, narrowed to
# the paths in RUN_TESTS_MINITEST_FILES as our plugin narrows them.
# Written to RUN_TESTS_UNITS_OUT as {"files": [...]} for run-tests --shard, or
# {"refused": why} when TASK is not a test task whose files can be known.
require "json"
require "rake"
require "rake/testtask"

module RunTestsListRakeFiles
  @tasks = []

  class << self
    attr_reader :tasks

    def write(answer)
      File.write(ENV.fetch("RUN_TESTS_UNITS_OUT"), JSON.generate(answer))
    end

    def files_of(task)
      return task.file_list.to_a if task.is_a?(Rake::TestTask)

      paths = JSON.parse(ENV["RUN_TESTS_MINITEST_FILES"] || "[]").map { |p| File.expand_path(p) }
      files = Dir[*task.test_globs].uniq.map { |f| File.expand_path(f) }
      paths.empty? ? files : files.select { |f| paths.any? { |p| f == p || f.start_with?("#{p}/") } }
    end

    def run(name)
      Rake.application.init("rake", [])
      Rake.application.load_rakefile
      task = tasks.reverse.find { |t| t.name.to_s == name }
      return write(files: files_of(task).map { |f| File.expand_path(f) }) if task

      why = Rake::Task.task_defined?(name) ? "its body decides what it runs" : "the Rakefile does not define it"
      write(refused: "rake's `#{name}` task is not a Rake::TestTask or Minitest::TestTask (#{why}), so run-tests cannot tell which files it runs")
    end
  end

  # Notes each test task as it is declared.
  module Noted
    def define
      RunTestsListRakeFiles.tasks << self
      super
    end
  end
end

Rake::TestTask.prepend(RunTestsListRakeFiles::Noted)
begin
  require "minitest/test_task"
  Minitest::TestTask.prepend(RunTestsListRakeFiles::Noted)
rescue LoadError
  # A minitest older than 5.16 has no Minitest::TestTask.
end

RunTestsListRakeFiles.run(ARGV.fetch(0))
