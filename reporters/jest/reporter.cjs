'use strict';
/* run-tests' jest reporter: writes the one event format (schema/events.schema.json), one
 * JSON line per event, batched by ../shared/jsonl-writer.cjs (on disk within ~100 ms, and
 * at process exit), so a run that dies (process.exit in a test, a crash, a timeout while
 * a test hangs) leaves the evidence of every file that started and every test that
 * finished; what a kill can lose is said there. Read by src/runners/jest/events.ts.
 *
 * A test's test_end is written when it finishes; the tests jest reports only with their
 * file's result (test.skip, every test of a runner without test events) are written
 * then, before the file's errors and its file_end. */
const { JsonlWriter } = require('../shared/jsonl-writer.cjs');
const { codeFrame, failureText, messageUtil, stripAnsi, trimStack, withoutFrames } = require('./text.cjs');

const NAME_SEPARATOR = ' › ';
const SKIPPED = new Set(['pending', 'skipped', 'disabled', 'todo']);

/** jest's own display of a test: its describe blocks and title, as in `● a › b › test`. */
const displayName = (t) => (t.ancestorTitles.length === 0 ? t.title : `${t.ancestorTitles.join(NAME_SEPARATOR)}${NAME_SEPARATOR}${t.title}`);

/** An expect() failure carries matcherResult; anything else is an unexpected error. */
const isAssertion = (t) => (t.failureDetails ?? []).some((d) => d !== null && typeof d === 'object' && 'matcherResult' in d);

function status(t) {
  if (t.status === 'passed' || t.status === 'focused') return 'passed';
  if (SKIPPED.has(t.status)) return 'skipped';
  // An unknown status is written as is: the reader warns and ignores the line.
  if (t.status !== 'failed') return t.status;
  return isAssertion(t) ? 'failed' : 'error';
}

/** Built whole, with no spread: jest runs a small suite in band, so this runs in the
 * tests' process, once per test. Where a failure happened is read from its stack (the
 * launcher leaves testLocationInResults off: `line` is null unless the project sets it). */
function testEnd(file, name, t, frame) {
  const failed = t.status === 'failed';
  const messages = failed && t.failureMessages ? t.failureMessages : [];
  const text = failed ? failureText(messages, isAssertion(t)) : null;
  // The message as jest shows it: the assertion and its diff, then the code frame.
  const shown = frame === null || messages.length === 0 ? text : [text, frame(messages[0])].filter((part) => part !== null).join('\n\n') || null;
  return {
    event: 'test_end',
    name,
    file,
    line: t.location ? t.location.line : null,
    status: status(t),
    duration_ms: typeof t.duration === 'number' ? t.duration : null,
    message: shown,
    stack: messages.length > 0 ? trimStack(messages[0]) : null,
  };
}

/** A file that failed to run (testExecError). Once a file loaded, jest-circus gives
 * beforeAll and *Each errors to the tests, and reports an afterAll that threw (or the rare
 * error no test owns, which it does not tell apart) as an exec error with an empty
 * message and the error in its stack: `Error: after broke\n    at …`. */
function execError(file, e) {
  const stack = typeof e.stack === 'string' ? trimStack(e.stack) : null;
  const own = stripAnsi(String(e.message ?? '')).trim();
  const message = own || withoutFrames(stripAnsi(stack ?? ''));
  const kind = typeof e.name === 'string' ? e.name : '';
  const text = kind !== '' && !message.startsWith(kind) ? `${kind}: ${message}` : message || 'Test suite failed to run';
  return { event: 'error', kind: own === '' ? 'hook' : 'load', file, message: text, stack };
}

class RunTestsJestReporter {
  constructor(globalConfig, options) {
    // Appended: a rerun may run jest twice into one report (run-tests deletes it before a run).
    this.out = new JsonlWriter(options.output, 'jest reporter');
    this.version = options.version ?? null;
    // As jest-circus matches it: the describe blocks and title joined by spaces, ignoring case.
    this.namePattern = globalConfig.testNamePattern ? new RegExp(globalConfig.testNamePattern, 'i') : null;
    /** Per running file, the names of the tests written so far (a name may repeat). */
    this.written = new Map();
    this.leftOut = 0;
    const util = messageUtil(globalConfig.rootDir);
    this.frame = (testPath) => (util === null ? null : (message) => codeFrame(util, globalConfig, message, testPath));
  }

  /** A test the name filter left out is not a result: jest reports it as skipped. */
  deselected(t) {
    return this.namePattern !== null && SKIPPED.has(t.status) && !this.namePattern.test([...t.ancestorTitles, t.title].join(' '));
  }

  onRunStart(results) {
    this.out.write({ event: 'run_start', schema: 1, runner: 'jest', runner_version: this.version, pid: process.pid, files: results.numTotalTestSuites });
  }

  onTestFileStart(test) {
    this.written.set(test.path, new Map());
    this.out.write({ event: 'file_start', file: test.path });
  }

  onTestCaseStart(test, info) {
    this.out.write({ event: 'test_start', name: displayName(info), file: test.path });
  }

  onTestCaseResult(test, result) {
    if (this.deselected(result)) return;
    const name = displayName(result);
    const written = this.written.get(test.path);
    if (written) written.set(name, (written.get(name) ?? 0) + 1);
    this.out.write(testEnd(test.path, name, result, this.frame(test.path)));
  }

  /** The file's tests not written yet, its error, and its end. */
  onTestFileResult(test, result) {
    const written = this.written.get(test.path) ?? new Map();
    this.written.delete(test.path);
    for (const t of result.testResults) {
      if (this.deselected(t)) {
        this.leftOut += 1;
        continue;
      }
      const name = displayName(t);
      const count = written.get(name) ?? 0;
      if (count > 0) written.set(name, count - 1);
      else this.out.write(testEnd(test.path, name, t, this.frame(test.path)));
    }
    if (result.testExecError) this.out.write(execError(test.path, result.testExecError));
    this.out.write({ event: 'file_end', file: test.path });
  }

  /** jest's own totals, without the tests -t left out (it counts them as skipped); each
   * file that failed to run is one error entry. */
  onRunComplete(_contexts, results) {
    const fileErrors = results.numRuntimeErrorTestSuites;
    this.out.write({
      event: 'run_end',
      pid: process.pid,
      totals: {
        tests: results.numTotalTests - this.leftOut + fileErrors,
        passed: results.numPassedTests,
        failed: results.numFailedTests,
        errors: fileErrors,
        skipped: results.numPendingTests + results.numTodoTests - this.leftOut,
        deselected: this.leftOut,
      },
      interrupted: results.wasInterrupted === true,
    });
    this.out.close();
  }

  getLastError() {
    return undefined;
  }
}

module.exports = RunTestsJestReporter;
