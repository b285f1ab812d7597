# frozen_string_literal: true

require "json"

# Helpers shared by the reporter and by minitest_boot.rb (crash and unusable events);
# free of Minitest. Every line is an event of schema/events.schema.json.
module RunTestsMinitest
  SCHEMA = 1
  # Keeps lines bounded; above the reader's own 2 KiB cut, which says how many lines it
  # leaves out and can count them only in what it is given.
  MESSAGE_LIMIT = 16 * 1024

  INJECTED = %w[RUN_TESTS_MINITEST_REPORT RUN_TESTS_MINITEST_FILTER RUN_TESTS_MINITEST_FILES].freeze
  BOOT_OPTION = "-rrun_tests/minitest_boot"
  LIB = File.expand_path("..", __dir__)

  class << self
    # Pid of the process that wrote its run_end; the boot's at_exit reads it.
    attr_accessor :ended_pid

    def write_line(path, hash)
      File.open(path, "a") do |io|
        io.sync = true
        io.write("#{JSON.generate(hash)}\n")
      end
    end

    # Valid UTF-8, at most MESSAGE_LIMIT bytes, never cut inside a character.
    def bounded(text)
      return nil if text.nil?

      s = utf8(text)
      s.bytesize > MESSAGE_LIMIT ? s.byteslice(0, MESSAGE_LIMIT).scrub("") : s
    end

    # Valid UTF-8: a binary string's bytes read as UTF-8, anything invalid replaced by
    # U+FFFD. The JSON generator raises on an invalid string (a test defined with a
    # binary name), and the plugin's filter matches names made the same way.
    def utf8(text)
      s = text.to_s.dup
      s.force_encoding(Encoding::UTF_8) if s.encoding == Encoding::BINARY
      s.encode(Encoding::UTF_8, invalid: :replace, undef: :replace).scrub
    end

    # The tests' own child processes (CLI and generator tests, a test-unit suite's) must
    # never write into the run's report: once tests start, forget what run-tests put in
    # the environment, also in Bundler's copy that Bundler.with_original_env restores.
    def forget_environment
      envs = [ENV]
      envs << ::Bundler::ORIGINAL_ENV if defined?(::Bundler::ORIGINAL_ENV) && !::Bundler::ORIGINAL_ENV.frozen?
      envs.each do |env|
        INJECTED.each { |key| env.delete(key) }
        remove_part(env, "RUBYOPT", " ") { |part| part == BOOT_OPTION }
        remove_part(env, "RUBYLIB", File::PATH_SEPARATOR) { |part| File.expand_path(part) == LIB }
      end
    end

    # "path:12:in `m'" (or "path:12: syntax error...") => ["path", 12]
    def parse_frame(frame)
      m = /\A(.+?):(\d+)(?::|\z)/.match(frame.to_s)
      m && [m[1], m[2].to_i]
    end

    private

    def remove_part(env, key, separator)
      value = env[key]
      return if value.nil?

      kept = value.split(separator).reject { |part| yield part }
      kept.empty? ? env.delete(key) : env[key] = kept.join(separator)
    end
  end
end
