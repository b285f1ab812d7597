/** Reads the one event format every reporter run-tests injects writes
 * (schema/events.schema.json): one JSON object per line. What is common to every runner
 * is here: which processes (and files, where written) started and ended, the runner's
 * own totals against the tests read, load errors, launches, unusable runners. What
 * differs is the runner's (EventRules): how a test_end becomes a result, its name and
 * its id, and warnings in its own words. */
import type { Contradiction, FailedTest, ParseContext, ParsedReport, TestResult, TestStatus } from '../model/results.js';
import { boundMessage, int, jsonLine, relativeFile, str, type JsonObject } from './fields.js';
import { lineParser, type LiveRead, type ParserFactory } from './stream.js';

export const EVENTS_SCHEMA = 1;

export interface TestEnd {
  readonly id: string | null;
  readonly name: string;
  readonly path: readonly string[] | null;
  /** Root-relative. */
  readonly file: string | null;
  readonly line: number | null;
  readonly status: TestStatus;
  readonly durationMs: number | null;
  readonly message: string | null;
  readonly location: { readonly file: string; readonly line: number } | null;
  readonly stack: string | null;
  /** The line as written, for fields of the runner's own. */
  readonly raw: JsonObject;
}

export interface TestStart {
  readonly id: string | null;
  readonly name: string;
  /** Root-relative. */
  readonly file: string | null;
  readonly line: number | null;
}

export interface ErrorEvent {
  readonly kind: 'load' | 'hook' | 'collect' | 'crash' | null;
  readonly id: string | null;
  readonly name: string | null;
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
  readonly stack: string | null;
  readonly raw: JsonObject;
}

/** What was running when a run stopped: a test, or a file (file_start) with no test
 * running in it (name null). */
export interface Running {
  readonly id: string | null;
  readonly name: string | null;
  /** Root-relative. */
  readonly file: string | null;
}

/** The run as a whole, as read: for warnings in the runner's own words. */
export interface RunRead {
  /** run_start's `files`, from each process that said. */
  readonly files: readonly number[];
  /** The run_end totals, summed per field. */
  readonly totals: ReadonlyMap<string, number>;
  readonly interrupted: boolean;
  readonly tests: readonly TestResult[];
}

/** A runner's part in reading its events. */
export interface EventRules {
  /** The result of one test_end; a string is a warning and the line is ignored. By
   * default: the id written (else the name), the name, the file, and where it failed
   * (location) or else where it is defined. */
  readonly test?: (event: TestEnd, ctx: ParseContext) => TestResult | string;
  /** The error entry of an error outside any test. By default named `<kind> error: <file>`.
   * A string is a warning instead: an error that is no test's failure (the runner's own
   * setup failing before any test); a crash still leaves the run incomplete. */
  readonly error?: (event: ErrorEvent, ctx: ParseContext) => FailedTest | string;
  /** The warning for what was running when the run stopped. */
  readonly stopped?: (running: Running) => string;
  /** Warnings of the runner's own about the run as a whole, after the parser's. */
  readonly warnings?: (run: RunRead) => string[];
  /** The result of the test a run stopped in (its test_start without a test_end, in an
   * incomplete run), such as an error to rerun. By default none: a warning names it. */
  readonly unfinished?: (event: TestStart, ctx: ParseContext) => TestResult | null;
  /** False when the runner reports a test's start only once the test has ended (node's
   * test runner, which relays a file's tests after they ran): its starts cannot tell
   * what was running when a run stopped. */
  readonly liveStarts?: boolean;
}

const STATUSES: ReadonlySet<string> = new Set<TestStatus>(['passed', 'failed', 'error', 'skipped']);

interface State {
  readonly tests: TestResult[];
  readonly warnings: string[];
  readonly notes: string[];
  readonly started: Set<number>;
  readonly ended: Set<number>;
  /** Sum of the run_end totals, per field, over the processes that gave one. */
  readonly totals: Map<string, number>;
  /** Each result's definition line (test_end's `line`), for matching an `again`. */
  readonly lines: (number | null)[];
  /** Where the results of the process that started last begin. */
  processStart: number;
  /** The last test_start without its test_end, named when the run stops there. */
  running: TestStart | null;
  /** A test_start or file_start was read: what was running when the run stopped is known. */
  startsSeen: boolean;
  /** Tests whose test_end says the run was stopped while they ran (`stopped`). */
  readonly stoppedTests: Running[];
  /** Files started (file_start) and not ended, with the test last started in each. */
  readonly files: Map<string, Running>;
  readonly fileCounts: number[];
  /** `plan` events' `tests`, from each process that said. */
  readonly testCounts: number[];
  /** file_end events read, for the live display. */
  filesEnded: number;
  crashed: boolean;
  interrupted: boolean;
  unusable: ParsedReport['unusable'] | null;
  ran: ParsedReport['ran'] | null;
  badSchema: unknown;
}

