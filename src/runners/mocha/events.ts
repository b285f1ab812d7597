/** Parses the JSON lines written by reporters/mocha (the launcher and the reporter): one
 * line per finished test and failed hook, plus `launch`, `file`, `start`, `end`,
 * `load-error` and `exit` lines. Ids are `<file>::<full title>`; errors outside tests
 * (load errors, hooks) are file-level (id = file), so a rerun runs their whole file. */
import type { ParseContext, Parser, TestResult } from '../../model/results.js';
import { boundMessage, int, relativeFile, str } from '../../parsers/fields.js';
import { errorFields, failureMessage, isAssertion, jsonLine, lineInTestFile, type Json } from '../../ecosystems/node/mocha-node-shared.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

interface Accumulator {
  readonly tests: TestResult[];
  readonly warnings: string[];
  launches: number;
  ends: number;
  lastFile: string | null;
  exit: Json | null;
  loadError: boolean;
  /** Where each test of the current mocha process is in `tests`, by id and definition line. */
  readonly seen: Map<string, number>;
}

export const mochaId = (file: string | null, fullTitle: string): string => `${file ?? ''}::${fullTitle}`;

export const createMochaParser: ParserFactory = (ctx) => {
  const acc: Accumulator = { tests: [], warnings: [], launches: 0, ends: 0, lastFile: null, exit: null, loadError: false, seen: new Map() };
  return lineParser({
    line(raw, lineNo, cutOff) {
      const record = jsonLine(raw, lineNo, cutOff, acc.warnings);
      if (record !== null) handle(record, lineNo, ctx, acc);
    },
    end: () => ({ tests: acc.tests, complete: isComplete(acc), warnings: [...acc.warnings, ...endWarnings(acc, ctx)] }),
    finished: () => acc.tests.length,
  });
};

export const parseMochaJsonl: Parser = (text, ctx) => parseText(createMochaParser, text, ctx);

/** Every mocha process that started (a rerun may run two) reached its end. */
const isComplete = (acc: Accumulator): boolean => acc.launches > 0 && acc.ends === acc.launches && !acc.loadError;

function handle(record: Json, lineNo: number, ctx: ParseContext, acc: Accumulator): void {
  switch (record['type']) {
    case 'launch':
      acc.launches += 1;
      acc.exit = null;
      acc.seen.clear();
      return;
    case 'file':
      acc.lastFile = str(record['file']) ?? acc.lastFile;
      return;
    case 'start':
      return;
    case 'end':
      acc.ends += 1;
      return;
    case 'exit':
      acc.exit = record;
      return;
    case 'test': {
      const test = testResult(record, ctx);
      if (typeof test === 'string') acc.warnings.push(`line ${lineNo}: ${test}, ignored`);
      else addTest(acc, test, record);
      return;
    }
    case 'hook':
      acc.tests.push(hookResult(record, ctx));
      return;
    case 'load-error':
      acc.loadError = true;
      acc.tests.push(loadErrorResult(record, ctx));
      return;
    default:
      acc.warnings.push(`line ${lineNo}: unknown record type ${JSON.stringify(record['type'])}, ignored`);
  }
}

/** mocha reports a test whose done() was called again a second time, as a failure
 * with this code, after its pass or failure: one test, not two. */
const MULTIPLE_DONE = 'ERR_MOCHA_MULTIPLE_DONE';

function addTest(acc: Accumulator, test: TestResult, record: Json): void {
  const key = `${test.id}\0${String(record['line'])}`;
  const earlier = acc.seen.get(key);
  const again = earlier !== undefined && test.status !== 'passed' && test.status !== 'skipped' && errorFields(record['error'])?.code === MULTIPLE_DONE;
  if (!again) {
    acc.seen.set(key, acc.tests.length);
    acc.tests.push(test);
    return;
  }
  const first = acc.tests[earlier];
  // A failure keeps its own status and line, and both messages; a pass becomes the failure.
  acc.tests[earlier] = first?.status === 'failed' || first?.status === 'error' ? { ...first, message: boundMessage(`${first.message}\n\n${test.message}`) } : test;
}

const SKIP_MESSAGES: Readonly<Record<string, string>> = {
  'no-function': 'pending (it.skip, xit or no test function)',
  suite: 'skipped with its describe block',
  runtime: 'skipped at run time (this.skip())',
};

function testResult(r: Json, ctx: ParseContext): TestResult | string {
  const fullTitle = str(r['full_title']);
  const status = str(r['status']);
  if (fullTitle === null) return 'test line without a full title';
  const absFile = str(r['file']);
  const file = absFile === null ? null : relativeFile(absFile, ctx.root);
  const duration = typeof r['duration_ms'] === 'number' ? { durationMs: r['duration_ms'] } : {};
  const base = { id: mochaId(file, fullTitle), name: fullTitle, file, line: int(r['line']), ...duration };
  switch (status) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'skipped':
      return { ...base, status: 'skipped', message: SKIP_MESSAGES[str(r['skip']) ?? ''] ?? 'pending' };
    case 'failed': {
      const error = errorFields(r['error']);
      return {
        ...base,
        line: lineInTestFile(error?.stack ?? null, absFile, ctx.root) ?? base.line,
        status: isAssertion(error) ? 'failed' : 'error',
        message: failureMessage(error),
      };
    }
    default:
      return `test line with unknown status ${JSON.stringify(r['status'])}`;
  }
}

/** A failed hook (or an error mocha could not tie to a test): the tests it stopped did
 * not run, so its whole file is what a rerun must run again. */
function hookResult(r: Json, ctx: ParseContext): TestResult {
  const absFile = str(r['file']);
  const file = absFile === null ? null : relativeFile(absFile, ctx.root);
  const name = str(r['full_title']) ?? str(r['title']) ?? 'hook';
  const error = errorFields(r['error']);
  return {
    id: file ?? mochaId(null, name),
    name,
    file,
    line: lineInTestFile(error?.stack ?? null, absFile, ctx.root) ?? int(r['line']),
    status: isAssertion(error) ? 'failed' : 'error',
    message: failureMessage(error),
  };
}

function loadErrorResult(r: Json, ctx: ParseContext): TestResult {
  const absFile = str(r['file']);
  const file = absFile === null ? null : relativeFile(absFile, ctx.root);
  const error = errorFields(r['error']);
  return {
    id: file ?? 'load error',
    name: file === null ? 'load error' : `load error: ${file}`,
    file,
    line: lineInTestFile(error?.stack ?? null, absFile, ctx.root),
    status: 'error',
    message: failureMessage(error),
  };
}

/** Why the report has no end, naming the test file (and test) it stopped in. */
function endWarnings(acc: Accumulator, ctx: ParseContext): string[] {
  if (isComplete(acc) || acc.loadError || acc.launches === 0) return [];
  const exit = acc.exit;
  const file = str(exit?.['file']) ?? acc.lastFile;
  const where = file === null ? 'before loading any test file' : `in ${relativeFile(file, ctx.root)}`;
  const test = str(exit?.['test']);
  const during = test === null ? where : `${where}, during ${JSON.stringify(test)}`;
  if (exit !== null) return [boundMessage(`mocha exited with code ${String(exit['code'])} before its run ended, ${during}`)];
  return [`mocha's report stops before the end of its run: the last test file seen was ${file === null ? 'none' : relativeFile(file, ctx.root)}`];
}
