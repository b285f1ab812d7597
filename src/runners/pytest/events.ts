/** pytest's part in reading the events reporters/pytest/run_tests_pytest.py writes (the
 * one event format, read by src/parsers/events.ts). The plugin does what needs pytest's
 * own objects: it makes one test_end of a test's setup, call and teardown, decides
 * failed or error, places the failure in the test file, and says in run_end whether
 * pytest's exit status means every selected test ran. Ids are pytest's node ids, relative
 * to the directory pytest ran in, and are also the names, so the defaults fit; only the
 * warning for a run that stopped inside a test is pytest's own. */
import type { ParserFactory } from '../../parsers/stream.js';
import { eventsParser, type EventRules } from '../../parsers/events.js';

export const pytestRules: EventRules = {
  stopped: ({ id, name, file }) => `pytest stopped while ${id ?? name ?? file ?? 'a test'} was running`,
};

export const createPytestParser: ParserFactory = eventsParser(pytestRules);
