# frozen_string_literal: true

# The spec files `rspec ARGS` would load, as rspec itself finds them: its options from
# the command line, .rspec, .rspec-local, ~/.rspec and SPEC_OPTS (--pattern,
# --exclude-pattern, --default-path), then RSpec::Core::Configuration#files_to_run.
# Written to RUN_TESTS_UNITS_OUT as {"files": [...]} for run-tests --shard.
#
# The --require files are not loaded: a spec_helper often starts a coverage tool, or a
# rails_helper a database, which must not run for a listing. Only where one of them
# sets the files to run itself does that matter, and then the answer is {"refused": why}.
require "json"
require "rspec/core"

module RunTestsListFiles
  # What a helper would write to change the files rspec runs: an assignment (not `==`), or
  # a change to the list files_to_run returns. Reading it (`files_to_run.one?`, as
  # dry-rb's helpers do to choose a formatter) changes nothing.
  SETS_FILES = /\.\s*(pattern|exclude_pattern|default_path|files_or_directories_to_run|files_to_run)\s*=(?!=)|\bfiles_to_run\s*(?:<<|\.\s*(?:concat|push|unshift|replace|clear|delete|delete_if|select!|reject!|filter!|keep_if)(?!\w))/

  def self.write(answer)
    File.write(ENV.fetch("RUN_TESTS_UNITS_OUT"), JSON.generate(answer))
  end

  # The first required file found on rspec's load path that sets the files to run.
  def self.setting_files(requires, libs, default_path)
    dirs = [*libs, "lib", default_path]
    requires.each do |name|
      file = dirs.map { |dir| File.join(dir, name.end_with?(".rb") ? name : "#{name}.rb") }.find { |f| File.file?(f) }
      next if file.nil?

      found = File.read(file).match(SETS_FILES)
      return [file, found[1] || "files_to_run"] if found
    end
    nil
  end

  def self.run(args)
    $0 = "rspec" # files_or_directories_to_run= takes the default path only for `rspec`
    options = RSpec::Core::ConfigurationOptions.new(args)
    opts = options.options
    config = RSpec.configuration
    if opts[:only_failures]
      return write(refused: "rspec's options say --only-failures: which files run depends on the statuses its last run left, which only its helpers say where to find")
    end
    setting = setting_files(opts[:requires] || [], opts[:libs] || [], opts[:default_path] || config.default_path)
    if setting
      return write(refused: "#{setting[0]} sets rspec's #{setting[1]} in code, which run-tests does not run to list the spec files")
    end

    # As ConfigurationOptions#process_options_into, in its order (default_path before
    # the files), without the requires and formatters.
    kept = opts.reject { |key, _| %i[requires formatters].include?(key) }
    options.send(:order, kept.keys).each do |key|
      options.send(:force?, key) ? config.force(key => kept[key]) : config.__send__("#{key}=", kept[key])
    end
    write(files: config.files_to_run.map { |f| File.expand_path(f) })
  end
end

RunTestsListFiles.run(ARGV)
