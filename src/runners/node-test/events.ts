/** node:test's part in reading the events reporters/node-test/reporter.mjs writes
 * (src/parsers/events.ts reads them). The reporter does what needs node's whole tree
 * of tests: which results count (leaves, and parents or describe blocks that failed on
 * their own), their ids (id.ts) and messages. Here: where a failure happened, the first
 * stack frame in its test file, else where the test is defined; and a whole file's
 * failure (it failed to load, or its process exited early) named by its file. */
import type { FailedTest, ParseContext, Parser, TestResult } from '../../model/results.js';
import { str } from '../../parsers/fields.js';
import { defaultError, defaultTest, eventsParser, type ErrorEvent, type TestEnd } from '../../parsers/events.js';
import { lineInTestFile } from '../../ecosystems/node/mocha-node-shared.js';
import { failureStack } from '../../ecosystems/node/stack.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

function test(e: TestEnd, ctx: ParseContext): TestResult {
  const result = defaultTest(e);
  if (result.status !== 'failed' && result.status !== 'error') return result;
  return { ...result, line: lineInTestFile(e.stack, str(e.raw['file']), ctx.root) ?? e.line, ...failureStack(e.stack, ctx.root) };
}

function error(e: ErrorEvent, ctx: ParseContext): FailedTest {
  return { ...defaultError(e), name: e.file ?? e.name ?? 'error', line: lineInTestFile(e.stack, str(e.raw['file']), ctx.root), ...failureStack(e.stack, ctx.root) };
}

export const createNodeTestParser: ParserFactory = eventsParser({ test, error, liveStarts: false });

export const parseNodeTestJsonl: Parser = (text, ctx) => parseText(createNodeTestParser, text, ctx);
