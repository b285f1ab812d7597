import type { ParseContext, ParsedReport, TestResult } from '../model/results.js';

/** A parser fed the report as it grows: run-tests follows a report file while the
 * runner writes it, so parsing overlaps the run and memory holds results, not text.
 * Parsers stay pure: they are given text and never read files. */
export interface ReportParser {
  push(chunk: string): void;
  end(): ParsedReport;
  /** Tests finished so far, for the live count. */
  readonly finished: number;
  /** What a parser that reads results one by one has read so far, for the live display. */
  live?(): LiveRead;
}

/** The results read so far and what the runner announced. `tests` only grows (an entry
 * may be replaced in place when the runner reports a test again). */
export interface LiveRead {
  readonly tests: readonly TestResult[];
  /** Tests the runner said it would run, summed over its processes; null if none said. */
  readonly total: number | null;
  /** Files the runner said it would run, and how many of them ended; null if none said. */
  readonly files: { readonly done: number; readonly total: number } | null;
}

export type ParserFactory = (ctx: ParseContext) => ReportParser;

/** The whole text through a parser: for tests, and for reports that exist already. */
export function parseText(factory: ParserFactory, text: string, ctx: ParseContext): ParsedReport {
  const parser = factory(ctx);
  parser.push(text);
  return parser.end();
}

export interface LineHandler {
  /** One line without its newline. `cutOff`: the last line, with no newline after it
   * (the writer was stopped mid-line). */
  line(text: string, lineNo: number, cutOff: boolean): void;
  end(): ParsedReport;
  finished(): number;
  live?(): LiveRead;
}

/** A report of newline-separated records. */
export function lineParser(handler: LineHandler): ReportParser {
  let carry = '';
  let lineNo = 0;
  return {
    // Lines are cut from the chunk as they are: no copy of the chunk joined to the carried
    // line, and no array of its lines (a large run's reports are read 64 KiB at a time).
    push(chunk) {
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        carry += chunk;
        return;
      }
      handler.line(carry + chunk.slice(0, newline), ++lineNo, false);
      let start = newline + 1;
      while ((newline = chunk.indexOf('\n', start)) !== -1) {
        handler.line(chunk.slice(start, newline), ++lineNo, false);
        start = newline + 1;
      }
      carry = chunk.slice(start);
    },
    end() {
      if (carry !== '') handler.line(carry, ++lineNo, true);
      carry = '';
      return handler.end();
    },
    get finished() {
      return handler.finished();
    },
    ...(handler.live ? { live: handler.live.bind(handler) } : {}),
  };
}

/** A report that is one document (JSON, XML): kept as chunks and parsed at the end. */
export function documentParser(parse: (text: string, ctx: ParseContext) => ParsedReport): ParserFactory {
  return (ctx) => {
    const chunks: string[] = [];
    return {
      push: (chunk) => void chunks.push(chunk),
      end: () => parse(chunks.join(''), ctx),
      finished: 0,
    };
  };
}