export function eventsParser(rules: EventRules = {}): ParserFactory {
  return (ctx) => {
    const state: State = {
      tests: [], warnings: [], notes: [], started: new Set(), ended: new Set(), totals: new Map(), lines: [], processStart: 0,
      running: null, startsSeen: false, stoppedTests: [], files: new Map(), fileCounts: [], testCounts: [], filesEnded: 0, crashed: false, interrupted: false, unusable: null, ran: null, badSchema: undefined,
    };
    return lineParser({
      line(raw, lineNo, cutOff) {
        const record = jsonLine(raw, lineNo, cutOff, state.warnings);
        if (record !== null) handle(record, lineNo, ctx, rules, state);
      },
      end: () => finish(state, rules, ctx),
      finished: () => state.tests.length,
      live: () => liveRead(state),
    });
  };
}

function handle(record: JsonObject, lineNo: number, ctx: ParseContext, rules: EventRules, state: State): void {
  switch (record['event']) {
    case 'run_start':
      if (record['schema'] !== EVENTS_SCHEMA) state.badSchema = record['schema'];
      state.started.add(pid(record));
      if (typeof record['files'] === 'number') state.fileCounts.push(record['files']);
      state.processStart = state.tests.length;
      return;
    case 'test_start': {
      state.startsSeen = true;
      state.running = testStart(record, ctx);
      if (state.running !== null) nowInFile(state, state.running.file, state.running);
      return;
    }
    case 'file_start':
    case 'file_end': {
      const file = str(record['file']);
      if (file === null) return;
      const at = relativeFile(file, ctx.root);
      state.startsSeen = true;
      if (record['event'] === 'file_start') state.files.set(at, { id: null, name: null, file: at });
      else if (state.files.delete(at)) state.filesEnded += 1;
      return;
    }
    case 'test_end': {
      const event = testEnd(record, ctx);
      const result = typeof event === 'string' ? event : (rules.test ?? defaultTest)(event, ctx);
      if (typeof result === 'string') state.warnings.push(`line ${lineNo}: ${result}, ignored`);
      else addTest(result, typeof event === 'string' ? null : event.line, record['again'] === true, state);
      state.running = null;
      if (typeof event === 'string') return;
      nowInFile(state, event.file, { id: null, name: null, file: event.file });
      if (record['stopped'] === true) state.stoppedTests.push({ id: event.id, name: event.name, file: event.file });
      return;
    }
    case 'error': {
      const event = errorEvent(record, ctx);
      if (event.kind === 'crash') state.crashed = true;
      const entry = (rules.error ?? defaultError)(event, ctx);
      if (typeof entry === 'string') state.warnings.push(entry);
      else append(state, entry, event.line);
      return;
    }
    case 'run_end':
      state.ended.add(pid(record));
      if (record['interrupted'] === true) state.interrupted = true;
      addTotals(record['totals'], state.totals);
      if (Array.isArray(record['warnings'])) state.warnings.push(...record['warnings'].filter((w): w is string => typeof w === 'string'));
      return;
    case 'launch': {
      const argv = record['argv'];
      const why = str(record['why']);
      if (Array.isArray(argv) && argv.every((a) => typeof a === 'string') && why !== null) state.ran = { argv: argv as string[], why };
      return;
    }
    case 'unusable': {
      const code = record['code'];
      const message = str(record['message']);
      if ((code === 'RUNNER_MISSING' || code === 'RUNNER_UNSUPPORTED') && message !== null) state.unusable = { code, message };
      return;
    }
    case 'plan': {
      const tests = record['tests'];
      if (typeof tests === 'number' && Number.isInteger(tests) && tests >= 0) state.testCounts.push(tests);
      return;
    }
    case 'note': {
      const text = str(record['text']);
      if (text !== null) state.notes.push(text);
      return;
    }
    case 'output':
      return;
    default:
      state.warnings.push(`line ${lineNo}: unknown event ${JSON.stringify(record['event'])}, ignored`);
  }
}

