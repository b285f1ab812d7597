# frozen_string_literal: true

require_relative "jsonl"

module RunTestsMinitest
  # One JSON line per finished test. Lines are written at least every FLUSH_SECONDS
  # (a write per test costs more than the test itself in large suites) and at exit,
  # also on SIGTERM, so a run stopped by the timeout keeps what finished.
  class JsonlReporter < Minitest::StatisticsReporter
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
      # The JSON of a class name or file, which every test of that class or file repeats.
      @encoded = Hash.new { |cache, text| cache[text] = text.nil? ? "null" : json_string(text) }
      at_exit { flush }
    end

    def start
      super
      emit("type" => "start", "pid" => Process.pid)
    end

    def record(result)
      super
      failure = main_failure(result)
      failure.nil? ? emit_passed(result) : emit(failed_line(result, failure))
    end

    def report
      super
      emit("type" => "end", "pid" => Process.pid, "count" => count, "assertions" => assertions,
           "failures" => failures, "errors" => errors, "skips" => skips)
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

    # A passing test's line: failed_line's keys without the failure keys (the parser reads
    # them as null), appended from a template, as this runs once per test: tens of
    # thousands of times in a large suite. Strings still go through the JSON generator. On
    # 10,000 tests, record's own work went 67 -> 55 ms (medians of 10) against building a
    # Hash, generating it and appending the line: "%.6f" takes half the time of the
    # Float#to_s that JSON uses, and no line string is built to be copied.
    def emit_passed(result)
      file, line = definition(result)
      seconds = result.time.to_f
      time = seconds.finite? ? format("%.6f", seconds) : "null"
      line = line.nil? ? "null" : line.to_s
      appending do
        # In the lock, as the generator's state and the cache are shared by parallel tests' threads.
        klass = @encoded[class_name(result)]
        name = begin
          @json.generate(result.name.to_s)
        rescue JSON::GeneratorError, EncodingError # not valid UTF-8: scrubbed only then
          json_string(result.name)
        end
        where = @encoded[file]
        @pending << '{"type":"test","class":' << klass << ',"name":' << name << ',"status":"passed","time":' <<
          time << ',"file":' << where << ',"line":' << line << "}\n"
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

    # The line of a test that failed, errored or was skipped: `failure` says where and why.
    def failed_line(result, failure)
      file, line = definition(result)
      error = failure.respond_to?(:error) ? failure.error : failure
      ffile, fline = failure_frame(error, file)
      exception, message = describe(error)
      { "type" => "test", "class" => RunTestsMinitest.utf8(class_name(result)), "name" => RunTestsMinitest.utf8(result.name),
        "status" => status(result), "time" => result.time.to_f.round(6), "file" => file, "line" => line,
        "failure_file" => ffile, "failure_line" => fline, "exception" => exception,
        "message" => RunTestsMinitest.bounded(message) }
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

    # The first unfiltered backtrace frame inside the test's own definition file.
    def failure_frame(error, def_file)
      return [nil, nil] if def_file.nil?

      (error.backtrace || []).each do |frame|
        path, line = RunTestsMinitest.parse_frame(frame)
        next if path.nil?
        return [def_file, line] if path == def_file || @expanded[path] == def_file
      end
      [nil, nil]
    end
  end
end
