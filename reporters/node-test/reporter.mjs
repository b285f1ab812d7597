// The run-tests reporter for `node --test`: turns node's test events into the event
// format (schema/events.schema.json; the reader is src/runners/node-test/events.ts).
// Node runs it in the parent process, so nothing of it reaches the test files' processes.
//
// Node reports a parent after its children, each at its nesting level. Only leaves
// count (an `it`, or a test without subtests); a suite or a parent test is a result
// only when it failed on its own (a hook, an error in its body, a timeout), and then
// the children it cancelled are left out. So the results of a top-level test are
// written when it ends, once its ancestors' kinds (suite or test) make their ids.
// Tests that --test-only or --test-name-pattern filtered out are reported by node 20 as
// skipped with a fixed reason, and node counts them: so do we, with that reason. Only
// the tests outside run-tests' own selection (--name, a rerun: the module's URL then
// says `?selection`) are left out. A failure of a whole file (it failed
// to load, or its process exited early), of a describe block or of a parent test is
// file-level: id = file.
import path from 'node:path';
import errors from '../shared/errors.cjs';

const { failure, failureMessage, text } = errors;

/** node 20's reason for a test --test-name-pattern did not select. */
const NAME_FILTERED = 'test name does not match pattern';
/** The pattern is run-tests' selection: a test it did not select is not in the run. */
const SELECTING = new URL(import.meta.url).searchParams.has('selection');
const STDERR_LINES = 40;
const cwd = process.cwd();

/** Root-relative (node --test runs in the project's root), as ids need it. */
const relative = (file) => (typeof file === 'string' && file.startsWith(`${cwd}${path.sep}`) ? file.slice(cwd.length + 1).split(path.sep).join('/') : file);

export default async function* runTestsReporter(source) {
  yield line({ event: 'run_start', schema: 1, runner: 'node-test', runner_version: process.versions.node, pid: process.pid });
  const run = { frames: [], silentFiles: [], stderrFile: null, stderr: [] };
  for await (const event of source) {
    for (const written of onEvent(run, event.type, event.data ?? {})) yield line(written);
  }
  const warnings = run.silentFiles.length === 0 ? [] : [`${run.silentFiles.length} test file(s) reported no tests: ${run.silentFiles.sort().join(', ')}; `
    // Node 20 shows both as a passing file: its process exited with code 0 and reported nothing.
    + 'such a file holds no tests, or a test in it ended its process with exit code 0 (process.exit(0)) before node saw a result'];
  yield line({ event: 'run_end', pid: process.pid, ...(warnings.length > 0 ? { warnings } : {}) });
}

const line = (event) => `${JSON.stringify(event)}\n`;

function onEvent(run, type, data) {
  switch (type) {
    case 'test:stderr':
      // stderr of the file that reports now: node reports files one after another, and a
      // file-level failure (a load error, process.exit) is explained by what it printed.
      if (data.file !== run.stderrFile) {
        run.stderrFile = data.file;
        run.stderr = [];
      }
      run.stderr.push(String(data.message ?? ''));
      if (run.stderr.length > STDERR_LINES) run.stderr.shift();
      return [];
    case 'test:start':
      if (!Number.isInteger(data.nesting) || typeof data.name !== 'string') return [];
      run.frames.length = data.nesting;
      run.frames[data.nesting] = newFrame(data.name);
      return data.nesting === 0 ? [{ event: 'test_start', name: isFileLevel(data) ? relative(data.file) : data.name, file: data.file ?? null }] : [];
    case 'test:pass':
    case 'test:fail':
      if (!Number.isInteger(data.nesting) || typeof data.name !== 'string') return [];
      return finished(run, data, type === 'test:fail' ? nodeError(data.details?.error) : null);
    default:
      return [];
  }
}

const newFrame = (name) => ({ name, kind: null, hasChildren: false, pending: [] });

/** The test node made for a whole file: its name is the path it was given. */
const isFileLevel = (data) => data.nesting === 0 && Boolean(data.file) && path.resolve(data.name) === data.file;

/** A test (or suite) ended: its own result, if it has one, joins its children's, and
 * all of them move up to its parent, or out once the top level ends. */
function finished(run, data, error) {
  const { nesting } = data;
  let frame = run.frames[nesting];
  if (frame === undefined || frame.name !== data.name) frame = newFrame(data.name);
  frame.kind = data.details?.type ?? 'test';
  // Array.from, not map: frames may have holes (a nesting level never reported), which map skips.
  const chain = Array.from({ length: Math.min(nesting, run.frames.length) }, (_, i) => run.frames[i] ?? newFrame(`(nesting ${i})`));
  const own = ownResult(run, data, frame, [...chain, frame], error);
  let results = frame.pending;
  // A parent that failed on its own explains the children it cancelled.
  if (own !== null && frame.hasChildren) results = results.filter((p) => !p.cancelled);
  if (own !== null) results = [...results, own];
  run.frames.length = nesting;
  if (nesting === 0) return results.map((pending) => pending.make(idOf(data.file, pending.chain)));
  const parent = (run.frames[nesting - 1] ??= newFrame(`(nesting ${nesting - 1})`));
  parent.hasChildren = true;
  for (const result of results) parent.pending.push(result);
  return [];
}

/** `<file>::[[describe names…],[test names…]]` (src/runners/node-test/id.ts reads it):
 * ancestors that are describe blocks come first; the rest are tests and subtests. */
