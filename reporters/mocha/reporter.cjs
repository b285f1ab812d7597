'use strict';
// The run-tests mocha reporter: one JSON line per finished test, hook failure, file
// and run boundary (see src/runners/mocha/events.ts for the reader). It also drives the
// reporter the project chose (spec by default), so the log reads as usual.
const writer = require('./report-writer.cjs');

const STATE = Symbol.for('run-tests.mocha');

const call = (object, method) => (object && typeof object[method] === 'function' ? object[method]() : null);
const titlePath = (runnable) => call(runnable, 'titlePath') ?? [runnable.title];
const fullTitle = (runnable) => call(runnable, 'fullTitle') ?? titlePath(runnable).join(' ');

class RunTestsReporter {
  constructor(runner, options) {
    const state = globalThis[STATE] ?? { file: null, test: null, ended: false, innerReporter: 'spec', definitions: new WeakMap() };
    this.inner = innerReporter(state, runner, options);
    const where = (runnable) => state.definitions?.get(runnable) ?? null;
    const base = (runnable) => ({
      title_path: titlePath(runnable),
      full_title: fullTitle(runnable),
      file: runnable.file ?? where(runnable)?.file ?? null,
      line: where(runnable)?.line ?? null,
      duration_ms: typeof runnable.duration === 'number' ? runnable.duration : null,
    });

    runner.on('start', () => writer.write({ type: 'start', total: typeof runner.total === 'number' ? runner.total : null }));
    runner.on('suite', (suite) => {
      if (suite.file && suite.file !== state.file) {
        state.file = suite.file;
        writer.write({ type: 'file', file: suite.file, phase: 'run' });
      }
    });
    runner.on('test', (test) => {
      state.test = fullTitle(test);
    });
    runner.on('pass', (test) => writer.write({ type: 'test', status: 'passed', ...base(test) }));
    runner.on('pending', (test) => writer.write({ type: 'test', status: 'skipped', skip: skipKind(test), ...base(test) }));
    runner.on('fail', (runnable, error) => {
      const described = writer.describeError(error);
      if (runnable.type === 'test') writer.write({ type: 'test', status: 'failed', ...base(runnable), error: described });
      else writer.write({ type: 'hook', ...base(runnable), suite_path: titlePath(runnable.parent ?? {}), error: described });
    });
    runner.once('end', () => {
      state.ended = true;
      const stats = runner.stats ?? {};
      writer.write({ type: 'end', tests: stats.tests ?? null, passes: stats.passes ?? null, failures: stats.failures ?? null, pending: stats.pending ?? null });
      writer.flush();
    });
  }

  done(failures, fn) {
    if (this.inner && typeof this.inner.done === 'function') this.inner.done(failures, fn);
    else fn(failures);
  }
}

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
