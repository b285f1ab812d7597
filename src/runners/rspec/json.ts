/** Parses rspec's own JSON formatter output (`--format json`), written only when the run
 * ends. Summary counts that disagree with the examples are contradictions (declared.ts). */
import type { ParsedReport, Parser, TestResult } from '../../model/results.js';
import { checkTotals, withContradictions } from '../../parsers/declared.js';
import { isFinished, mapExample, mapOutsideErrors, type RspecExample } from './examples.js';

interface RspecJson {
  readonly examples?: unknown;
  readonly messages?: unknown;
  readonly summary?: { readonly errors_outside_of_examples_count?: unknown } | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const parseRspecJson: Parser = (text, ctx): ParsedReport => {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const start = JSON.stringify(text.slice(0, 40));
    return { tests: [], complete: false, warnings: [`rspec JSON report is not valid JSON (${text.length} chars starting ${start}; cut off?)`] };
  }
  if (!isObject(doc)) {
    return { tests: [], complete: false, warnings: ['rspec JSON report is not a JSON object'] };
  }
  const report = doc as RspecJson;
  const warnings: string[] = [];
  const tests: TestResult[] = [];
  let allFinished = true;
  for (const ex of Array.isArray(report.examples) ? report.examples : []) {
    if (!isObject(ex)) continue;
    allFinished &&= isFinished(ex);
    const mapped = mapExample(ex as RspecExample, ctx.root, warnings);
    if (mapped) tests.push(mapped);
  }
  const examples = tests.length;
  const messages = Array.isArray(report.messages) ? report.messages.filter((m): m is string => typeof m === 'string') : [];
  const summary = isObject(report.summary) ? report.summary : null;
  const count = summary?.errors_outside_of_examples_count;
  tests.push(...mapOutsideErrors(messages, typeof count === 'number' ? count : null,
    'summary.errors_outside_of_examples_count', ctx.root));
  if (summary === null) warnings.push('rspec JSON report has no summary: the run did not reach its end');
  if (!Array.isArray(report.examples)) warnings.push('rspec JSON report has no examples array');
  const complete = summary !== null && allFinished;
  // A stopped run's summary covers only part of it.
  return withContradictions({ tests, complete, warnings }, complete ? ownTotals(summary, tests.slice(0, examples)) : []);
};

/** rspec's summary counts examples; errors outside them have their own count, kept above. */
const ownTotals = (summary: Record<string, unknown>, examples: readonly TestResult[]) => checkTotals([
  { name: 'summary.example_count', value: summary['example_count'], counts: 'all' },
  { name: 'summary.failure_count', value: summary['failure_count'], counts: 'failing' },
  { name: 'summary.pending_count', value: summary['pending_count'], counts: 'skipped' },
], examples);
