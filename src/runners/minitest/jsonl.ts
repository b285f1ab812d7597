/** Parses the JSON lines written by reporters/minitest (the run-tests minitest plugin
 * and its boot file). One line per finished test, plus `start`, `end` and `crash`
 * lines; see reporters/minitest/run_tests/minitest_reporter.rb for the writer. */
import type { ParseContext, ParsedReport, Parser, TestResult, TestStatus } from '../../model/results.js';
import { boundMessage, int, jsonLine, relativeFile, str } from '../../parsers/fields.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

type Json = Record<string, unknown>;

interface Accumulator {
  /** Every test line is a test minitest ran and counted: two tests may share a name
   * (minitest/spec's same-named describe blocks), and neither may hide the other. */
  readonly tests: TestResult[];
  /** Project-relative paths by the reporter's absolute ones. */
  readonly files: Map<string, string>;
  readonly warnings: string[];
  readonly startPids: Set<unknown>;
  readonly endPids: Set<unknown>;
  /** A framework run-tests cannot read ran tests (test-unit, which rake runs as it runs minitest). */
  unsupported: string | null;
  ends: number;
  crashes: number;
  endCount: number;
  testLines: number;
}

const STATUSES: ReadonlySet<string> = new Set<TestStatus>(['passed', 'failed', 'error', 'skipped']);

export const createMinitestParser: ParserFactory = (ctx) => {
  const acc: Accumulator = {
    tests: [], files: new Map(), warnings: [], startPids: new Set(), endPids: new Set(), unsupported: null,
    ends: 0, crashes: 0, endCount: 0, testLines: 0,
  };
  return lineParser({
    line(raw, lineNo, cutOff) {
      const record = jsonLine(raw, lineNo, cutOff, acc.warnings);
      if (record !== null) handleRecord(record, lineNo, ctx, acc);
    },
    end: () => finish(acc),
    finished: () => acc.testLines,
  });
};

export const parseMinitestJsonl: Parser = (text, ctx) => parseText(createMinitestParser, text, ctx);

function finish(acc: Accumulator): ParsedReport {
  if (acc.ends > 0 && acc.endCount !== acc.testLines) {
    acc.warnings.push(`the end line counts ${acc.endCount} tests but ${acc.testLines} test lines were read`);
  }
  // Complete: every process that started reporting also ended, and none died at load.
  const allStartsEnded = [...acc.startPids].every((pid) => acc.endPids.has(pid));
  const complete = acc.ends > 0 && allStartsEnded && acc.crashes === 0;
  const report = { tests: acc.tests, complete, warnings: acc.warnings };
  return acc.unsupported === null ? report : { ...report, unusable: { code: 'RUNNER_UNSUPPORTED', message: acc.unsupported } };
}

function handleRecord(record: Json, lineNo: number, ctx: ParseContext, acc: Accumulator): void {
  switch (record['type']) {
    case 'start':
      acc.startPids.add(record['pid']);
      return;
    case 'end':
      acc.ends += 1;
      acc.endPids.add(record['pid']);
      acc.endCount += typeof record['count'] === 'number' ? record['count'] : 0;
      return;
    case 'test': {
      const test = testResult(record, ctx, acc.files);
      if (typeof test === 'string') {
        acc.warnings.push(`line ${lineNo}: ${test}, ignored`);
        return;
      }
      acc.testLines += 1;
      acc.tests.push(test);
      return;
    }
    case 'crash': {
      acc.crashes += 1;
      const crash = crashResult(record, ctx);
      if (typeof crash === 'string') acc.warnings.push(crash);
      else acc.tests.push(crash);
      return;
    }
    case 'unsupported': {
      const framework = str(record['framework']) ?? 'another framework';
      acc.unsupported = `${framework} ran the tests (process ${String(record['pid'])}), not minitest: run-tests reads minitest's results only, so it cannot tell how they went; run the suite with its own command`;
      return;
    }
    default:
      acc.warnings.push(`line ${lineNo}: unknown record type ${JSON.stringify(record['type'])}, ignored`);
  }
}

function testResult(r: Json, ctx: ParseContext, files: Map<string, string>): TestResult | string {
  const klass = str(r['class']);
  const name = str(r['name']);
  const status = str(r['status']);
  if (klass === null || name === null) return 'test line without class or name';
  if (status === null || !STATUSES.has(status)) return `test line with unknown status ${JSON.stringify(r['status'])}`;
  const id = `${klass}#${name}`;
  const absFile = str(r['file']);
  const file = absFile === null ? null : projectFile(absFile, ctx, files);
  const defLine = int(r['line']);
  // Built whole, without spreads: this runs once per test, 10,000 times on a large suite.
  const result = resultOf(r, status as TestStatus, id, file, absFile, defLine);
  if (typeof r['time'] === 'number') (result as { durationMs?: number }).durationMs = Math.round(r['time'] * 1e6) / 1e3;
  return result;
}

function resultOf(r: Json, status: TestStatus, id: string, file: string | null, absFile: string | null, defLine: number | null): TestResult {
  const exception = str(r['exception']);
  const message = str(r['message']);
  if (status === 'failed' || status === 'error') {
    const failLine = absFile !== null && str(r['failure_file']) === absFile ? int(r['failure_line']) : null;
    // An assertion's class adds nothing; an unexpected exception's class is the news.
    const shown = status === 'failed' && message !== null && message !== '' ? null : exception;
    return { id, name: id, file, line: failLine ?? defLine, status, message: failureMessage(shown, message) };
  }
  if (status === 'skipped' && message !== null) return { id, name: id, file, line: defLine, status, message: boundMessage(message) };
  return { id, name: id, file, line: defLine, status };
}

/** relativeFile, once per file of the suite rather than once per test. */
function projectFile(absFile: string, ctx: ParseContext, files: Map<string, string>): string {
  let file = files.get(absFile);
  if (file === undefined) files.set(absFile, (file = relativeFile(absFile, ctx.root)));
  return file;
}

/** A process that died before Minitest reported (e.g. a test file raising at load): a
 * load error of that file. One that died outside the project's files (bundler failing to
 * resolve the Gemfile) is no test's failure: a warning, and the run is incomplete. */
function crashResult(r: Json, ctx: ParseContext): TestResult | string {
  const absFile = str(r['file']);
  const message = failureMessage(str(r['exception']), str(r['message']));
  if (absFile === null) return `a Ruby process ended on an exception outside the tests: ${message.trimEnd()}`;
  const file = relativeFile(absFile, ctx.root);
  return { id: file, name: `load error: ${file}`, file, line: int(r['line']), status: 'error', message };
}

function failureMessage(exception: string | null, message: string | null): string {
  const text = message === null || message === '' ? null : message;
  const full = exception !== null && text !== null ? `${exception}: ${text}` : exception ?? text ?? 'failed without a message';
  return boundMessage(full);
}
