/** Parses the JSON lines written by reporters/pytest/run_tests_pytest.py: one line per
 * test phase (setup, call, teardown), per collection problem, and `start`, `usage` and
 * `session` lines. The phases of one test become one result. */
import type { ParseContext, ParsedReport, TestResult } from '../../model/results.js';
import { boundMessage, int, jsonLine, relativeFile, str, type JsonObject } from '../../parsers/fields.js';
import { lineParser, type ParserFactory } from '../../parsers/stream.js';

type Phase = 'setup' | 'call' | 'teardown';

interface Entry {
  readonly id: string;
  readonly file: string | null;
  readonly line: number | null;
  durationS: number;
  result: TestResult | null;
  tornDown: boolean;
}

interface State {
  readonly ctx: ParseContext;
  readonly entries: Map<string, Entry>;
  readonly outside: Map<string, TestResult>;
  readonly warnings: string[];
  readonly usage: string[];
  exitStatus: number | null;
  collectErrors: number;
  ran: ParsedReport['ran'];
  unusable: ParsedReport['unusable'];
}

const PHASES: ReadonlySet<string> = new Set<Phase>(['setup', 'call', 'teardown']);

export const createPytestParser: ParserFactory = (ctx) => {
  const state: State = { ctx, entries: new Map(), outside: new Map(), warnings: [], usage: [], exitStatus: null, collectErrors: 0, ran: undefined, unusable: undefined };
  return lineParser({
    line(raw, lineNo, cutOff) {
      const record = jsonLine(raw, lineNo, cutOff, state.warnings);
      if (record === null) return;
      const problem = handle(record, state);
      if (problem !== null) state.warnings.push(`line ${lineNo}: ${problem}, ignored`);
    },
    end: () => finish(state),
    finished: () => [...state.entries.values()].filter((e) => e.tornDown).length + state.outside.size,
  });
};

/** Applies one record; returns why it was ignored, or null. */
function handle(r: JsonObject, state: State): string | null {
  switch (r['type']) {
    case 'start':
      return null;
    case 'launch': // written by run_pytest.py when it falls back to another pytest
      return launch(r, state);
    case 'missing': // run_pytest.py found no pytest at all
      state.unusable = { code: 'RUNNER_MISSING', message: str(r['message']) ?? 'no pytest found' };
      return null;
    case 'unsupported': // the plugin stopped pytest: its version is too old for it
      state.unusable = {
        code: 'RUNNER_UNSUPPORTED',
        message: `pytest ${str(r['pytest']) ?? '(unknown version)'}${str(r['python']) === null ? '' : ` (${str(r['python'])})`} is not supported: `
          + `run-tests supports pytest ${str(r['supported']) ?? 'newer ones'}; install one into this python, or into the project's virtualenv`,
      };
      return null;
    case 'test':
      return phase(r, state);
    case 'collect':
      return collect(r, state);
    case 'usage':
      state.usage.push(str(r['message']) ?? 'usage error');
      return null;
    case 'session':
      state.exitStatus = typeof r['exitstatus'] === 'number' ? r['exitstatus'] : null;
      return null;
    default:
      return `unknown record type ${JSON.stringify(r['type'])}`;
  }
}

function phase(r: JsonObject, state: State): string | null {
  const id = str(r['id']) ?? str(r['nodeid']);
  const when = str(r['when']);
  const outcome = str(r['outcome']);
  if (id === null || when === null || !PHASES.has(when)) return 'test line without node id or phase';
  const entry = entryOf(id, r, state);
  entry.durationS += typeof r['duration'] === 'number' ? r['duration'] : 0;
  if (when === 'teardown') entry.tornDown = true;
  switch (outcome) {
    case 'passed':
      if (when === 'call' && entry.result === null) entry.result = { ...base(entry), status: 'passed' };
      return null;
    case 'skipped':
      if (entry.result === null) entry.result = skipped(entry, r);
      return null;
    case 'failed':
      entry.result = failed(entry, when as Phase, r, state.ctx.root);
      return null;
    case 'rerun': // pytest-rerunfailures: the next attempt decides
      entry.result = null;
      entry.tornDown = false;
      return null;
    default:
      return `test line with unknown outcome ${JSON.stringify(r['outcome'])}`;
  }
}

function entryOf(id: string, r: JsonObject, state: State): Entry {
  let entry = state.entries.get(id);
  if (entry === undefined) {
    const abs = str(r['file']);
    entry = { id, file: abs === null ? null : relativeFile(abs, state.ctx.root), line: int(r['line']), durationS: 0, result: null, tornDown: false };
    state.entries.set(id, entry);
  }
  return entry;
}

