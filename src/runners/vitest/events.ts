/** Parses the JSON lines of reporters/vitest/reporter.mjs (see jest-vitest-events.ts for
 * the record types). Names are vitest's own display: suites and title joined by ` > `,
 * as in its `FAIL  file > outer > inner > test` lines. Lines come from vitest's
 * source-mapped stack frames, so a TypeScript test points at its .ts line. */
import type { FailedTest, ParseContext, Parser, TestResult } from '../../model/results.js';
import { boundMessage, int, relativeFile, str } from '../../parsers/fields.js';
import { eventsParser, loadErrorName, objects, strings, stripAnsi, testId, type EventMapper, type Json } from '../../ecosystems/node/jest-vitest-events.js';
import { parseText, type ParserFactory } from '../../parsers/stream.js';

export const VITEST_NAME_SEPARATOR = ' > ';

const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** The first frame in `absFile`: vitest already parsed and source-mapped them. */
function lineIn(errors: readonly Json[], absFile: string): number | null {
  for (const error of errors) {
    const frame = objects(error['frames']).find((f) => f['file'] === absFile);
    if (frame) return int(frame['line']);
  }
  return null;
}

const isAssertion = (error: Json | undefined): boolean => error?.['name'] === 'AssertionError';

/** Assertions show their message; any other error its class too. */
function errorText(errors: readonly Json[]): string {
  const text = errors.map((e) => {
    const message = stripAnsi(str(e['message']) ?? '').trim();
    const kind = str(e['name']);
    return isAssertion(e) || kind === null || kind === '' ? message : `${kind}: ${message}`;
  }).join('\n\n');
  return boundMessage(text === '' ? 'failed without a message' : text);
}

function vitestTest(r: Json, ctx: ParseContext): TestResult | string {
  const absFile = str(r['file']);
  const titles = strings(r['titles']);
  const state = str(r['state']);
  if (absFile === null || titles.length === 0 || state === null) return 'test record without file, titles or state';
  const file = relativeFile(absFile, ctx.root);
  const name = titles.join(VITEST_NAME_SEPARATOR);
  const duration = typeof r['duration'] === 'number' ? { durationMs: r['duration'] } : {};
  const base = { id: testId(file, name), name, file, line: int(obj(r['location'])['line']), ...duration };
  if (state === 'passed') return { ...base, status: 'passed' };
  if (state === 'skipped' || state === 'pending') return { ...base, status: 'skipped' };
  if (state !== 'failed') return `test record with unknown state ${JSON.stringify(state)}`;
  const errors = objects(r['errors']);
  return { ...base, line: lineIn(errors, absFile) ?? base.line, status: isAssertion(errors[0]) ? 'failed' : 'error', message: errorText(errors) };
}

/** Errors of a file that failed to load, and of suites whose hooks failed. */
function fileErrors(r: Json, ctx: ParseContext): FailedTest[] {
  const absFile = str(r['file']);
  if (absFile === null) return [];
  const file = relativeFile(absFile, ctx.root);
  const results: FailedTest[] = [];
  const errors = objects(r['errors']);
  if (errors.length > 0) {
    results.push({ id: file, name: loadErrorName(file), file, line: lineIn(errors, absFile), status: 'error', message: errorText(errors) });
  }
  for (const suite of objects(r['suite_errors'])) {
    const name = strings(suite['titles']).join(VITEST_NAME_SEPARATOR);
    const suiteErrors = objects(suite['errors']);
    const line = lineIn(suiteErrors, absFile) ?? int(obj(suite['location'])['line']);
    // Its id is its file's, as a load error's: a rerun runs the file, where the hook runs
    // again, and any test of that file that runs settles it (-t cannot select a suite).
    results.push({ id: file, name, file, line, status: 'error', message: errorText(suiteErrors) });
  }
  return results;
}

/** An error outside any test (vitest's "Unhandled Errors"), tied to the first frame
 * inside the project when there is one. */
function unhandled(error: Json, ctx: ParseContext): FailedTest {
  const root = `${ctx.root.replace(/\/+$/, '')}/`;
  const frame = objects(error['frames']).find((f) => {
    const file = str(f['file']);
    return file !== null && file.startsWith(root) && !file.includes('/node_modules/');
  });
  const file = frame ? relativeFile(str(frame['file']) ?? '', ctx.root) : null;
  return { id: 'unhandled error', name: 'unhandled error', file, line: frame ? int(frame['line']) : null, status: 'error', message: errorText([error]) };
}

const mapper: EventMapper = {
  runner: 'vitest',
  test: vitestTest,
  file: (record, streamed, ctx) => [...streamed, ...fileErrors(record, ctx)],
  end: (record, ctx) => ({
    tests: objects(record['unhandled_errors']).map((e) => unhandled(e, ctx)),
    interrupted: record['reason'] === 'interrupted',
    noFiles: record['files'] === 0,
  }),
  startedName: (record) => {
    const titles = strings(record['titles']);
    return titles.length === 0 ? null : titles.join(VITEST_NAME_SEPARATOR);
  },
};

export const createVitestParser: ParserFactory = eventsParser(mapper);

export const parseVitest: Parser = (text, ctx) => parseText(createVitestParser, text, ctx);
