/** Parses the JSON lines written by reporters/rspec/run_tests_formatter.rb: one record
 * per finished example, so a run killed mid-way keeps what finished. The run reached its
 * end only if the last record is the summary. */
import type { ParsedReport, Parser, TestResult } from '../core/types.js';
import { mapExample, mapOutsideErrors, type RspecExample } from './rspec-shared.js';

export const STREAM_FORMAT_VERSION = 1;

type StreamRecord = Record<string, unknown> & { readonly type?: unknown };

function parseLine(line: string, lineNo: number, warnings: string[]): StreamRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as StreamRecord;
    warnings.push(`rspec stream line ${lineNo} is not a JSON object`);
  } catch {
    warnings.push(`rspec stream line ${lineNo} is not valid JSON (cut off?): ${line.slice(0, 120)}`);
  }
  return null;
}

export const parseRspecStream: Parser = (text, ctx): ParsedReport => {
  const warnings: string[] = [];
  const examples: TestResult[] = [];
  const messages: string[] = [];
  let summary: StreamRecord | null = null;
  let last: StreamRecord | null = null;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const record = parseLine(line, i + 1, warnings);
    last = record;
    if (record === null) continue;
    switch (record.type) {
      case 'start':
        if (record.version !== STREAM_FORMAT_VERSION) {
          warnings.push(`rspec stream format version ${JSON.stringify(record.version)}, expected ${STREAM_FORMAT_VERSION}`);
        }
        break;
      case 'example': {
        const mapped = mapExample(record as RspecExample, ctx.root, warnings);
        if (mapped) examples.push(mapped);
        break;
      }
      case 'message':
        if (typeof record.message === 'string') messages.push(record.message);
        break;
      case 'summary':
        summary = record;
        break;
      case 'formatter_error':
        warnings.push(`rspec stream formatter failed to write a record: ${String(record.message)}`);
        break;
      default:
        warnings.push(`rspec stream line ${i + 1} has unknown type ${JSON.stringify(record.type)}`);
    }
  }
  const complete = summary !== null && last === summary;
  if (!complete) warnings.push('rspec stream has no final summary line: the run did not reach its end');
  const count = summary?.errors_outside_of_examples_count;
  const outside = mapOutsideErrors(messages, typeof count === 'number' ? count : null,
    'stream summary errors_outside_of_examples_count', ctx.root);
  return { tests: [...examples, ...outside], complete, warnings };
};
