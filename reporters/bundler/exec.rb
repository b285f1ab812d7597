# frozen_string_literal: true

# `bundle exec COMMAND ARGS...` as run-tests starts it: `ruby exec.rb COMMAND ARGS...`.
#
# - require "bundler/setup" activates the project's bundle and sets the environment
#   `bundle exec` sets (BUNDLE_GEMFILE, BUNDLE_BIN_PATH, PATH with the bundle's bin
#   directory, RUBYOPT with -rbundler/setup, RUBYLIB): both do it through Bundler.setup.
# - COMMAND then runs as Bundler::CLI::Exec#run runs it: a Ruby executable is loaded
#   into this process, anything else replaces it through Kernel.exec, and so does every
#   executable under bundler's disable_exec_load setting.
#
# One difference, on purpose: bundle exec loads only shebangs it knows by their text
# ("#!/usr/bin/env ruby", "#!#{Gem.ruby}"). Debian's packaged executables say
# "#!/usr/bin/ruby" while Gem.ruby is /usr/bin/ruby3.1, so bundle exec starts a second
# Ruby, which sets up the same bundle again (~0.2 s). This launcher also loads an
# executable whose shebang is a bare path to this very interpreter: the same code runs,
# with the same environment and libraries, in one process instead of two. (The load
# path holds the same directories; bundler's own comes after RUBYLIB's, as it does when
# bundle exec loads an executable itself.)
require "bundler/setup"

module RunTestsBundlerExec
  SHEBANGS = ["#!/usr/bin/env ruby\n", "#!/usr/bin/env jruby\n", "#!/usr/bin/env truffleruby\n"].freeze

  def self.ruby_executable?(file)
    head = File.open(file, "rb") { |io| io.gets("\n", 4096) }
    return false if head.nil?
    return true if SHEBANGS.include?(head) || head == "#!#{Gem.ruby}\n"

    interpreter = head.match(%r{\A#!(/\S+)\n\z})&.captures&.first
    !interpreter.nil? && File.exist?(interpreter) && File.realpath(interpreter) == File.realpath(RbConfig.ruby)
  end

  def self.run(command, args)
    executable = Bundler.which(command)
    if executable.nil?
      warn "run-tests: #{command} was not found on PATH, the bundle's included; add its gem to the Gemfile and run `bundle install`"
      exit 127
    end
    # [path, argv0]: never a shell, even when there are no arguments.
    Kernel.exec([executable, executable], *args) if Bundler.settings[:disable_exec_load] || !ruby_executable?(executable)

    ARGV.replace(args)
    $0 = executable
    Process.setproctitle("#{executable} #{args.join(" ")}".strip)
    Kernel.load(executable)
  end
end

RunTestsBundlerExec.run(ARGV.first, ARGV.drop(1))