const base = (e: Entry) => ({ id: e.id, name: e.id, file: e.file, line: e.line });

function skipped(entry: Entry, r: JsonObject): TestResult {
  const xfail = str(r['xfail']);
  const message = xfail !== null ? `xfail${xfail === '' ? '' : `: ${xfail}`}` : str(r['message']);
  return message === null ? { ...base(entry), status: 'skipped' } : { ...base(entry), status: 'skipped', message: boundMessage(message) };
}

/** The first failing phase decides the status and line; a later one (a teardown error
 * after a failed call) adds its message. Assertions (and strict xpasses) are failures;
 * any other exception, and every setup or teardown exception, is an error. */
function failed(entry: Entry, when: Phase, r: JsonObject, root: string): TestResult {
  const text = str(r['message']) ?? 'failed without a message';
  const message = when === 'call' ? text : `at ${when}: ${text}`;
  const previous = entry.result;
  if (previous !== null && (previous.status === 'failed' || previous.status === 'error')) {
    return { ...previous, message: boundMessage(`${previous.message}\n\nthen ${message}`) };
  }
  const crashPath = str(r['crash_path']);
  const crashLine = crashPath !== null && entry.file !== null && relativeFile(crashPath, root) === entry.file ? int(r['crash_line']) : null;
  const line = int(r['frame_line']) ?? crashLine ?? entry.line;
  const assertion = r['assertion'] === true || r['exception'] === null || r['exception'] === undefined;
  const status = when === 'call' && assertion ? 'failed' : 'error';
  return { ...base(entry), line, status, message: boundMessage(message) };
}

function launch(r: JsonObject, state: State): string | null {
  const argv = r['argv'];
  const why = str(r['why']);
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string') || why === null) return 'launch line without argv or why';
  state.ran = { argv: argv as string[], why };
  return null;
}

function collect(r: JsonObject, state: State): string | null {
  const id = str(r['id']) ?? str(r['nodeid']);
  const outcome = str(r['outcome']);
  if (id === null) return 'collect line without node id';
  const abs = str(r['file']);
  const common = { id, name: id, file: abs === null ? null : relativeFile(abs, state.ctx.root), line: int(r['line']) };
  const message = str(r['message']);
  if (outcome === 'skipped') {
    state.outside.set(id, message === null ? { ...common, status: 'skipped' } : { ...common, status: 'skipped', message: boundMessage(message) });
    return null;
  }
  if (outcome !== 'failed') return `collect line with unknown outcome ${JSON.stringify(r['outcome'])}`;
  state.collectErrors += 1;
  state.outside.set(id, { ...common, status: 'error', message: boundMessage(message ?? 'collection failed') });
  return null;
}

/** pytest's exit statuses: 0 passed, 1 tests failed, 2 interrupted (also after
 * collection errors), 3 internal error, 4 usage error, 5 no tests collected. */
function finish(state: State): ParsedReport {
  const warnings = [...state.warnings, ...state.usage.map((m) => `pytest: ${m}`)];
  const tests: TestResult[] = [...state.outside.values()];
  for (const entry of state.entries.values()) {
    // Setup, call and teardown together, as the test took them.
    if (entry.result !== null) tests.push({ ...entry.result, durationMs: Math.round(entry.durationS * 1e6) / 1e3 });
    else if (!entry.tornDown) warnings.push(`pytest stopped while ${entry.id} was running`);
  }
  const status = state.exitStatus;
  const stoppedByCollection = status === 2 && state.collectErrors > 0;
  const complete = status === 0 || status === 1 || status === 5 || stoppedByCollection;
  if (stoppedByCollection && state.entries.size === 0) {
    warnings.push(`pytest ran no tests: it stops after errors during collection (exit 2; --continue-on-collection-errors runs the rest)`);
  } else if (status !== null && !complete) {
    const why = status === 2 ? 'was interrupted' : status === 3 ? 'hit an internal error' : status === 4 ? 'stopped with a usage error' : 'ended';
    warnings.push(`pytest ${why} (exit status ${status}); the log has its output`);
  }
  return {
    tests, complete, warnings,
    ...(state.ran === undefined ? {} : { ran: state.ran }),
    ...(state.unusable === undefined ? {} : { unusable: state.unusable }),
  };
}
