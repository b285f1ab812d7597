/** Parses the JSON lines written by reporters/node-test/reporter.mjs: node's test events
 * (`test:start`, `test:pass`, `test:fail`) between `run:start` and `run:end`.
 *
 * Node reports a parent after its children, each at its nesting level. Only leaves
 * count (an `it`, or a test without subtests); a suite or a parent test appears only
 * when it failed on its own (a hook, an error in its body, a timeout), and then the
 * children it cancelled are left out. Tests that --test-name-pattern (or --test-only)
 * filtered out are reported by node as skipped with a fixed reason: they are dropped.
 * A failure of a whole file (it failed to load, or its process exited early), of a
 * describe block or of a parent test is file-level: id = file. */
import type { ParseContext, Parser, TestResult } from '../../model/results.js';
import { appendAll, boundMessage, int, relativeFile, str } from '../../parsers/fields.js';
import { errorFields, failureMessage, isAssertion, jsonLine, lineInTestFile, type ErrorFields, type Json } from '../../ecosystems/node/mocha-node-shared.js';
import { nodeTestId } from './id.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

/** node 20's reasons for tests it did not select; they are not skips. */
export const FILTERED_SKIPS: readonly string[] = ['test name does not match pattern', "'only' option not set"];

interface Frame {
  readonly name: string;
  kind: string | null;
  hasChildren: boolean;
  readonly pending: Pending[];
}

/** A result whose id waits for its ancestors to say whether they are suites. */
interface Pending {
  readonly chain: readonly Frame[];
  readonly cancelled: boolean;
  readonly make: (id: (file: string | null) => string) => TestResult;
}

interface Accumulator {
  readonly tests: TestResult[];
  readonly warnings: string[];
  frames: Frame[];
  starts: number;
  ends: number;
  lastFile: string | null;
  leaves: number;
  /** Test files node reported as passed without a test of their own. */
  readonly silentFiles: string[];
}

export const createNodeTestParser: ParserFactory = (ctx) => {
  const acc: Accumulator = { tests: [], warnings: [], frames: [], starts: 0, ends: 0, lastFile: null, leaves: 0, silentFiles: [] };
  return lineParser({
    line(raw, lineNo, cutOff) {
      const record = jsonLine(raw, lineNo, cutOff, acc.warnings);
      if (record !== null) handle(record, lineNo, ctx, acc);
    },
    end: () => {
      const complete = acc.starts > 0 && acc.ends === acc.starts;
      const warnings = [...acc.warnings];
      if (!complete && acc.starts > 0) {
        const last = acc.lastFile === null ? 'none' : relativeFile(acc.lastFile, ctx.root);
        warnings.push(`node's test runner stopped before the end of its report: the last test file seen was ${last}`);
      }
      if (acc.silentFiles.length > 0) {
        // Node 20 shows both as a passing file: its process exited with code 0 and reported nothing.
        warnings.push(`${acc.silentFiles.length} test file(s) reported no tests: ${[...acc.silentFiles].sort().join(', ')}; `
          + 'such a file holds no tests, or a test in it ended its process with exit code 0 (process.exit(0)) before node saw a result');
      }
      return { tests: acc.tests, complete, warnings };
    },
    finished: () => acc.leaves,
  });
};

export const parseNodeTestJsonl: Parser = (text, ctx) => parseText(createNodeTestParser, text, ctx);

function handle(record: Json, lineNo: number, ctx: ParseContext, acc: Accumulator): void {
  const type = record['type'];
  if (type === 'run:start') {
    acc.starts += 1;
    acc.frames = [];
    return;
  }
  if (type === 'run:end') {
    acc.ends += 1;
    return;
  }
  if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') {
    acc.warnings.push(`line ${lineNo}: unknown record type ${JSON.stringify(type)}, ignored`);
    return;
  }
  const name = str(record['name']);
  const nesting = typeof record['nesting'] === 'number' && Number.isInteger(record['nesting']) && record['nesting'] >= 0 ? record['nesting'] : null;
  if (name === null || nesting === null) {
    acc.warnings.push(`line ${lineNo}: ${String(type)} without a name or nesting, ignored`);
    return;
  }
  acc.lastFile = str(record['file']) ?? acc.lastFile;
  if (type === 'test:start') {
    acc.frames.length = nesting;
    acc.frames[nesting] = newFrame(name);
    return;
  }
  finished(record, name, nesting, ctx, acc);
}