function idOf(file, chain) {
  const firstTest = chain.findIndex((f) => f.kind !== 'suite');
  const split = firstTest === -1 ? chain.length - 1 : firstTest;
  return `${relative(file) ?? ''}::${JSON.stringify([chain.slice(0, split).map((f) => f.name), chain.slice(split).map((f) => f.name)])}`;
}

const str = (value) => (typeof value === 'string' ? value : null);

/** A thrown value as node gives it, its own fields only (node's errors have them). */
function describe(value) {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return { name: null, code: null, message: text(String(value)), stack: null };
  return { name: str(value.name), code: str(value.code), message: text(str(value.message)), stack: text(str(value.stack)) };
}

/** A failure as node reports it: its wrapper (ERR_TEST_FAILURE, whose own stack points
 * into node's test runner) and what the test threw (`cause`), when there is one. */
function nodeError(error) {
  const r = typeof error === 'object' && error !== null ? error : {};
  const wrapper = describe(r);
  const cause = describe(r.cause);
  // Node makes the cause its own message when nothing was thrown (a file's process failed).
  const hasCause = cause !== null && (cause.stack !== null || cause.name !== null || (cause.message !== null && cause.message !== wrapper.message));
  return {
    failureType: typeof r.failureType === 'string' ? r.failureType : null,
    exitCode: typeof r.exitCode === 'number' ? r.exitCode : null,
    signal: typeof r.signal === 'string' ? r.signal : null,
    wrapper,
    cause: hasCause ? cause : null,
  };
}

function ownResult(run, data, frame, chain, error) {
  const { skip, todo } = data;
  if (SELECTING && skip === NAME_FILTERED) return null;
  const file = data.file ?? null;
  if (isFileLevel(data)) return fileResult(run, data, chain, error);
  const base = {
    name: chain.map((f) => f.name).join(' > '),
    path: chain.map((f) => f.name),
    file,
    line: Number.isInteger(data.line) ? data.line : null,
    duration_ms: typeof data.details?.duration_ms === 'number' ? Math.round(data.details.duration_ms * 1000) / 1000 : null,
  };
  const end = (fields, cancelled = false) => ({ chain, cancelled, make: (id) => ({ event: 'test_end', id, ...base, ...fields }) });
  if (frame.hasChildren || frame.kind === 'suite') {
    if (error === null || error.failureType === 'subtestsFailed') return null;
    // A describe or a parent test that failed on its own: only its whole file reruns
    // it, and any test of that file running again answers for it.
    return { chain, cancelled: false, make: () => ({ event: 'test_end', ...base, id: relative(file) ?? base.name, ...failed(error) }) };
  }
  if (todo !== undefined && todo !== false) {
    const why = typeof todo === 'string' ? `todo: ${todo}` : 'todo';
    return end({ status: 'skipped', message: error ? `${why} (failed: ${failed(error).message})` : why });
  }
  if (skip !== undefined && skip !== false) return end({ status: 'skipped', message: typeof skip === 'string' ? skip : 'skipped' });
  if (error === null) return end({ status: 'passed' });
  return end(failed(error), error.failureType === 'cancelledByParent');
}

/** status, message and stack of a failed test. */
function failed(error) {
  const { cause } = error;
  if (cause === null) return { status: 'error', message: failureMessage(error.wrapper), stack: null };
  // "failed running before hook": which hook matters as much as what it threw.
  const hook = error.failureType === 'hookFailed' && error.wrapper.message ? `${error.wrapper.message}: ` : '';
  const { status, message } = failure(cause);
  return { status: hook === '' ? status : 'error', message: hook + message, stack: cause.stack };
}

/** A whole file's test: nothing when it passed (a file without tests, or one that
 * exited with code 0 early: said in a warning), else an error entry for the file. */
function fileResult(run, data, chain, error) {
  if (error === null) {
    run.silentFiles.push(relative(data.file));
    return null;
  }
  const stderr = run.stderrFile === data.file ? run.stderr.join('') : null;
  const printed = stderrError(stderr);
  const event = { event: 'error', name: relative(data.file), file: data.file, message: fileMessage(error, printed), stack: error.cause?.stack ?? printed?.stack ?? null };
  return { chain, cancelled: false, make: () => event };
}

/** Why a whole file failed: what its process printed as it died, else how it exited. */
function fileMessage(error, printed) {
  if (error.cause !== null) return failed(error).message;
  if (printed !== null) return printed.message;
  if (error.signal !== null) return `the test file's process was killed by ${error.signal} before all its tests were reported`;
  return `the test file's process exited with code ${String(error.exitCode)} before all its tests were reported (a test may have called process.exit)`;
}

/** The uncaught error node printed on stderr: the lines before its first stack frame. */
function stderrError(stderr) {
  if (stderr === null) return null;
  const lines = stderr.split('\n');
  const firstFrame = lines.findIndex((l) => /^\s+at /.test(l));
  if (firstFrame <= 0) return null;
  let start = firstFrame;
  while (start > 0 && (lines[start - 1] ?? '').trim() !== '') start -= 1;
  const message = lines.slice(start, firstFrame).join('\n').trim();
  if (message === '') return null;
  return { message: text(message), stack: text([lines[0] ?? '', ...lines.slice(firstFrame)].join('\n')) };
}
