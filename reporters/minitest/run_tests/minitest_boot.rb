# frozen_string_literal: true

# Loaded by run-tests into every Ruby process of a minitest run through
# RUBYOPT=-rrun_tests/minitest_boot. It must stay cheap, must not load Minitest
# (libraries test `defined?(Minitest)`), and does nothing without the env var.
if (run_tests_report = ENV["RUN_TESTS_MINITEST_REPORT"]) && !run_tests_report.empty?
  module RunTestsMinitestBoot
    VENDORED = %r{\A(?:vendor|\.bundle)/}.freeze

    class << self
      def install(path)
        root = Dir.pwd
        at_exit { record_crash(path, root, $!) }
        watch_for_frameworks
      end

      # A test file raising at load kills the process before Minitest runs or reports:
      # leave a crash event saying where, unless this process already reported. One
      # without a file (outside the project's files) is no test's failure.
      def record_crash(path, root, error)
        return if error.nil? || error.is_a?(SystemExit) || error.is_a?(SignalException)

        require_relative "jsonl"
        return if RunTestsMinitest.ended_pid == Process.pid

        # Bundler failing to set up the bundle (a gem it cannot find) is the runner failing
        # before any test, not a load error of the project file that required it.
        file, line = bundler_error?(error) ? [nil, nil] : project_frame(error, root)
        text = RunTestsMinitest.utf8(error.message)
        message = text.empty? ? error.class.to_s : "#{error.class}: #{text}"
        RunTestsMinitest.write_line(path, "event" => "error", "kind" => "crash", "file" => file, "line" => line,
                                          "message" => RunTestsMinitest.bounded(message))
      rescue StandardError, ScriptError
        nil # never turn a crash into a different crash
      end

      def bundler_error?(error)
        defined?(::Bundler::BundlerError) && error.is_a?(::Bundler::BundlerError)
      end

      def project_frame(error, root)
        prefix = root.end_with?("/") ? root : "#{root}/"
        gem_dirs = (defined?(Gem) ? Gem.path : []).map { |dir| File.join(File.expand_path(dir), "") }
        # A SyntaxError names the broken file in its message, not its backtrace.
        frames = (error.is_a?(SyntaxError) ? error.message.to_s.lines : []) + (error.backtrace || [])
        frames.each do |frame|
          path, line = RunTestsMinitest.parse_frame(frame.chomp)
          next if path.nil?

          path = File.expand_path(path, root)
          next unless path.start_with?(prefix) && File.file?(path)
          next if VENDORED.match?(path.delete_prefix(prefix)) || gem_dirs.any? { |dir| path.start_with?(dir) }

          return [path, line]
        end
        [nil, nil]
      end

      # The plugin is registered as Minitest.run initializes plugins, after its discovery,
      # which minitest 6, MT_NO_PLUGINS=1 and --no-plugins skip. test-unit, run by rake as
      # minitest is, cannot be read: say so in the report rather than report nothing.
      # Both are watched: a minitest suite may load test-unit too (a helper gem).
      def watch_for_frameworks
        hooked = []
        TracePoint.new(:end) do |tp|
          if !hooked.include?(:minitest) && defined?(::Minitest)
            hooked << :minitest
            ::Minitest.singleton_class.prepend(RegisterPlugin)
          end
          if !hooked.include?(:test_unit) && defined?(::Test::Unit::AutoRunner)
            hooked << :test_unit
            ::Test::Unit::AutoRunner.singleton_class.prepend(MarkTestUnit)
          end
          tp.disable if hooked.size == 2
        end.enable
      end
    end

    module RegisterPlugin
      def init_plugins(options)
        if respond_to?(:extensions) && !extensions.include?("run_tests")
          require_relative "../minitest/run_tests_plugin"
          extensions << "run_tests"
        end
        super
      end
    end

    # test-unit's autorun starts even where no test-unit test is defined (a minitest
    # suite that loaded test/unit): only a test-unit run with tests is one we cannot read.
    module MarkTestUnit
      def run(*args, &block)
        require_relative "jsonl"
        path = ENV["RUN_TESTS_MINITEST_REPORT"]
        cases = defined?(::Test::Unit::TestCase::DESCENDANTS) ? ::Test::Unit::TestCase::DESCENDANTS : [nil]
        if path && !cases.empty?
          RunTestsMinitest.write_line(path, "event" => "unusable", "code" => "RUNNER_UNSUPPORTED", "message" =>
            "test-unit ran the tests (process #{Process.pid}), not minitest: run-tests reads minitest's results " \
            "only, so it cannot tell how they went; run the suite with its own command")
          RunTestsMinitest.forget_environment
        end
        super
      end
    end
  end

  RunTestsMinitestBoot.install(run_tests_report)
end