const newFrame = (name: string): Frame => ({ name, kind: null, hasChildren: false, pending: [] });

/** A test (or suite) ended: its own result, if it has one, joins its children's, and
 * all of them move up to its parent, or out once the top level ends. */
function finished(r: Json, name: string, nesting: number, ctx: ParseContext, acc: Accumulator): void {
  let frame = acc.frames[nesting];
  if (frame === undefined || frame.name !== name) frame = newFrame(name);
  frame.kind = str(r['kind']);
  // Array.from, not map: frames may have holes (a nesting level never reported), which map skips.
  const chain = Array.from({ length: Math.max(0, Math.min(nesting, acc.frames.length)) }, (_, i) => acc.frames[i] ?? newFrame(`(nesting ${i})`));
  const error = r['type'] === 'test:fail' ? nodeError(r['error']) : null;
  if (r['file_level'] === true && error === null) acc.silentFiles.push(relativeFile(str(r['file']) ?? name, ctx.root));
  const own = ownResult(r, name, frame, chain, error, ctx);
  let results = frame.pending;
  // A parent that failed on its own explains the children it cancelled.
  if (own !== null && frame.hasChildren) results = results.filter((p) => !p.cancelled);
  if (own !== null) {
    results = [...results, own];
    if (!frame.hasChildren) acc.leaves += 1;
  }
  acc.frames.length = nesting;
  if (nesting === 0) {
    for (const pending of results) acc.tests.push(pending.make((file) => idOf(file, pending.chain)));
    return;
  }
  const parent = (acc.frames[nesting - 1] ??= newFrame(`(nesting ${nesting - 1})`));
  parent.hasChildren = true;
  appendAll(parent.pending, results);
}

/** Ancestors that are describe blocks come first; the rest are tests and subtests. */
function idOf(file: string | null, chain: readonly Frame[]): string {
  const firstTest = chain.findIndex((f) => f.kind !== 'suite');
  const split = firstTest === -1 ? chain.length - 1 : firstTest;
  return nodeTestId(file, chain.slice(0, split).map((f) => f.name), chain.slice(split).map((f) => f.name));
}

interface NodeError {
  readonly failureType: string | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly wrapper: ErrorFields | null;
  /** What the test threw (node wraps it as `cause`), when there is one. */
  readonly cause: ErrorFields | null;
}

function nodeError(value: unknown): NodeError {
  const r = typeof value === 'object' && value !== null ? (value as Json) : {};
  const wrapper = errorFields(r);
  const cause = errorFields(r['cause']);
  // Node makes the cause its own message when nothing was thrown (a file's process failed).
  const hasCause = cause !== null && (cause.stack !== null || cause.name !== null || (cause.message !== null && cause.message !== wrapper?.message));
  return {
    failureType: str(r['failureType']),
    exitCode: typeof r['exitCode'] === 'number' ? r['exitCode'] : null,
    signal: str(r['signal']),
    wrapper,
    cause: hasCause ? cause : null,
  };
}

