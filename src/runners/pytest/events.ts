/** pytest's part in reading the events reporters/pytest/run_tests_pytest.py writes (the
 * one event format, read by src/parsers/events.ts). The plugin does what needs pytest's
 * own objects: it makes one test_end of a test's setup, call and teardown, decides
 * failed or error, places the failure in the test file, and says in run_end whether
 * pytest's exit status means every selected test ran. Ids are pytest's node ids, relative
 * to the directory pytest ran in, and are also the names, so the defaults fit; pytest's
 * own are a failure's stack (its traceback's frames) and the warning for a run that
 * stopped inside a test. */
import type { ParserFactory } from '../../parsers/stream.js';
import { defaultTest, eventsParser, type EventRules } from '../../parsers/events.js';
import { pythonStack } from '../../ecosystems/python.js';

export const pytestRules: EventRules = {
  // A failure carries the frames of its traceback in the project.
  test: (e, ctx) => {
    const result = defaultTest(e);
    return result.status === 'failed' || result.status === 'error' ? { ...result, ...pythonStack(e.stack, ctx.root) } : result;
  },
  stopped: ({ id, name, file }) => `pytest stopped while ${id ?? name ?? file ?? 'a test'} was running`,
};

export const createPytestParser: ParserFactory = eventsParser(pytestRules);
