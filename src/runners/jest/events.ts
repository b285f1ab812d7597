/** Reads the events of reporters/jest/reporter.cjs (the one event format, see
 * jest-vitest-events.ts for what jest and vitest share). Names are jest's own display:
 * describe blocks and title joined by ` › `, as in its `● outer › inner › test` failure
 * headers. A file that failed to run is `load error: <file>`; an afterAll that threw
 * (jest does not say which describe block it belongs to) is named as mocha names its
 * `"after all" hook`. */
import type { Parser } from '../../model/results.js';
import { eventsParser } from '../../parsers/events.js';
import { fileError, fileRules, loadErrorName } from '../../ecosystems/node/jest-vitest-events.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

export const JEST_NAME_SEPARATOR = ' › ';

const afterAllName = (file: string): string => `"after all" hook in ${file}`;

export const createJestParser: ParserFactory = eventsParser(fileRules('jest', (e, ctx) => {
  const file = e.file ?? '(unknown file)';
  return fileError(e, ctx, e.kind === 'hook' ? afterAllName(file) : loadErrorName(file));
}));

export const parseJest: Parser = (text, ctx) => parseText(createJestParser, text, ctx);
