/** rspec's part in reading the events reporters/rspec/run_tests_formatter.rb writes. The
 * formatter gives each example its id (`./spec/a_spec.rb[1:2]`), status and where it
 * failed; an error outside examples carries rspec's own text, read here as rspec's JSON
 * report is read (examples.ts), so both reports name a load error alike. */
import type { FailedTest, TestResult } from '../../model/results.js';
import { eventsParser, type ErrorEvent, type TestStart } from '../../parsers/events.js';
import { boundMessage } from '../../parsers/fields.js';
import type { ParserFactory } from '../../parsers/stream.js';
import { isOutsideErrorMessage, mapOutsideError, UNFINISHED_MESSAGE } from './examples.js';

/** rspec's wording names the file that failed to load; the formatter's own entry for
 * errors its messages did not account for has its name and no file. */
function outsideError(e: ErrorEvent, ctx: { readonly root: string }): FailedTest {
  if (isOutsideErrorMessage(e.message)) return mapOutsideError(e.message, ctx.root);
  return { id: e.id ?? e.file ?? '', name: e.name ?? 'error outside of examples', file: e.file, line: e.line, status: 'error', message: boundMessage(e.message), outside: true };
}

/** The example a run killed outright was in (a signal it handles ends it as the formatter
 * writes it): an error, so --failed-only runs it again. */
const unfinished = (e: TestStart): TestResult => ({ id: e.id ?? e.name, name: e.name, file: e.file, line: e.line, status: 'error', message: UNFINISHED_MESSAGE });

export const createRspecStreamParser: ParserFactory = eventsParser({ error: outsideError, unfinished });
