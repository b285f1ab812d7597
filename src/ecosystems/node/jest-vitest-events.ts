/** What the jest and vitest parsers share: both read the JSON lines of a reporter of
 * ours (reporters/jest/reporter.cjs, reporters/vitest/reporter.mjs) with the same
 * record types: `start`, `file_start`, `test_start`, `test`, `file`, `end`. Results are
 * kept per test file; a file's `file` record is authoritative and replaces the `test`
 * records streamed before it. A file that started and never finished is the evidence
 * of a runner that died (process.exit in a test, a crash, a timeout). A rerun may run
 * the runner twice into one report: each run from its `start` to its `end` record. */
import type { ParseContext, ParsedReport, TestResult } from '../../model/results.js';
import { relativeFile } from '../../parsers/fields.js';
import { lineParser, type ParserFactory } from '../../parsers/stream.js';

export type Json = Record<string, unknown>;

export const EVENTS_FORMAT_VERSION = 1;

export interface EventMapper {
  /** The runner, for messages. */
  readonly runner: string;
  /** A `test` record (or an entry of a `file` record's `tests`) as a result. */
  test(record: Json, ctx: ParseContext): TestResult | string;
  /** The whole file's results from its `file` record; `tests` are the streamed ones. */
  file(record: Json, streamed: readonly TestResult[], ctx: ParseContext): TestResult[];
  /** Results from the `end` record (errors outside any file), and whether the run was cut short. */
  end(record: Json, ctx: ParseContext): { readonly tests: TestResult[]; readonly interrupted: boolean; readonly noFiles: boolean };
  /** The name shown for a `test_start` record. */
  startedName(record: Json): string | null;
}

interface State {
  readonly byFile: Map<string, TestResult[]>;
  /** Absolute paths of files started but not finished, with the test last seen starting. */
  readonly running: Map<string, string | null>;
  readonly warnings: string[];
  readonly endTests: TestResult[];
  /** `start` and `end` records seen: every run that started must end. */
  starts: number;
  ends: number;
  interrupted: boolean;
  afterEnd: boolean;
  finished: number;
  /** Tests the name filter left out, as the `end` records count them. */
  deselected: number;
}

export function eventsParser(mapper: EventMapper): ParserFactory {
  return (ctx) => {
    const state: State = {
      byFile: new Map(), running: new Map(), warnings: [], endTests: [],
      starts: 0, ends: 0, interrupted: false, afterEnd: false, finished: 0, deselected: 0,
    };
    return lineParser({
      line(raw, lineNo, cutOff) {
        const line = raw.trim();
        if (line === '') return;
        const record = parseObject(line);
        if (record === undefined) {
          state.warnings.push(`${mapper.runner} report line ${lineNo}: ${cutOff ? 'incomplete' : 'not valid'} JSON, ignored`);
          return;
        }
        if (state.ends > 0 && state.ends >= state.starts && record['type'] !== 'start') state.afterEnd = true;
        apply(mapper, record, lineNo, state, ctx);
      },
      end: () => finish(mapper, state, ctx),
      finished: () => state.finished,
    });
  };
}

function apply(mapper: EventMapper, record: Json, lineNo: number, state: State, ctx: ParseContext): void {
  const file = typeof record['file'] === 'string' ? record['file'] : null;
  switch (record['type']) {
    case 'start':
      state.starts += 1;
      if (record['version'] !== EVENTS_FORMAT_VERSION) {
        state.warnings.push(`${mapper.runner} report format version ${JSON.stringify(record['version'])}, expected ${EVENTS_FORMAT_VERSION}`);
      }
      return;
    case 'file_start':
      if (file !== null) state.running.set(file, null);
      return;
    case 'test_start':
      if (file !== null) state.running.set(file, mapper.startedName(record));
      return;
    case 'test': {
      const test = mapper.test(record, ctx);
      if (typeof test === 'string') {
        state.warnings.push(`${mapper.runner} report line ${lineNo}: ${test}, ignored`);
        return;
      }
      const key = file ?? '';
      const streamed = state.byFile.get(key);
      if (streamed) streamed.push(test);
      else state.byFile.set(key, [test]);
      state.finished += 1;
      return;
    }
    case 'file': {
      if (file === null) return;
      const streamed = state.byFile.get(file) ?? [];
      const tests = mapper.file(record, streamed, ctx);
      state.finished += tests.length - streamed.length;
      state.byFile.set(file, tests);
      state.running.delete(file);
      return;
    }
    case 'end': {
      const end = mapper.end(record, ctx);
      state.endTests.push(...end.tests);
      state.interrupted ||= end.interrupted;
      state.ends += 1;
      state.deselected += typeof record['deselected'] === 'number' ? record['deselected'] : 0;
      if (end.noFiles) state.warnings.push(`${mapper.runner} found no test file to run: no file matched the selection (or its own test file patterns)`);
      return;
    }
    default:
      state.warnings.push(`${mapper.runner} report line ${lineNo}: unknown record type ${JSON.stringify(record['type'])}, ignored`);
  }
}

function finish(mapper: EventMapper, state: State, ctx: ParseContext): ParsedReport {
  const { warnings } = state;
  for (const [file, test] of state.running) {
    const during = test === null ? '' : ` (during "${test}")`;
    warnings.push(`${mapper.runner} stopped while running ${relativeFile(file, ctx.root)}${during} and reported no result for it: a test may have called process.exit, or the process crashed or was killed`);
  }
  const ended = state.ends > 0 && state.ends >= state.starts;
  if (!ended) warnings.push(`the ${mapper.runner} report has no end record: the run did not reach its end`);
  if (state.interrupted) warnings.push(`${mapper.runner} reports that the run was interrupted`);
  if (state.afterEnd) warnings.push(`the ${mapper.runner} report has records after its end record`);
  const complete = ended && !state.interrupted && !state.afterEnd && state.running.size === 0;
  const tests = [...[...state.byFile.values()].flat(), ...state.endTests];
  if (tests.length === 0 && state.deselected > 0) warnings.push(`no test matched the name filter: ${mapper.runner} left out all ${state.deselected} tests of the files it ran`);
  return { tests, complete, warnings };
}

function parseObject(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const ANSI = /\u001b\[[0-9;]*m/g;
export const stripAnsi = (text: string): string => text.replace(ANSI, '');

export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export const objects = (value: unknown): Json[] =>
  (Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)) : []);

/** `<file>::<name>`: stable, unique per test name within a file, and enough to rerun it. */
export const testId = (file: string | null, name: string): string => `${file ?? ''}::${name}`;

/** The id of an error tied to a whole file (a load error): the file itself, so a rerun
 * runs that file and any of its tests covers it. */
export const loadErrorName = (file: string): string => `load error: ${file}`;
