'use strict';
/* Appends JSON lines to a report file in batches: a write every FLUSH_MS or so while
 * events keep coming, rather than one per event. A write costs ~20 µs, and when jest
 * runs a suite in band two of them per test are on the critical path (measured on a
 * 20-file, 500-test suite: batching saved ~90 ms of CPU and ~140 ms of wall time).
 * Used by the jest, vitest and mocha reporters; the minitest reporter batches the same
 * way (FLUSH_SECONDS in reporters/minitest/run_tests/minitest_reporter.rb).
 *
 * Pending lines reach the disk with the first line that comes FLUSH_MS after the last
 * write (the very first line at once), from an unref'd timer every FLUSH_MS (a test
 * that hangs on a promise, an idle runner), at process exit (process.exit in a test, a
 * normal end, an uncaught exception), and on close(). What can be lost: lines written
 * in the last FLUSH_MS, and only when the process then dies without an exit event
 * (SIGKILL, or a signal left to its default action, such as run-tests' SIGTERM at its
 * timeout), or the lines before a synchronous loop that kept the timer from running
 * until such a kill. Such a run is already incomplete (it has no `run_end` event), so the
 * parser never calls it a pass; its warning may name an earlier file or test as the
 * last one running. No signal handlers are installed: they would change how the
 * runner's process reacts to signals. */
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const timers = require('node:timers');

const FLUSH_MS = 100;

// Taken at load, before any test runs: a test that fakes timers or the clock, or stubs
// fs (jest in band and mocha run tests in the reporter's process), must not stop the writes.
const { closeSync, openSync, writeSync } = fs;
const { clearInterval, setInterval } = timers;
const now = performance.now.bind(performance);

class JsonlWriter {
  /** `name` says whose lines these are in the one error message: "jest reporter". */
  constructor(path, name) {
    this.name = name;
    this.pending = '';
    this.failed = false;
    this.exiting = false;
    // The first line (the run's start) is written at once.
    this.writtenAt = -Infinity;
    this.fd = openSync(path, 'a');
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
    this.onExit = () => {
      // Later exit listeners may still write (the mocha launcher's `exit` line): from
      // now on every line is written at once.
      this.exiting = true;
      this.flush();
    };
    process.on('exit', this.onExit);
  }

  write(record) {
    if (this.fd === null || this.failed) return;
    try {
      this.pending += `${JSON.stringify(record)}\n`;
    } catch (e) {
      this.flush(); // the lines before it are good
      this.fail(e);
      return;
    }
    if (this.exiting || now() - this.writtenAt >= FLUSH_MS) this.flush();
  }

  flush() {
    if (this.pending === '' || this.fd === null || this.failed) return;
    const text = Buffer.from(this.pending);
    this.pending = '';
    this.writtenAt = now();
    try {
      for (let offset = 0; offset < text.length; ) offset += writeSync(this.fd, text, offset);
    } catch (e) {
      this.fail(e);
    }
  }

  close() {
    if (this.fd === null) return;
    this.flush();
    clearInterval(this.timer);
    process.removeListener('exit', this.onExit);
    try {
      closeSync(this.fd);
    } catch (e) {
      this.fail(e);
    }
    this.fd = null;
  }

  /** Said once, never thrown into the runner. Later lines are dropped: a report with a
   * gap but a `run_end` event could pass for complete, one that stops short cannot. */
  fail(e) {
    if (this.failed) return;
    this.failed = true;
    process.stderr.write(`run-tests ${this.name}: cannot write: ${e && e.message}\n`);
  }
}

module.exports = { JsonlWriter, FLUSH_MS };
