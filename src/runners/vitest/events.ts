/** Reads the events of reporters/vitest/reporter.mjs (the one event format, see
 * jest-vitest-events.ts for what jest and vitest share). Names are vitest's own display:
 * suites and title joined by ` > `, as in its `FAIL  file > outer > inner > test` lines.
 * Stacks are vitest's source-mapped frames, so a TypeScript test points at its .ts line.
 * A suite whose hook failed is named by the suite; an error outside any file (vitest's
 * "Unhandled Errors") is tied to its first frame inside the project when there is one. */
import type { FailedTest, ParseContext, Parser } from '../../model/results.js';
import { boundMessage, relativeFile } from '../../parsers/fields.js';
import { eventsParser, type ErrorEvent } from '../../parsers/events.js';
import { fileError, fileRules, loadErrorName, stripAnsi } from '../../ecosystems/node/jest-vitest-events.js';
import { failureStack, stackFrames } from '../../ecosystems/node/stack.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

export const VITEST_NAME_SEPARATOR = ' > ';

function unhandled(e: ErrorEvent, ctx: ParseContext): FailedTest {
  const root = `${ctx.root.replace(/\/+$/, '')}/`;
  const frame = stackFrames(stripAnsi(e.stack ?? '')).find((f) => f.file.startsWith(root) && !f.file.includes('/node_modules/'));
  const name = e.name ?? 'unhandled error';
  return { id: e.id ?? name, name, file: frame ? relativeFile(frame.file, ctx.root) : null, line: frame?.line ?? null, status: 'error', message: boundMessage(e.message), ...failureStack(e.stack, ctx.root), outside: true };
}

export const createVitestParser: ParserFactory = eventsParser(fileRules('vitest', (e, ctx) =>
  (e.file === null ? unhandled(e, ctx) : fileError(e, ctx, e.name ?? loadErrorName(e.file)))));

export const parseVitest: Parser = (text, ctx) => parseText(createVitestParser, text, ctx);
