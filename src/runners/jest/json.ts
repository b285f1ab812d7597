/** jest's own `--json` output (`jest --json --outputFile=…`): one document, read whole.
 * Names and ids are the jest parser's (`a › b`, `<file>::<name>`); a test file that
 * failed to run (`testExecError`, or a failed file whose tests did not fail, with its
 * `message`) is an error entry named after the file. When `numRuntimeErrorTestSuites`
 * claims more such files than the report shows, the difference is kept as
 * unattributed error entries. An interrupted run (`wasInterrupted`) is not complete.
 * Totals (`numFailedTests` …) and `success` that disagree with the tests are
 * contradictions (declared.ts). */
import type { Contradiction, FailedTest, ParseContext, ParsedReport, TestResult } from '../../model/results.js';
import { checkOutcome, checkTotals, withContradictions } from '../../parsers/declared.js';
import { appendAll, boundMessage, int, relativeFile, str } from '../../parsers/fields.js';
import { JEST_NAME_SEPARATOR } from './events.js';
import { loadErrorName, objects, strings, stripAnsi, testId, type Json } from '../../ecosystems/node/jest-vitest-events.js';
import { stackFrames } from '../../ecosystems/node/stack.js';
import { textLocation } from '../../parsers/junit-location.js';
import { documentParser, parseText, type ParserFactory } from '../../parsers/stream.js';

const SKIPPED = new Set(['pending', 'skipped', 'disabled', 'todo']);
/** Enough of a failure's text to find its message and its line. */
const MAX_TEXT = 64 * 1024;

export function parseJestJsonText(text: string, ctx: ParseContext): ParsedReport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const why = text.trim() === '' ? 'the report is empty' : `not valid JSON (${(error as Error).message})`;
    return { tests: [], complete: false, warnings: [`jest --json: ${why}`] };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || !Array.isArray((doc as Json)['testResults'])) {
    return { tests: [], complete: false, warnings: ['jest --json: not a jest report (no testResults array)'] };
  }
  return fromReport(doc as Json, ctx);
}

export const createJestJsonParser: ParserFactory = documentParser(parseJestJsonText);
export const parseJestJson = (text: string, ctx: ParseContext): ParsedReport => parseText(createJestJsonParser, text, ctx);

function fromReport(doc: Json, ctx: ParseContext): ParsedReport {
  const warnings: string[] = [];
  const tests: TestResult[] = [];
  let fileErrors = 0;
  for (const suite of objects(doc['testResults'])) {
    const absFile = str(suite['name']) ?? str(suite['testFilePath']);
    const file = absFile === null ? null : relativeFile(absFile, ctx.root);
    const own: TestResult[] = [];
    for (const a of objects(suite['assertionResults'])) {
      const test = assertion(a, file, ctx);
      if (typeof test === 'string') warnings.push(`jest --json: ${test}`);
      else own.push(test);
    }
    appendAll(tests, own);
    const error = suiteError(suite, file, own, ctx);
    if (error !== null) {
      tests.push(error);
      fileErrors += 1;
    }
  }
  const claimed = typeof doc['numRuntimeErrorTestSuites'] === 'number' ? doc['numRuntimeErrorTestSuites'] : 0;
  for (let i = 1; i <= Math.min(claimed - fileErrors, 100); i += 1) {
    const message = `numRuntimeErrorTestSuites is ${claimed}, but ${fileErrors} test file(s) show an error: ${claimed - fileErrors} not attributed to any file (see the runner's log)`;
    tests.push({ id: `jest:unattributed-error-${i}`, name: `test file error not attributed to any file (${i} of ${claimed - fileErrors})`, file: null, line: null, status: 'error', message, outside: true });
    if (i === 1) warnings.push(message);
  }
  const interrupted = doc['wasInterrupted'] === true;
  if (interrupted) warnings.push('jest --json: the run was interrupted (wasInterrupted); later tests did not run');
  // An interrupted run's totals cover only part of it.
  return withContradictions({ tests, complete: !interrupted, warnings }, interrupted ? [] : ownTotals(doc, tests));
}

/** jest's totals count the tests it lists (not the files that failed to run, which are
 * numRuntimeErrorTestSuites); `success` covers those files too. */
