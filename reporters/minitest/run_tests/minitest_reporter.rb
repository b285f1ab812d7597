# frozen_string_literal: true

require_relative "jsonl"

module RunTestsMinitest
  # Writes run-tests' event format (schema/events.schema.json): run_start, one test_end
  # per finished test, run_end with minitest's own totals. Rails' `bin/rails test` runs
  # minitest and this reporter too. Lines are written at least every FLUSH_SECONDS (a
  # write per test costs more than the test itself in large suites) and at exit, also
  # on SIGTERM, so a run stopped by the timeout keeps what finished.
  class EventReporter < Minitest::StatisticsReporter
    FLUSH_SECONDS = 0.1

    def initialize(path, options = {})
      super($stdout, options)
      @io = File.open(path, "a")
      @io.sync = true
      @write_lock = Mutex.new
      @pending = +""
      # One generator state for every line, rather than one per JSON.generate call.
      @json = JSON::State.new
      @flushed_at = now
      @expanded = Hash.new { |cache, file| cache[file] = File.expand_path(file) }
      # The JSON of a file, which every test of that file repeats.
      @encoded = Hash.new { |cache, text| cache[text] = text.nil? ? "null" : json_string(text) }
      at_exit { flush }
    end

    def start
      super
      emit("event" => "run_start", "schema" => SCHEMA, "runner" => "minitest",
           "runner_version" => Minitest::VERSION, "pid" => Process.pid)
    end

    def record(result)
      super
      failure = main_failure(result)
      failure.nil? ? emit_passed(result) : emit(failed_event(result, failure))
    end

    def report
      super
      emit("event" => "run_end", "pid" => Process.pid,
           "totals" => { "tests" => count, "failed" => failures, "errors" => errors, "skipped" => skips })
      flush
      RunTestsMinitest.ended_pid = Process.pid
    end

    # Never change the run's outcome: the runner's own reporters decide it.
    def passed?
      true
    end

    private

    def emit(hash)
      appending { @pending << @json.generate(hash) << "\n" }
    end

    # A passing test's event: failed_event's keys without the failure ones, appended from
    # a template, as this runs once per test: tens of thousands of times in a large suite.
    # Strings still go through the JSON generator. On 10,000 tests, record's own work went
    # 67 -> 55 ms (medians of 10) against building a Hash, generating it and appending the
    # line: "%.3f" takes half the time of the Float#to_s that JSON uses, and no line string
    # is built to be copied. The name is minitest's id (`Class#test_x`): no id is written.
    def emit_passed(result)
      file, line = definition(result)
      seconds = result.time.to_f
      ms = seconds.finite? ? format("%.3f", seconds * 1000) : "null"
      line = line.nil? ? "null" : line.to_s
      appending do
        # In the lock, as the generator's state and the cache are shared by parallel tests' threads.
        name = begin
          @json.generate("#{class_name(result)}##{result.name}")
        rescue JSON::GeneratorError, EncodingError # not valid UTF-8: scrubbed only then
          json_string(test_name(result))
        end
        where = @encoded[file]
        @pending << '{"event":"test_end","name":' << name << ',"file":' << where << ',"line":' << line <<
          ',"status":"passed","duration_ms":' << ms << "}\n"
      end
    end

    # A string's JSON; one the generator refuses (invalid UTF-8) is scrubbed first. A
    # passing test's name calls the generator itself: a method call per test costs ~3%.
    def json_string(text)
      @json.generate(text)
    rescue JSON::GeneratorError, EncodingError
      @json.generate(RunTestsMinitest.utf8(text))
    end

    def appending
      @write_lock.synchronize do
        yield
        write_pending if now - @flushed_at >= FLUSH_SECONDS
      end
    end

    def flush
      @write_lock.synchronize { write_pending }
    rescue ThreadError
      write_pending # at exit, from inside the lock's owner (a signal during emit)
    end

    def write_pending
      @io.write(@pending) unless @pending.empty?
      @pending.clear
      @flushed_at = now
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    # The event of a test that failed, errored or was skipped: `failure` says where and why.
    def failed_event(result, failure)
      file, line = definition(result)
      error = failure.respond_to?(:error) ? failure.error : failure
      status = status(result)
      seconds = result.time.to_f
      { "event" => "test_end", "name" => test_name(result), "file" => file, "line" => line, "status" => status,
        "duration_ms" => seconds.finite? ? (seconds * 1000).round(3) : nil,
        "message" => RunTestsMinitest.bounded(failure_message(status, *describe(error))),
        "location" => status == "skipped" ? nil : failure_location(error, file) }
    end

    # An assertion's class adds nothing; an unexpected exception's class is the news. A
    # skip's message is the reason given.
    def failure_message(status, exception, message)
      text = message.empty? ? nil : RunTestsMinitest.utf8(message)
      return text if status == "skipped" || (status == "failed" && text)

      exception && text ? "#{exception}: #{text}" : exception || text
    end

    def test_name(result)
      "#{RunTestsMinitest.utf8(class_name(result))}##{RunTestsMinitest.utf8(result.name)}"
    end

    def class_name(result)
      (result.respond_to?(:klass) ? result.klass : result.class.name).to_s
    end

    # Of a test with a failure: a passing test's line never asks (see emit_passed).
    def status(result)
      return "error" if result.error?
      return "skipped" if result.skipped?

      "failed"
    end

    def main_failure(result)
      fs = result.failures
      fs.find { |f| f.respond_to?(:error) } || fs.first
    end

    def definition(result)
      loc = result.respond_to?(:source_location) ? result.source_location : nil
      return [nil, nil] unless loc.is_a?(Array) && loc[0] && loc[0] != "unknown"

      [@expanded[loc[0]], loc[1].to_i.positive? ? loc[1].to_i : nil]
    end

    NEUTERED = /\ANeutered Exception ([\w:]+): /.freeze

    # [class name, message] of the original error, also when Minitest or Rails had
    # to replace it to send it across processes (parallel workers).
    def describe(error)
      message = error.message.to_s
      return [error.reason.to_s, message] if error.class.name == "DRb::DRbRemoteError" && error.respond_to?(:reason)
      return [Regexp.last_match(1), Regexp.last_match.post_match] if error.instance_of?(RuntimeError) && NEUTERED =~ message

      [error.class.name, message]
    end

    # Where it failed: the first backtrace frame inside the test's own definition file.
    def failure_location(error, def_file)
      return nil if def_file.nil?

      (error.backtrace || []).each do |frame|
        path, line = RunTestsMinitest.parse_frame(frame)
        next if path.nil?
        return { "file" => def_file, "line" => line } if path == def_file || @expanded[path] == def_file
      end
      nil
    end
  end
end
