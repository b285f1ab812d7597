/** Reads the events reporters/unittest/run_tests_unittest.py writes. A test_end is one
 * test as unittest counts it, named by its dotted id; a failing subtest is in its test's
 * message. An error outside tests is named as the reporter names it (`load error:
 * tests.test_broken`, `setUpClass (tests.test_db.DbTest)`), its id the dotted name that
 * reruns it. */
import { boundMessage } from '../../parsers/fields.js';
import { eventsParser, type ErrorEvent } from '../../parsers/events.js';
import type { FailedTest, ParseContext } from '../../model/results.js';
import type { ParserFactory } from '../../parsers/stream.js';
import { pythonStack } from '../../ecosystems/python.js';

/** An error whose reporter gave no id or name (another writer of the format): named by
 * its file, as other runners' load errors are. Its stack is its traceback's frames in the
 * project: for a module whose import failed in a project module it imports, both. */
function error(e: ErrorEvent, ctx: ParseContext): FailedTest {
  const name = e.name ?? `${e.kind ?? 'load'} error: ${e.file ?? 'unknown module'}`;
  return { id: e.id ?? e.file ?? name, name, file: e.file, line: e.line, status: 'error', message: boundMessage(e.message), ...pythonStack(e.stack, ctx.root), outside: true };
}

export const createUnittestParser: ParserFactory = eventsParser({ error });