function ownTotals(doc: Json, tests: readonly TestResult[]): Contradiction[] {
  const listed = tests.filter((t) => !t.id.startsWith('jest:') && t.name !== loadErrorName(t.file ?? ''));
  const pending = doc['numPendingTests'];
  const todo = doc['numTodoTests'];
  const skipped = typeof pending === 'number' && typeof todo === 'number' ? pending + todo : pending;
  return [
    ...checkTotals([
      { name: 'numTotalTests', value: doc['numTotalTests'], counts: 'all' },
      { name: 'numPassedTests', value: doc['numPassedTests'], counts: 'passed' },
      { name: 'numFailedTests', value: doc['numFailedTests'], counts: 'failing' },
      { name: typeof todo === 'number' ? 'numPendingTests + numTodoTests' : 'numPendingTests', value: skipped, counts: 'skipped' },
    ], listed),
    ...checkOutcome('success', doc['success'], tests),
  ];
}

function assertion(a: Json, file: string | null, ctx: ParseContext): TestResult | string {
  const title = str(a['title']);
  const status = str(a['status']);
  if (title === null || status === null) return 'an assertion result without a title or status, ignored';
  const name = [...strings(a['ancestorTitles']), title].join(JEST_NAME_SEPARATOR);
  const location = typeof a['location'] === 'object' && a['location'] !== null ? (a['location'] as Json) : {};
  const duration = typeof a['duration'] === 'number' && a['duration'] >= 0 ? { durationMs: a['duration'] } : {};
  const base = { id: testId(file, name), name, file, line: int(location['line']), ...duration };
  if (status === 'passed' || status === 'focused') return { ...base, status: 'passed' };
  if (SKIPPED.has(status)) return { ...base, status: 'skipped', ...(status === 'todo' ? { message: 'todo' } : {}) };
  if (status !== 'failed') return `${name}: unknown status ${JSON.stringify(status)}, ignored`;
  const messages = strings(a['failureMessages']).map((m) => stripAnsi(m.slice(0, MAX_TEXT)));
  const isAssertion = objects(a['failureDetails']).some((d) => typeof d['matcherResult'] === 'object' && d['matcherResult'] !== null)
    || (a['failureDetails'] === undefined && /^Error: expect\(/.test(messages[0] ?? ''));
  const text = messages.map(withoutFrames).map((m) => (isAssertion ? m.replace(/^Error: /, '') : m)).join('\n\n');
  const at = file === null ? null : textLocation(messages[0] ?? '', file, ctx.root);
  return {
    ...base,
    line: at?.line ?? base.line,
    status: isAssertion ? 'failed' : 'error',
    message: boundMessage(text === '' ? 'failed without a message' : text),
  };
}

/** A file that failed to run, or failed outside its tests (a hook): one error entry. */
function suiteError(suite: Json, file: string | null, own: readonly TestResult[], ctx: ParseContext): FailedTest | null {
  const exec = typeof suite['testExecError'] === 'object' && suite['testExecError'] !== null ? (suite['testExecError'] as Json) : null;
  const text = stripAnsi(str(exec?.['message']) ?? str(suite['failureMessage']) ?? str(suite['message']) ?? '');
  const failedInside = own.some((t) => t.status === 'failed' || t.status === 'error');
  if (exec === null && (str(suite['status']) !== 'failed' || failedInside || text.trim() === '')) return null;
  const stack = str(exec?.['stack']) ?? text;
  const at = file === null ? null : textLocation(stripAnsi(stack), file, ctx.root) ?? textLocation(text, file, ctx.root);
  const where = file ?? '(unknown file)';
  // The message is cut to 2 KiB in the end; the head of the text is all it can come from.
  const message = suiteMessage(text.slice(0, MAX_TEXT)) || 'Test suite failed to run';
  return { id: where, name: loadErrorName(where), file, line: at?.line ?? null, status: 'error', message: boundMessage(message), outside: true };
}

/** `● Test suite failed to run` and jest's code frame removed: the error itself. */
function suiteMessage(text: string): string {
  const lines = text.replace(/^\s*\u25cf Test suite failed to run\s*\n/, '').split('\n');
  const frame = lines.findIndex((l) => /^\s*>?\s*\d+ \|/.test(l));
  const kept = (frame < 0 ? lines : lines.slice(0, frame)).filter((l) => stackFrames(l).length === 0);
  const indent = Math.min(...kept.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0));
  return kept.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n').trim();
}

/** A failure message without its stack frames: jest puts the stack after the message. */
function withoutFrames(text: string): string {
  return text.split('\n').filter((line) => stackFrames(line).length === 0 && !/^\s+at .*\(<anonymous>\)$/.test(line)).join('\n').trim();
}
