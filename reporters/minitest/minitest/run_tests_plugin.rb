# frozen_string_literal: true

# Minitest plugin of run-tests. Minitest 5 discovers it through
# Gem.find_files("minitest/*_plugin.rb") because run-tests puts reporters/minitest
# on RUBYLIB; under Minitest 6, run_tests/minitest_boot calls Minitest.load(:run_tests).
# It does nothing unless RUN_TESTS_MINITEST_REPORT names an output file.
module Minitest
  def self.plugin_run_tests_init(options)
    path = ENV["RUN_TESTS_MINITEST_REPORT"]
    return if path.nil? || path.empty?

    filter = ENV["RUN_TESTS_MINITEST_FILTER"]
    if filter && !filter.empty?
      begin
        options[:filter] = Regexp.new(filter)
      rescue RegexpError => e
        raise ArgumentError, "run-tests: RUN_TESTS_MINITEST_FILTER is not a valid regexp (#{e.message}): #{filter}"
      end
    end

    require_relative "../run_tests/minitest_reporter"
    reporter << RunTestsMinitest::JsonlReporter.new(path, options)
  end
end
