# frozen_string_literal: true

# The test files `bin/rails test ARGS` would load, as Rails itself finds them:
# Rails::TestUnit::Runner.load_tests (the default glob without arguments, test/system
# and test/dummy left out; a directory's **/*_test.rb; a file as given), its requires
# noted instead of made, so neither the application nor a test file is loaded.
# Written to RUN_TESTS_UNITS_OUT as {"files": [...]} for run-tests --shard.
require "json"
require "rails/test_unit/runner"

listed = []
Rails::TestUnit::Runner.define_singleton_method(:require) do |path|
  listed << File.expand_path(path)
  true
end
Rails::TestUnit::Runner.load_tests(ARGV)
File.write(ENV.fetch("RUN_TESTS_UNITS_OUT"), JSON.generate(files: listed))
