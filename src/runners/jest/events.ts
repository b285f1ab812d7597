/** Parses the JSON lines of reporters/jest/reporter.cjs (see jest-vitest-events.ts for
 * the record types). Names are jest's own display: describe blocks and title joined by
 * ` › `, as in its `● outer › inner › test` failure headers. */
import type { ParseContext, Parser, TestResult } from '../../model/results.js';
import { boundMessage, int, relativeFile, str } from '../../parsers/fields.js';
import { eventsParser, loadErrorName, objects, strings, stripAnsi, testId, type EventMapper, type Json } from '../../ecosystems/node/jest-vitest-events.js';
import { lineInFile, stackFrames } from '../../ecosystems/node/stack.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

export const JEST_NAME_SEPARATOR = ' › ';

const SKIPPED = new Set(['pending', 'skipped', 'disabled', 'todo']);

/** A failure message without its stack frames: jest puts the stack after the message. */
function withoutFrames(text: string): string {
  const lines = stripAnsi(text).split('\n');
  const kept = lines.filter((line) => stackFrames(line).length === 0 && !/^\s+at .*\(<anonymous>\)$/.test(line));
  return kept.join('\n').trim();
}

/** The describe blocks and the title, as jest shows them. */
function displayName(ancestors: unknown, title: string): string {
  let name = '';
  if (Array.isArray(ancestors)) for (const a of ancestors) if (typeof a === 'string') name += `${a}${JEST_NAME_SEPARATOR}`;
  return name + title;
}

/** Passing and skipped results are built whole, without spreads: there is one per test,
 * twice (its `test` record, then its file's), and most of them are read while this code
 * is still interpreted. */
function jestTest(r: Json, ctx: ParseContext): TestResult | string {
  const absFile = str(r['file']);
  const title = str(r['title']);
  const status = str(r['status']);
  if (absFile === null || title === null || status === null) return 'test record without file, title or status';
  const file = relativeFile(absFile, ctx.root);
  const name = displayName(r['ancestors'], title);
  const id = testId(file, name);
  const location = r['location'];
  const line = typeof location === 'object' && location !== null ? int((location as Json)['line']) : null;
  const durationMs = typeof r['duration'] === 'number' ? r['duration'] : null;
  const shown = status === 'passed' || status === 'focused' ? 'passed' : SKIPPED.has(status) ? 'skipped' : null;
  if (shown !== null) {
    return durationMs === null ? { id, name, file, line, status: shown } : { id, name, file, line, durationMs, status: shown };
  }
  if (status !== 'failed') return `test record with unknown status ${JSON.stringify(status)}`;
  const messages = strings(r['failure_messages']);
  const assertion = r['assertion'] === true;
  // An expect() failure's "Error: " prefix says nothing; an exception's class is the news.
  const text = messages.map(withoutFrames).map((m) => (assertion ? m.replace(/^Error: /, '') : m)).join('\n\n');
  return {
    id,
    name,
    file,
    line: lineInFile(stripAnsi(messages[0] ?? ''), absFile) ?? line,
    ...(durationMs === null ? {} : { durationMs }),
    status: assertion ? 'failed' : 'error',
    message: boundMessage(text === '' ? 'failed without a message' : text),
  };
}

/** The name of an `afterAll` that threw, as mocha names its `"after all" hook`; jest
 * does not say which describe block it belongs to. */
const afterAllName = (file: string): string => `"after all" hook in ${file}`;

/** A test file that failed to run (testExecError), or whose afterAll threw: an error
 * tied to the file. */
function execError(r: Json, ctx: ParseContext): TestResult | null {
  const error = typeof r['exec_error'] === 'object' && r['exec_error'] !== null ? (r['exec_error'] as Json) : null;
  const absFile = str(r['file']);
  if (error === null || absFile === null) return null;
  const file = relativeFile(absFile, ctx.root);
  const kind = str(error['name']);
  // Once a file loaded, jest-circus gives beforeAll and *Each errors to the tests, and
  // reports an afterAll that threw (or the rare error no test owns, which it does not tell
  // apart) as an exec error with an empty message and the error in its stack:
  // `Error: after broke\n    at …`. A file that failed to load has a message.
  const own = stripAnsi(str(error['message']) ?? '').trim();
  const message = own || withoutFrames(str(error['stack']) ?? '');
  return {
    id: file,
    name: own === '' ? afterAllName(file) : loadErrorName(file),
    file,
    line: lineInFile(str(error['stack']), absFile),
    status: 'error',
    message: boundMessage(kind !== null && kind !== '' && !message.startsWith(kind) ? `${kind}: ${message}` : message || 'Test suite failed to run'),
  };
}

const mapper: EventMapper = {
  runner: 'jest',
  test: jestTest,
  file(record, _streamed, ctx) {
    const tests: TestResult[] = [];
    for (const entry of objects(record['tests'])) {
      const test = jestTest({ ...entry, file: record['file'] }, ctx);
      if (typeof test !== 'string') tests.push(test);
    }
    const error = execError(record, ctx);
    return error === null ? tests : [...tests, error];
  },
  end: (record) => ({ tests: [], interrupted: record['interrupted'] === true, noFiles: record['suites'] === 0 }),
  startedName: (record) => {
    const title = str(record['title']);
    return title === null ? null : displayName(record['ancestors'], title);
  },
};

export const createJestParser: ParserFactory = eventsParser(mapper);

export const parseJest: Parser = (text, ctx) => parseText(createJestParser, text, ctx);
