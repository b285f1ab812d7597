'use strict';
// The run-tests mocha reporter: writes the event format (schema/events.schema.json) for
// each test and failed hook, and the run's end with mocha's own totals; the launcher
// writes run_start, load errors, and how the process ended when the run did not. The
// reader is src/runners/mocha/events.ts. It also drives the reporter the project chose
// (spec by default), so the log reads as usual.
const writer = require('./report-writer.cjs');
const { describeError, failure, failureMessage } = require('../shared/errors.cjs');

const STATE = Symbol.for('run-tests.mocha');
/** mocha reports a test whose done() is called again as a second failure of the test. */
const MULTIPLE_DONE = 'ERR_MOCHA_MULTIPLE_DONE';

const call = (object, method) => (object && typeof object[method] === 'function' ? object[method]() : null);
const titlePath = (runnable) => call(runnable, 'titlePath') ?? [runnable.title];
const fullTitle = (runnable) => call(runnable, 'fullTitle') ?? titlePath(runnable).join(' ');

class RunTestsReporter {
  constructor(runner, options) {
    const state = globalThis[STATE] ?? { file: null, test: null, ended: false, innerReporter: 'spec', definitions: new WeakMap() };
    this.inner = innerReporter(state, runner, options);
    const where = (runnable) => state.definitions?.get(runnable) ?? null;
    const base = (runnable) => ({
      name: fullTitle(runnable),
      path: titlePath(runnable),
      file: runnable.file ?? where(runnable)?.file ?? null,
      line: where(runnable)?.line ?? null,
    });
    const duration = (test) => (typeof test.duration === 'number' ? test.duration : null);
    // The status each test ended with, by file, title and line: a failure reported again
    // (done() called twice) is the same test, and mocha counts it as a failure once more.
    const ended = new Map();
    let repeatedFailures = 0;
    const end = (test, status, fields) => {
      const event = { event: 'test_end', ...base(test), status, duration_ms: duration(test), ...fields };
      const key = JSON.stringify([event.file, event.name, event.line]);
      const before = ended.get(key);
      if (fields.again && (before === 'failed' || before === 'error')) repeatedFailures += 1;
      else ended.set(key, status);
      writer.write(event);
    };

    runner.on('suite', (suite) => {
      if (suite.file) state.file = suite.file;
    });
    runner.on('test', (test) => {
      state.test = fullTitle(test);
      writer.write({ event: 'test_start', name: state.test, file: test.file ?? where(test)?.file ?? null });
    });
    runner.on('pass', (test) => end(test, 'passed', {}));
    runner.on('pending', (test) => end(test, 'skipped', { message: SKIP_MESSAGES[skipKind(test)] }));
    runner.on('fail', (runnable, error) => {
      const described = describeError(error);
      if (runnable.type !== 'test') {
        const { name, file, line } = base(runnable);
        writer.write({ event: 'error', kind: 'hook', name, file, line, message: failureMessage(described), stack: described.stack });
        return;
      }
      const { status, message } = failure(described);
      end(runnable, status, { message, stack: described.stack, ...(described.code === MULTIPLE_DONE ? { again: true } : {}) });
    });
    runner.once('end', () => {
      state.ended = true;
      const stats = runner.stats ?? {};
      const count = (n) => (typeof n === 'number' ? n : null);
      const failed = count(stats.failures) === null ? null : Math.max(0, stats.failures - repeatedFailures);
      // No count of tests: mocha counts a failed hook as a failure but not as a test, and a
      // test whose done() came again once as passing and again as failing.
      const totals = { passed: count(stats.passes), failed, skipped: count(stats.pending) };
      writer.write({ event: 'run_end', pid: process.pid, totals });
      writer.flush();
    });
  }

  done(failures, fn) {
    if (this.inner && typeof this.inner.done === 'function') this.inner.done(failures, fn);
    else fn(failures);
  }
}

const SKIP_MESSAGES = {
  'no-function': 'pending (it.skip, xit or no test function)',
  suite: 'skipped with its describe block',
  runtime: 'skipped at run time (this.skip())',
};

/** it.skip, xit and tests without a function have no function; describe.skip skips a
 * whole suite; this.skip() skips at run time. */
function skipKind(test) {
  if (typeof test.fn !== 'function') return 'no-function';
  if (test.parent && typeof test.parent.isPending === 'function' && test.parent.isPending()) return 'suite';
  return 'runtime';
}

/** The reporter the project asked for, resolved the way mocha resolves it. */
function innerReporter(state, runner, options) {
  const Mocha = state.Mocha;
  if (!Mocha) return null;
  const holder = { options: {} };
  Mocha.prototype.reporter.call(holder, state.innerReporter, options.reporterOption);
  return new holder._reporter(runner, options);
}

module.exports = RunTestsReporter;
