'use strict';
/* run-tests' jest reporter: one JSON line per event, batched by ../shared/jsonl-writer.cjs
 * (on disk within ~100 ms, and at process exit), so a run that dies (process.exit in a
 * test, a crash, a timeout while a test hangs) leaves the evidence of every file that
 * started and every test that finished; what a kill can lose is said there. Parsed by
 * src/runners/jest/events.ts; the format is versioned by the `start` line. */
const { JsonlWriter } = require('../shared/jsonl-writer.cjs');

const VERSION = 1;

const error = (e) => (e ? { name: typeof e.name === 'string' ? e.name : null, message: String(e.message ?? ''), stack: typeof e.stack === 'string' ? trimStack(e.stack) : null } : null);

/** Drops the runner's own frames (node_modules, node internals): the parser needs only
 * the frames in the test file, and the report stays small. */
const trimStack = (text) => text.split('\n').filter((l) => !/^\s+at .*(?:\/node_modules\/|\(node:)/.test(l)).join('\n');

/** A test result without the parts that can be large or unserialisable; `type` is
 * undefined (left out) in a file record's list. Built whole, with no spread: jest runs a
 * small suite in band, so this runs in the tests' process, twice per test. */
const testRecord = (type, file, t) => ({
  type,
  file,
  ancestors: t.ancestorTitles,
  title: t.title,
  status: t.status,
  location: t.location ?? null,
  duration: typeof t.duration === 'number' ? t.duration : null,
  failure_messages: t.failureMessages && t.failureMessages.length > 0 ? t.failureMessages.map(trimStack) : [],
  // An expect() failure carries matcherResult; anything else is an unexpected error.
  assertion: (t.failureDetails ?? []).some((d) => d !== null && typeof d === 'object' && 'matcherResult' in d),
});

const SKIPPED = new Set(['pending', 'skipped', 'disabled', 'todo']);

class RunTestsJestReporter {
  constructor(globalConfig, options) {
    // Appended: a rerun may run jest twice into one report (run-tests deletes it before a run).
    this.out = new JsonlWriter(options.output, 'jest reporter');
    // As jest-circus matches it: the describe blocks and title joined by spaces, ignoring case.
    this.namePattern = globalConfig.testNamePattern ? new RegExp(globalConfig.testNamePattern, 'i') : null;
  }

  /** A test the name filter left out is not a result: jest reports it as skipped. */
  deselected(t) {
    return this.namePattern !== null && SKIPPED.has(t.status) && !this.namePattern.test([...t.ancestorTitles, t.title].join(' '));
  }

  /** How many tests of a file the name filter left out, for the `end` record. */
  countDeselected(results) {
    this.leftOut = (this.leftOut ?? 0) + results.filter((t) => this.deselected(t)).length;
  }

  write(record) {
    this.out.write(record);
  }

  onRunStart(results) {
    this.write({ type: 'start', version: VERSION, pid: process.pid, files: results.numTotalTestSuites });
  }

  onTestFileStart(test) {
    this.write({ type: 'file_start', file: test.path });
  }

  onTestCaseStart(test, info) {
    this.write({ type: 'test_start', file: test.path, ancestors: info.ancestorTitles, title: info.title });
  }

  onTestCaseResult(test, result) {
    if (this.deselected(result)) return;
    this.write(testRecord('test', test.path, result));
  }

  onTestFileResult(test, result) {
    this.write({
      type: 'file',
      file: test.path,
      exec_error: error(result.testExecError),
      failure_message: result.testExecError ? (result.failureMessage ?? null) : null,
      tests: result.testResults.filter((t) => !this.deselected(t)).map((t) => testRecord(undefined, test.path, t)),
    });
    this.countDeselected(result.testResults);
  }

  onRunComplete(_contexts, results) {
    this.write({
      type: 'end',
      success: results.success,
      suites: results.numTotalTestSuites,
      runtime_error_suites: results.numRuntimeErrorTestSuites,
      tests: results.numTotalTests,
      interrupted: results.wasInterrupted === true,
      deselected: this.leftOut ?? 0,
    });
    this.out.close();
  }

  getLastError() {
    return undefined;
  }
}

module.exports = RunTestsJestReporter;
