/** minitest's part in reading the events reporters/minitest writes (the run-tests plugin
 * and its boot file; `bin/rails test` runs them too). A test's name is minitest's id,
 * `Class#test_x`: two tests may share it (minitest/spec's same-named describe blocks)
 * and each is kept. Every process that started reporting must end (rake may start
 * several); test-unit running instead is an `unusable` event. */
import type { FailedTest } from '../../model/results.js';
import { eventsParser, type ErrorEvent } from '../../parsers/events.js';
import { boundMessage } from '../../parsers/fields.js';
import type { ParserFactory } from '../../parsers/stream.js';

/** A process that died before Minitest reported (a test file raising at load) is a load
 * error of that file. One that died outside the project's files (bundler failing to
 * resolve the Gemfile) is no test's failure: a warning, and the run is incomplete. */
function crash(e: ErrorEvent): FailedTest | string {
  if (e.file === null) return `a Ruby process ended on an exception outside the tests: ${e.message.trimEnd()}`;
  return { id: e.file, name: `load error: ${e.file}`, file: e.file, line: e.line, status: 'error', message: boundMessage(e.message), outside: true };
}

export const createMinitestParser: ParserFactory = eventsParser({ error: crash });
