# frozen_string_literal: true

# Streams one JSON line per finished example so that a run killed by a timeout
# keeps the examples that finished (rspec's JSON formatter writes only at the end).
# Read by src/runners/rspec/stream.ts; records mirror rspec's JSON formatter shapes.
#
#   {"type":"start","version":1,"example_count":N}
#   {"type":"started","id":...,"full_description":...,"file_path":...,"line_number":N}
#   {"type":"example","id":...,"full_description":...,"status":"passed|failed|pending",
#    "file_path":...,"line_number":N,"run_time":F,"pending_message":...,
#    "exception":{"class":...,"message":...,"backtrace":[...]}}   (exception only when failed)
#   {"type":"message","message":"..."}                            (load errors, run options)
#   {"type":"summary","duration":F,"example_count":N,"failure_count":N,
#    "pending_count":N,"errors_outside_of_examples_count":N,
#    "interrupted":null|"SIGINT"|"SIGTERM"...}                   (always the last line)
# rspec prints a summary even when a signal stops it, so `interrupted` and the
# started-but-unfinished examples are what tell a cut-off run from a finished one.
require "json"
require "rspec/core"
require "rspec/core/formatters/base_formatter"

module RunTests
  class StreamFormatter < RSpec::Core::Formatters::BaseFormatter
    VERSION = 1
    # Keeps lines short; the parser bounds messages further.
    MAX_MESSAGE_CHARS = 8192
    MAX_FRAMES = 50

    RSpec::Core::Formatters.register self,
                                     :start, :example_started, :example_passed, :example_failed, :example_pending,
                                     :message, :dump_summary

    def start(notification)
      watch_interrupt
      emit(type: "start", version: VERSION, example_count: notification.count)
    end

    def example_started(notification)
      example = notification.example
      emit(type: "started", id: example.id, full_description: utf8(example.full_description),
           file_path: example.metadata[:file_path], line_number: example.metadata[:line_number])
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
      emit(type: "message", message: utf8(notification.message))
    end

    def dump_summary(summary)
      emit(type: "summary",
           duration: summary.duration,
           example_count: summary.example_count,
           failure_count: summary.failure_count,
           pending_count: summary.pending_count,
           errors_outside_of_examples_count: summary.errors_outside_of_examples_count,
           interrupted: interrupted)
    end

    private

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

    def emit_example(example)
      result = example.execution_result
      record = {
        type: "example",
        id: example.id,
        full_description: utf8(example.full_description),
        status: result.status.to_s,
        file_path: example.metadata[:file_path],
        line_number: example.metadata[:line_number],
        run_time: result.run_time,
        pending_message: result.pending_message && utf8(result.pending_message),
      }
      record[:exception] = exception_record(example) if result.status == :failed && example.exception
      emit(record)
    end

    def exception_record(example)
      e = example.exception
      {
        class: e.class.name,
        message: utf8(e.message)[0, MAX_MESSAGE_CHARS],
        backtrace: backtrace(e, example),
      }
    end

    # RSpec's own filtered backtrace keeps project frames; raw when it filters everything.
    def backtrace(exception, example)
      raw = exception.backtrace || []
      filtered = RSpec.configuration.backtrace_formatter.format_backtrace(raw, example.metadata)
      (filtered.empty? ? raw : filtered).first(MAX_FRAMES).map { |f| utf8(f) }
    end

    def emit(record)
      output.write(JSON.generate(record) + "\n")
      output.flush
    rescue StandardError => e
      # A formatter must never break the run; the parser warns on this record.
      output.write(JSON.generate(type: "formatter_error", message: utf8("#{e.class}: #{e.message}")) + "\n")
      output.flush
    end

    def utf8(value)
      s = value.to_s.dup
      s.force_encoding(Encoding::UTF_8) if s.encoding == Encoding::BINARY
      s.encode(Encoding::UTF_8, invalid: :replace, undef: :replace).scrub
    end
  end
end