const sum = (ns: readonly number[]): number => ns.reduce((a, b) => a + b, 0);

function liveRead(state: State): LiveRead {
  return {
    tests: state.tests,
    total: state.testCounts.length === 0 ? null : sum(state.testCounts),
    files: state.fileCounts.length === 0 ? null : { done: state.filesEnded, total: sum(state.fileCounts) },
  };
}

/** What now runs in a file that started and did not end (nothing: name null). */
function nowInFile(state: State, file: string | null, running: Running): void {
  if (file !== null && state.files.has(file)) state.files.set(file, running);
}

/** A test_end that says `again` reports once more a test this process reported already
 * (mocha's done() called twice): one test, with both failures, or the failure that
 * came after its pass. */
function addTest(result: TestResult, line: number | null, again: boolean, state: State): void {
  const earlier = again ? reportedBefore(result.id, line, state) : -1;
  const first = state.tests[earlier];
  if (first === undefined) return append(state, result, line);
  const failing = (t: TestResult): t is FailedTest => t.status === 'failed' || t.status === 'error';
  if (!failing(result)) return;
  state.tests[earlier] = failing(first) ? { ...first, message: boundMessage(`${first.message}\n\n${result.message}`) } : result;
}

/** Adds a result, and the line its event gave, which an `again` is matched by. */
function append(state: State, result: TestResult, line: number | null): void {
  state.tests.push(result);
  state.lines.push(line);
}

/** The index of this process's earlier result with this id and definition line, or -1.
 * Looked for only when a test_end says `again`, which is rare: no index of every test. */
function reportedBefore(id: string, line: number | null, state: State): number {
  for (let i = state.tests.length - 1; i >= state.processStart; i -= 1) {
    if (state.tests[i]?.id === id && state.lines[i] === line) return i;
  }
  return -1;
}

const pid = (record: JsonObject): number => (typeof record['pid'] === 'number' ? record['pid'] : -1);

function testEnd(r: JsonObject, ctx: ParseContext): TestEnd | string {
  const name = str(r['name']);
  const status = str(r['status']);
  if (name === null) return 'test_end without a name';
  if (status === null || !STATUSES.has(status)) return `test_end with unknown status ${JSON.stringify(r['status'])}`;
  const file = str(r['file']);
  const path = Array.isArray(r['path']) && r['path'].every((p) => typeof p === 'string') ? (r['path'] as string[]) : null;
  return {
    id: str(r['id']), name, path, file: file === null ? null : relativeFile(file, ctx.root), line: int(r['line']),
    status: status as TestStatus, durationMs: typeof r['duration_ms'] === 'number' ? r['duration_ms'] : null,
    message: str(r['message']), location: position(r['location'], ctx), stack: str(r['stack']), raw: r,
  };
}

function testStart(r: JsonObject, ctx: ParseContext): TestStart | null {
  const name = str(r['name']);
  const file = str(r['file']);
  return name === null ? null : { id: str(r['id']), name, file: file === null ? null : relativeFile(file, ctx.root), line: int(r['line']) };
}

function position(value: unknown, ctx: ParseContext): TestEnd['location'] {
  if (typeof value !== 'object' || value === null) return null;
  const file = str((value as JsonObject)['file']);
  const line = int((value as JsonObject)['line']);
  return file === null || line === null ? null : { file: relativeFile(file, ctx.root), line };
}

function errorEvent(r: JsonObject, ctx: ParseContext): ErrorEvent {
  const kind = r['kind'];
  const file = str(r['file']);
  return {
    kind: kind === 'load' || kind === 'hook' || kind === 'collect' || kind === 'crash' ? kind : null,
    id: str(r['id']), name: str(r['name']), file: file === null ? null : relativeFile(file, ctx.root), line: int(r['line']),
    message: str(r['message']) ?? 'failed without a message', stack: str(r['stack']), raw: r,
  };
}

function defaultStopped({ name, file }: Running): string {
  if (name === null) return `the run stopped while running ${file ?? 'a file'}`;
  return `the run stopped while ${JSON.stringify(name)} was running`;
}

