# frozen_string_literal: true

# Minitest plugin of run-tests. Minitest 5 discovers it through
# Gem.find_files("minitest/*_plugin.rb") because run-tests puts reporters/minitest
# on RUBYLIB; run_tests/minitest_boot registers it where discovery does not run
# (minitest 6, MT_NO_PLUGINS=1). It does nothing unless RUN_TESTS_MINITEST_REPORT
# names an output file.
module Minitest
  def self.plugin_run_tests_init(options)
    path = ENV["RUN_TESTS_MINITEST_REPORT"]
    return if path.nil? || path.empty?

    require_relative "../run_tests/minitest_reporter"
    # run-tests writes UTF-8; Ruby tags ENV values with the locale's encoding (C: ASCII).
    filter = ENV["RUN_TESTS_MINITEST_FILTER"]&.dup&.force_encoding(Encoding::UTF_8)
    if filter && !filter.empty?
      begin
        options[:filter] = RunTestsFilter.new(Regexp.new(filter))
      rescue RegexpError => e
        raise ArgumentError, "run-tests: RUN_TESTS_MINITEST_FILTER is not a valid regexp (#{e.message}): #{filter}"
      end
    end

    files = ENV["RUN_TESTS_MINITEST_FILES"]&.dup&.force_encoding(Encoding::UTF_8)
    RunTestsFiles.select(JSON.parse(files)) if files && !files.empty?
    RunTestsMinitest.forget_environment

    reporter << RunTestsMinitest::EventReporter.new(path, options)
  end

  # The tests defined in the given files or below the given directories, for a task that
  # loads every test file whatever TEST says (Minitest::TestTask): the others are left
  # out as a name filter leaves them out.
  module RunTestsFiles
    class << self
      def select(paths)
        @paths = paths.map { |p| File.expand_path(p) }
        Minitest::Test.singleton_class.prepend(self)
      end

      def selected?(location)
        return false unless location

        file = File.expand_path(location[0])
        @paths.any? { |p| file == p || file.start_with?("#{p}/") }
      end
    end

    def runnable_methods
      super.select { |m| RunTestsFiles.selected?(instance_method(m).source_location) }
    end
  end

  # Minitest matches its filter with `filter === name`. A Regexp raises on a name that is
  # not valid UTF-8 (a test defined with a binary name); this one matches the name as the
  # reporter writes it, scrubbed, so such a test is selected by the name it was reported by.
  class RunTestsFilter
    def initialize(regexp)
      @regexp = regexp
    end

    def ===(name)
      name = name.to_s
      @regexp.match?(name.valid_encoding? && name.encoding != Encoding::BINARY ? name : RunTestsMinitest.utf8(name))
    end

    # Older minitest (5.10) asks `filter =~ %r%/(.*)/%` of any filter; Ruby 3.2 dropped Object#=~.
    def =~(_other)
      nil
    end

    def to_s
      @regexp.inspect
    end
  end
end
