/** Parses the JSON lines written by reporters/rspec/run_tests_formatter.rb: one record
 * per finished example, so a run killed mid-way keeps what finished. rspec writes a
 * summary even when a signal stops it, so the run reached its end only if the summary
 * is the last record, is not marked interrupted, and every started example finished. */
import type { ParsedReport, Parser, TestResult } from '../../model/results.js';
import { mapExample, mapOutsideErrors, type RspecExample } from './examples.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

export const STREAM_FORMAT_VERSION = 1;

type StreamRecord = Record<string, unknown> & { readonly type?: unknown };

function parseLine(line: string, lineNo: number, warnings: string[]): StreamRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as StreamRecord;
    warnings.push(`rspec stream line ${lineNo} is not a JSON object`);
  } catch {
    warnings.push(`rspec stream line ${lineNo} is not valid JSON (cut off?)`);
  }
  return null;
}

interface StreamState {
  readonly examples: TestResult[];
  /** Started but not (yet) finished, by id, in start order. */
  readonly running: Map<string, StreamRecord>;
  readonly messages: string[];
  readonly warnings: string[];
  summary: StreamRecord | null;
}

function apply(record: StreamRecord, lineNo: number, state: StreamState, root: string): void {
  switch (record.type) {
    case 'start':
      if (record.version !== STREAM_FORMAT_VERSION) {
        state.warnings.push(`rspec stream format version ${JSON.stringify(record.version)}, expected ${STREAM_FORMAT_VERSION}`);
      }
      break;
    case 'started':
      if (typeof record.id === 'string') state.running.set(record.id, record);
      break;
    case 'example': {
      if (typeof record.id === 'string') state.running.delete(record.id);
      const mapped = mapExample(record as RspecExample, root, state.warnings);
      if (mapped) state.examples.push(mapped);
      break;
    }
    case 'message':
      if (typeof record.message === 'string') state.messages.push(record.message);
      break;
    case 'summary':
      state.summary = record;
      break;
    case 'formatter_error':
      state.warnings.push(`rspec stream formatter failed to write a record: ${String(record.message)}`);
      break;
    default:
      state.warnings.push(`rspec stream line ${lineNo} has unknown type ${JSON.stringify(record.type)}`);
  }
}

export const createRspecStreamParser: ParserFactory = (ctx) => {
  const state: StreamState = { examples: [], running: new Map(), messages: [], warnings: [], summary: null };
  let last: StreamRecord | null = null;
  return lineParser({
    line(raw, lineNo) {
      const line = raw.trim();
      if (line === '') return;
      last = parseLine(line, lineNo, state.warnings);
      if (last !== null) apply(last, lineNo, state, ctx.root);
    },
    end: () => finish(state, last, ctx.root),
    finished: () => state.examples.length,
  });
};

export const parseRspecStream: Parser = (text, ctx) => parseText(createRspecStreamParser, text, ctx);

function finish(state: StreamState, last: StreamRecord | null, root: string): ParsedReport {
  const { summary, warnings } = state;
  const unfinished = [...state.running.values()].map((r) => mapExample({ ...r, status: '' } as RspecExample, root, warnings))
    .filter((t): t is TestResult => t !== null);
  const interrupted = summary?.interrupted;
  if (typeof interrupted === 'string') warnings.push(`rspec was interrupted by ${interrupted}: its summary covers only part of the run`);
  const complete = summary !== null && last === summary && unfinished.length === 0 && typeof interrupted !== 'string';
  if (summary === null || last !== summary) warnings.push('rspec stream has no final summary line: the run did not reach its end');
  const count = summary?.errors_outside_of_examples_count;
  const outside = mapOutsideErrors(state.messages, typeof count === 'number' ? count : null,
    'stream summary errors_outside_of_examples_count', root);
  return { tests: [...state.examples, ...unfinished, ...outside], complete, warnings };
}