/** The result a test_end describes, as most runners want it. */
export function defaultTest(e: TestEnd): TestResult {
  const id = e.id ?? e.name;
  const line = e.location !== null && (e.file === null || e.location.file === e.file) ? e.location.line : e.line;
  // Built whole, without spreads: this runs once per test, 10,000 times on a large suite.
  let result: TestResult;
  if (e.status === 'failed' || e.status === 'error') {
    result = { id, name: e.name, file: e.file, line, status: e.status, message: boundMessage(e.message ?? 'failed without a message') };
  } else if (e.status === 'skipped' && e.message !== null) {
    result = { id, name: e.name, file: e.file, line, status: 'skipped', message: boundMessage(e.message) };
  } else {
    result = { id, name: e.name, file: e.file, line, status: e.status };
  }
  if (e.durationMs !== null) (result as { durationMs?: number }).durationMs = e.durationMs;
  return result;
}

export function defaultError(e: ErrorEvent): FailedTest {
  const what = e.kind === null ? 'error' : `${e.kind} error`;
  const name = e.name ?? (e.file === null ? what : `${what}: ${e.file}`);
  return { id: e.id ?? e.file ?? name, name, file: e.file, line: e.line, status: 'error', message: boundMessage(e.message), outside: true };
}

const TOTAL_FIELDS = ['tests', 'passed', 'failed', 'errors', 'skipped', 'deselected'] as const;

function addTotals(value: unknown, totals: Map<string, number>): void {
  if (typeof value !== 'object' || value === null) return;
  for (const field of TOTAL_FIELDS) {
    const n = (value as JsonObject)[field];
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) totals.set(field, (totals.get(field) ?? 0) + n);
  }
}

/** Where the runner's own count of failures exceeds the failures read: never a pass. A
 * count of tests that differs is a warning (a runner may count what it does not report
 * one by one, such as a file it could not load). */
function contradictions(state: State): Contradiction[] {
  const found: Contradiction[] = [];
  const failing = state.tests.filter((t) => t.status === 'failed' || t.status === 'error').length;
  const claimed = (state.totals.get('failed') ?? 0) + (state.totals.get('errors') ?? 0);
  if ((state.totals.has('failed') || state.totals.has('errors')) && claimed > failing) {
    found.push({ message: `the runner counts ${claimed} failed tests, but ${failing} were reported failing`, saysFailed: true });
  }
  return found;
}

function finish(state: State, rules: EventRules, ctx: ParseContext): ParsedReport {
  const { started, ended } = state;
  if (state.badSchema !== undefined) state.warnings.push(`events of schema ${JSON.stringify(state.badSchema)}, expected ${EVENTS_SCHEMA}: a reporter from another run-tests version`);
  const tests = state.totals.get('tests');
  if (tests !== undefined && tests !== state.tests.length) state.warnings.push(`the runner counts ${tests} tests, but ${state.tests.length} were reported`);
  const complete = started.size > 0 && [...started].every((p) => ended.has(p)) && !state.crashed && !state.interrupted
    && state.badSchema === undefined && state.files.size === 0;
  const stopped = rules.stopped ?? defaultStopped;
  // Files run at once: each one that never ended is named, with the test running in it.
  const stoppedIn = state.files.size > 0 ? [...state.files.values()] : !complete && state.running !== null ? [state.running] : [];
  for (const running of stoppedIn) state.warnings.push(stopped(running));
  if (!complete && state.running !== null) {
    const result = rules.unfinished?.(state.running, ctx) ?? null;
    if (result !== null) append(state, result, state.running.line);
  }
  if (rules.warnings) state.warnings.push(...rules.warnings({ files: state.fileCounts, totals: state.totals, interrupted: state.interrupted, tests: state.tests }));
  const found = contradictions(state);
  return {
    tests: state.tests,
    complete,
    warnings: state.warnings,
    ...(found.length > 0 ? { contradictions: found } : {}),
    ...(state.notes.length > 0 ? { notes: state.notes } : {}),
    ...(state.ran === null ? {} : { ran: state.ran }),
    ...(state.startsSeen && !complete && rules.liveStarts !== false ? { running: [...state.stoppedTests, ...stoppedIn].map(({ name, file }) => ({ name, file })) } : {}),
    ...(state.unusable === null ? {} : { unusable: state.unusable }),
  };
}
