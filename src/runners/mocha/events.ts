/** mocha's part in reading the events reporters/mocha writes (the launcher and the
 * reporter; src/parsers/events.ts reads them). Ids are `<file>::<full title>`; errors
 * outside tests (load errors, failed hooks) are file-level (id = file), so a rerun runs
 * their whole file. A failure's line is the first stack frame in its test file, else
 * where the test (or hook) is defined. */
import type { FailedTest, ParseContext, Parser, TestResult } from '../../model/results.js';
import { str } from '../../parsers/fields.js';
import { defaultError, defaultTest, eventsParser, type ErrorEvent, type TestEnd } from '../../parsers/events.js';
import { lineInTestFile } from '../../ecosystems/node/mocha-node-shared.js';
import { failureStack } from '../../ecosystems/node/stack.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

export const mochaId = (file: string | null, fullTitle: string): string => `${file ?? ''}::${fullTitle}`;

function test(e: TestEnd, ctx: ParseContext): TestResult {
  const result = { ...defaultTest(e), id: mochaId(e.file, e.name) };
  if (result.status !== 'failed' && result.status !== 'error') return result;
  return { ...result, line: lineInTestFile(e.stack, str(e.raw['file']), ctx.root) ?? e.line, ...failureStack(e.stack, ctx.root) };
}

/** A hook's failure is an assertion's when its stack says so: the reporter writes the
 * message without the class, as for a test. */
function error(e: ErrorEvent, ctx: ParseContext): FailedTest {
  const entry = { ...defaultError(e), ...failureStack(e.stack, ctx.root) };
  const line = lineInTestFile(e.stack, str(e.raw['file']), ctx.root) ?? e.line;
  if (e.kind !== 'hook') return { ...entry, line };
  const name = e.name ?? 'hook';
  return { ...entry, id: e.file ?? mochaId(null, name), name, line, status: /^AssertionError\b/.test(e.stack ?? '') ? 'failed' : 'error' };
}

export const createMochaParser: ParserFactory = eventsParser({ test, error });

export const parseMochaJsonl: Parser = (text, ctx) => parseText(createMochaParser, text, ctx);