function ownResult(r: Json, name: string, frame: Frame, chain: readonly Frame[], error: NodeError | null, ctx: ParseContext): Pending | null {
  const skip = r['skip'];
  if (typeof skip === 'string' && FILTERED_SKIPS.includes(skip)) return null;
  const absFile = str(r['file']);
  const file = absFile === null ? null : relativeFile(absFile, ctx.root);
  const path = [...chain, frame];
  const displayName = path.map((f) => f.name).join(' > ');
  const duration = typeof r['duration_ms'] === 'number' ? { durationMs: Math.round(r['duration_ms'] * 1000) / 1000 } : {};
  const defLine = int(r['line']);
  if (r['file_level'] === true) {
    if (error === null) return null; // a file without tests: nothing ran
    const stderr = str(r['stderr']);
    const line = lineInTestFile(error.cause?.stack ?? null, absFile, ctx.root) ?? lineInTestFile(stderrError(stderr)?.stack ?? null, absFile, ctx.root);
    const failed: TestResult = { id: file ?? name, name: file ?? name, file, line, status: 'error', message: fileMessage(error, stderr) };
    return { chain: path, cancelled: false, make: () => failed };
  }
  const leaf = !frame.hasChildren && frame.kind !== 'suite';
  const base = (id: string) => ({ id, name: displayName, file, line: defLine, ...duration });
  if (!leaf) {
    if (error === null || error.failureType === 'subtestsFailed') return null;
    // A describe or a parent test that failed on its own: only its whole file reruns
    // it, and any test of that file running again answers for it.
    const { status, message } = failure(error);
    const line = lineInTestFile(error.cause?.stack ?? null, absFile, ctx.root) ?? defLine;
    return pending(path, false, () => ({ ...base(file ?? displayName), line, status, message }));
  }
  const todo = r['todo'];
  if (todo !== undefined && todo !== false) {
    const why = typeof todo === 'string' ? `todo: ${todo}` : 'todo';
    return pending(path, false, (id) => ({ ...base(id(file)), status: 'skipped', message: error ? boundMessage(`${why} (failed: ${failure(error).message})`) : why }));
  }
  if (skip !== undefined && skip !== false) {
    return pending(path, false, (id) => ({ ...base(id(file)), status: 'skipped', message: typeof skip === 'string' ? boundMessage(skip) : 'skipped' }));
  }
  if (error === null) return pending(path, false, (id) => ({ ...base(id(file)), status: 'passed' }));
  const { status, message } = failure(error);
  const line = lineInTestFile(error.cause?.stack ?? null, absFile, ctx.root) ?? defLine;
  return pending(path, error.failureType === 'cancelledByParent', (id) => ({ ...base(id(file)), line, status, message }));
}

const pending = (chain: readonly Frame[], cancelled: boolean, make: Pending['make']): Pending => ({ chain, cancelled, make });

function failure(error: NodeError): { status: 'failed' | 'error'; message: string } {
  const cause = error.cause;
  if (cause === null) return { status: 'error', message: failureMessage(error.wrapper) };
  const status = isAssertion(cause) ? 'failed' : 'error';
  // "failed running before hook": which hook matters as much as what it threw.
  const prefix = error.failureType === 'hookFailed' && error.wrapper?.message ? `${error.wrapper.message}: ` : '';
  return { status: prefix === '' ? status : 'error', message: boundMessage(prefix + failureMessage(cause)) };
}

/** Why a whole file failed: what its process printed as it died, else how it exited. */
function fileMessage(error: NodeError, stderr: string | null): string {
  if (error.cause !== null) return failure(error).message;
  const printed = stderrError(stderr);
  if (printed !== null) return boundMessage(printed.message);
  if (error.signal !== null) return `the test file's process was killed by ${error.signal} before all its tests were reported`;
  return `the test file's process exited with code ${String(error.exitCode)} before all its tests were reported (a test may have called process.exit)`;
}

/** The uncaught error node printed on stderr: the lines before its first stack frame. */
function stderrError(stderr: string | null): { message: string; stack: string } | null {
  if (stderr === null) return null;
  const lines = stderr.split('\n');
  const firstFrame = lines.findIndex((l) => /^\s+at /.test(l));
  if (firstFrame <= 0) return null;
  let start = firstFrame;
  while (start > 0 && (lines[start - 1] ?? '').trim() !== '') start -= 1;
  const message = lines.slice(start, firstFrame).join('\n').trim();
  if (message === '') return null;
  return { message, stack: [lines[0] ?? '', ...lines.slice(firstFrame)].join('\n') };
}
