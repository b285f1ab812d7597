/** rspec's example and message shapes, as its JSON report (json.ts) carries them; the
 * stream's events (events.ts) carry rspec's messages too, and the formatter
 * (reporters/rspec/run_tests_formatter.rb) classifies failures as mapExample does. */
import type { FailedTest, TestResult } from '../../model/results.js';
import { boundMessage, int, relativeFile, str } from '../../parsers/fields.js';

export interface RspecException {
  readonly class?: unknown;
  readonly message?: unknown;
  readonly backtrace?: unknown;
}

export interface RspecExample {
  readonly id?: unknown;
  readonly full_description?: unknown;
  readonly status?: unknown;
  readonly file_path?: unknown;
  readonly line_number?: unknown;
  readonly run_time?: unknown;
  readonly pending_message?: unknown;
  readonly exception?: RspecException | null;
}

/** Failures of an expectation (not an unexpected exception). A pending example that
 * passed is an expectation failure too: the example did not fail as declared. */
const EXPECTATION_FAILURES: ReadonlySet<string> = new Set([
  'RSpec::Expectations::ExpectationNotMetError',
  'RSpec::Expectations::MultipleExpectationsNotMetError',
  'RSpec::Mocks::MockExpectationError',
  'RSpec::Core::Pending::PendingExampleFixedError',
]);

export const UNFINISHED_MESSAGE = 'did not finish: the run was stopped (timeout or signal) while this example ran';

/** rspec gives an example that was running when the run stopped an empty status. */
export const isFinished = (ex: RspecExample): boolean => typeof ex.status === 'string' && ex.status !== '';

interface Frame { readonly file: string; readonly line: number }

const FRAME = /^(?:#\s*)?(.+?):(\d+)(?::in\b.*)?$/;

export function parseFrame(text: string, root: string): Frame | null {
  const m = FRAME.exec(text.trim());
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  return { file: relativeFile(m[1], root), line: Number(m[2]) };
}


function failureLine(backtrace: unknown, file: string | null, root: string): number | null {
  if (!Array.isArray(backtrace) || file === null) return null;
  for (const entry of backtrace) {
    const frame = typeof entry === 'string' ? parseFrame(entry, root) : null;
    if (frame && frame.file === file) return frame.line;
  }
  return null;
}

/** An expectation failure's class adds nothing; an unexpected exception's class is the news. */
function exceptionMessage(exception: RspecException, status: 'failed' | 'error'): string {
  const cls = str(exception.class) ?? 'unknown exception';
  const msg = (str(exception.message) ?? '').trim();
  if (msg === '') return cls;
  return boundMessage(status === 'failed' ? msg : `${cls}: ${msg}`);
}

/** One rspec example as a TestResult; `warnings` collects what did not fit. */
export function mapExample(ex: RspecExample, root: string, warnings: string[]): TestResult | null {
  const id = str(ex.id);
  if (id === null) {
    warnings.push(`rspec example without an id skipped: ${JSON.stringify(ex).slice(0, 200)}`);
    return null;
  }
  const filePath = str(ex.file_path);
  const file = filePath === null ? null : relativeFile(filePath, root);
  const base = {
    id,
    name: str(ex.full_description) ?? id,
    file,
    line: int(ex.line_number),
    ...(typeof ex.run_time === 'number' ? { durationMs: Math.round(ex.run_time * 1e6) / 1e3 } : {}),
  };
  switch (ex.status) {
    case 'passed':
      return { ...base, status: 'passed' };
    case 'pending': {
      const message = str(ex.pending_message);
      return message === null ? { ...base, status: 'skipped' } : { ...base, status: 'skipped', message };
    }
    case 'failed': {
      const exception = ex.exception ?? null;
      if (exception === null) return { ...base, status: 'error', message: 'rspec reported a failure without an exception' };
      const status = EXPECTATION_FAILURES.has(str(exception.class) ?? '') ? 'failed' : 'error';
      return {
        ...base,
        status,
        line: failureLine(exception.backtrace, file, root) ?? base.line,
        message: exceptionMessage(exception, status),
      };
    }
    case '':
    case null:
    case undefined:
      // rspec still reports when a signal stops it; the example running then has no status.
      warnings.push(`rspec example ${id} did not finish: the run was stopped while it ran`);
      return { ...base, status: 'error', message: UNFINISHED_MESSAGE };
    default:
      warnings.push(`rspec example ${id} has unknown status ${JSON.stringify(ex.status)}; counted as an error`);
      return { ...base, status: 'error', message: `unknown rspec status ${JSON.stringify(ex.status)}` };
  }
}

// rspec-core's wording for errors outside examples (configuration.rb, example_group.rb).
const ERROR_HEADLINE = /^(An error occurred\b|While loading \S+ an `exit`)/;
const LOADING = /^(?:An error occurred while loading (\S+?)\.?(?:\s|$)|While loading (\S+) an `exit`)/;

/** An error rspec reported outside any example (load error, suite hook), from its message text. */
export function mapOutsideError(text: string, root: string): FailedTest {
  const trimmed = text.trim();
  const headline = trimmed.split('\n')[0] ?? '';
  const m = LOADING.exec(headline);
  const loading = m?.[1] ?? m?.[2];
  const frames = trimmed.split('\n').filter((l) => l.startsWith('#')).map((l) => parseFrame(l, root))
    .filter((f): f is Frame => f !== null);
  // The loaded file is what to rerun; otherwise the first frame inside the project.
  const file = loading !== undefined ? relativeFile(loading, root)
    : (frames.find((f) => !f.file.startsWith('/'))?.file ?? null);
  const line = file === null ? null
    : (frames.find((f) => f.file === file)?.line ?? lineMentioned(trimmed, file, root));
  return {
    // A file-level entry's id is its file: rspec reruns the file, and run-tests knows the
    // entry is covered once any example of that file has run.
    id: file ?? '',
    name: loading !== undefined && file !== null ? `load error: ${file}` : headline,
    file,
    line,
    status: 'error',
    message: boundMessage(trimmed),
    outside: true,
  };
}

/** A SyntaxError names the file only inside its message (`/abs/spec/x_spec.rb:2: syntax error`).
 * A candidate starts only where a word does: from every character of a long word the
 * search would be quadratic in it. */
function lineMentioned(text: string, file: string, root: string): number | null {
  for (const m of text.matchAll(/(?<!\S)(\S+?):(\d+):/g)) {
    if (m[1] !== undefined && relativeFile(m[1], root) === file) return Number(m[2]);
  }
  return null;
}

export function isOutsideErrorMessage(text: string): boolean {
  return ERROR_HEADLINE.test(text.trim().split('\n')[0] ?? '');
}

/** Errors outside examples from rspec's messages; the reported count is never dropped:
 * whatever the messages do not account for becomes one unattributed error. */
export function mapOutsideErrors(messages: readonly string[], reportedCount: number | null, countSource: string,
  root: string): FailedTest[] {
  const errors = messages.filter(isOutsideErrorMessage).map((m) => mapOutsideError(m, root));
  const missing = (reportedCount ?? 0) - errors.length;
  if (missing > 0) {
    errors.push({
      id: '',
      name: 'errors outside of examples (unattributed)',
      file: null,
      line: null,
      status: 'error',
      message: `rspec reported ${reportedCount} error(s) outside of examples (${countSource}) `
        + `but only ${errors.length} could be attributed from its messages`,
      outside: true,
    });
  }
  return errors;
}
