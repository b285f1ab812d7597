# frozen_string_literal: true

# Streams run-tests' event format (schema/events.schema.json), one line per event, so a
# run killed by a timeout keeps the examples that finished (rspec's JSON formatter writes
# only at the end). Read by src/runners/rspec/events.ts.
#
#   run_start   at start, with rspec-core's version
#   plan        then, the number of examples about to run (the live display's total)
#   test_start  an example begins (id ./spec/a_spec.rb[1:2], name its full description)
#   test_end    an example finished: passed, failed (an expectation), error (an unexpected
#               exception), skipped (pending); where it failed and why
#   error       an error outside examples (a file that failed to load, a suite hook), as
#               rspec words it; the text is rspec's own, and the reader finds file and line
#   run_end     rspec's summary counts; `interrupted`, with a warning, when a signal cut
#               the run short
#
# rspec prints a summary even when a signal stops it: the example running then is ended
# as an error ("did not finish") and the run_end says it was interrupted. A run killed
# outright leaves that example's test_start alone, and the reader ends it the same way.
require "json"
require "rspec/core"
require "rspec/core/formatters/base_formatter"

module RunTests
  class StreamFormatter < RSpec::Core::Formatters::BaseFormatter
    SCHEMA = 1
    # Keeps lines short; the reader bounds messages further.
    MAX_MESSAGE_CHARS = 8192
    MAX_FRAMES = 50
    # An expectation that failed, not an unexpected exception (as src/runners/rspec/examples.ts
    # reads rspec's JSON). A pending example that passed did not fail as declared.
    EXPECTATION_FAILURES = %w[
      RSpec::Expectations::ExpectationNotMetError RSpec::Expectations::MultipleExpectationsNotMetError
      RSpec::Mocks::MockExpectationError RSpec::Core::Pending::PendingExampleFixedError
    ].freeze
    # rspec-core's wording for errors outside examples (configuration.rb, example_group.rb);
    # its other messages (run options, deprecations) are not events.
    OUTSIDE_ERROR = /\A(?:An error occurred\b|While loading \S+ an `exit`)/.freeze
    LOADING = /\A(?:An error occurred while loading|While loading \S+ an `exit`)/.freeze
    UNFINISHED = "did not finish: the run was stopped (timeout or signal) while this example ran"

    RSpec::Core::Formatters.register self,
                                     :start, :example_started, :example_passed, :example_failed, :example_pending,
                                     :message, :dump_summary

    def initialize(output)
      super
      @running = nil
      @outside_errors = 0
    end

    def start(notification)
      watch_interrupt
      emit(event: "run_start", schema: SCHEMA, runner: "rspec", runner_version: RSpec::Core::Version::STRING,
           pid: Process.pid)
      # The examples about to run, filters applied.
      emit(event: "plan", tests: notification.count)
    end

    def example_started(notification)
      @running = notification.example
      emit(event: "test_start", id: @running.id, name: utf8(@running.full_description),
           file: @running.metadata[:file_path], line: @running.metadata[:line_number])
    end

    def example_passed(notification)
      emit_example(notification.example)
    end

    def example_failed(notification)
      emit_example(notification.example)
    end

    def example_pending(notification)
      emit_example(notification.example)
    end

    def message(notification)
      text = utf8(notification.message).strip
      return unless OUTSIDE_ERROR.match?(text)

      @outside_errors += 1
      emit(event: "error", kind: LOADING.match?(text) ? "load" : "hook", message: text)
    end

    def dump_summary(summary)
      warnings = [end_unfinished]
      end_unattributed(summary.errors_outside_of_examples_count)
      signal = interrupted
      warnings << "rspec was interrupted by #{signal}: its summary covers only part of the run" if signal
      ended = { event: "run_end", pid: Process.pid, totals: totals(summary), interrupted: !signal.nil? }
      ended[:warnings] = warnings.compact unless warnings.compact.empty?
      emit(ended)
    end

    private

    # An error outside examples is an entry of its own, as rspec counts it in its summary
    # line ("1 error occurred outside of examples").
    def totals(summary)
      errors = summary.errors_outside_of_examples_count
      { tests: summary.example_count + errors, failed: summary.failure_count, errors: errors,
        skipped: summary.pending_count }
    end

    # A first Ctrl-C makes rspec stop after the current example and still report;
    # chain its handler to remember that the run was cut short.
    def watch_interrupt
      previous = trap("INT") do
        @interrupted = "SIGINT"
        previous.call if previous.respond_to?(:call)
      end
      trap("INT", previous || "DEFAULT") unless previous.respond_to?(:call)
    end

    # dump_summary runs from an ensure block when a signal (e.g. SIGTERM) unwinds rspec.
    def interrupted
      return $!.signm if $!.is_a?(SignalException)

      @interrupted
    end

    # The example a signal stopped: rspec counts it, without a status. Returns the warning.
    def end_unfinished
      return if @running.nil?

      emit(example_event(@running).merge(status: "error", message: UNFINISHED, duration_ms: nil, stopped: true))
      id = @running.id
      @running = nil
      "rspec example #{id} did not finish: the run was stopped while it ran"
    end

    # rspec's count of errors outside examples is never dropped: what its messages did not
    # account for becomes one error without a file.
    def end_unattributed(count)
      missing = count - @outside_errors
      return unless missing.positive?

      emit(event: "error", name: "errors outside of examples (unattributed)", id: "",
           message: "rspec reported #{count} error(s) outside of examples (its summary) " \
                    "but only #{@outside_errors} could be attributed from its messages")
    end

    def emit_example(example)
      @running = nil if @running.equal?(example)
      emit(example_event(example).merge(outcome(example)))
    end

    def example_event(example)
      { event: "test_end", id: example.id, name: utf8(example.full_description),
        file: example.metadata[:file_path], line: example.metadata[:line_number] }
    end

    def outcome(example)
      result = example.execution_result
      ms = result.run_time && (result.run_time * 1000).round(3)
      case result.status
      when :passed then { status: "passed", duration_ms: ms }
      when :pending then { status: "skipped", duration_ms: ms, message: result.pending_message && utf8(result.pending_message) }
      when :failed then failure(example).merge(duration_ms: ms)
      else { status: "error", duration_ms: ms, message: "unknown rspec status #{result.status.inspect}" }
      end
    end

    def failure(example)
      e = example.exception
      return { status: "error", message: "rspec reported a failure without an exception" } if e.nil?

      status = EXPECTATION_FAILURES.include?(e.class.name) ? "failed" : "error"
      stack = backtrace(e, example)
      { status: status, message: failure_message(e, status), stack: stack.join("\n"),
        location: location(stack, example.metadata[:file_path]) }
    end

    # An expectation failure's class adds nothing; an unexpected exception's class is the news.
    def failure_message(exception, status)
      text = utf8(exception.message)[0, MAX_MESSAGE_CHARS].strip
      name = exception.class.name || "unknown exception"
      return name if text.empty?

      status == "failed" ? text : "#{name}: #{text}"
    end

    # The first frame in the example's own file.
    def location(stack, file)
      return nil if file.nil?

      own = File.expand_path(file)
      stack.each do |frame|
        m = /\A(?:#\s*)?(.+?):(\d+)(?::in\b|\z)/.match(frame.strip)
        return { file: file, line: m[2].to_i } if m && File.expand_path(m[1]) == own
      end
      nil
    end

    # RSpec's own filtered backtrace keeps project frames; raw when it filters everything.
    def backtrace(exception, example)
      raw = exception.backtrace || []
      filtered = RSpec.configuration.backtrace_formatter.format_backtrace(raw, example.metadata)
      (filtered.empty? ? raw : filtered).first(MAX_FRAMES).map { |f| utf8(f) }
    end

    def emit(event)
      output.write("#{JSON.generate(event)}\n")
      output.flush
    rescue StandardError => e
      # A formatter must never break the run; the note says what was lost.
      output.write("#{JSON.generate(event: 'note', text: utf8("the run-tests formatter failed to write an event: #{e.class}: #{e.message}"))}\n")
      output.flush
    end

    def utf8(value)
      s = value.to_s.dup
      s.force_encoding(Encoding::UTF_8) if s.encoding == Encoding::BINARY
      s.encode(Encoding::UTF_8, invalid: :replace, undef: :replace).scrub
    end
  end
end
