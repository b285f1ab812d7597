// The run-tests reporter for `node --test`: one JSON line per test event, written as the
// events arrive (see src/runners/node-test/events.ts for the reader). Node runs it in the
// parent process, so nothing of it reaches the test files' processes.
import path from 'node:path';

const TEXT_LIMIT = 16 * 1024;
const STDERR_LINES = 40;

const text = (value) => (typeof value === 'string' ? value.slice(0, TEXT_LIMIT) : null);

/** A thrown value as plain data; node wraps test failures in ERR_TEST_FAILURE with the
 * original in `cause`. */
function describeError(error, depth = 0) {
  if (error === null || error === undefined) return null;
  if (typeof error !== 'object') return { name: null, code: null, message: text(String(error)), stack: null };
  const wrapper = error.code === 'ERR_TEST_FAILURE';
  const described = {
    name: typeof error.name === 'string' ? error.name : null,
    code: typeof error.code === 'string' ? error.code : null,
    message: text(typeof error.message === 'string' ? error.message : null),
    // The wrapper's own stack points into node's test runner, never at a test.
    stack: wrapper ? null : text(typeof error.stack === 'string' ? error.stack : null),
  };
  if (typeof error.failureType === 'string') described.failureType = error.failureType;
  if (error.exitCode !== undefined) described.exitCode = error.exitCode;
  if (error.signal !== undefined) described.signal = error.signal;
  if (depth === 0 && 'cause' in error) described.cause = describeError(error.cause, 1);
  return described;
}

export default async function* runTestsReporter(source) {
  yield `${JSON.stringify({ type: 'run:start', pid: process.pid, node: process.version })}\n`;
  // stderr of the file that reports now: node reports files one after another, and a
  // file-level failure (a load error, process.exit) is explained by what it printed.
  let stderrFile = null;
  let stderr = [];
  for await (const event of source) {
    const data = event.data ?? {};
    switch (event.type) {
      case 'test:stderr':
        if (data.file !== stderrFile) {
          stderrFile = data.file;
          stderr = [];
        }
        stderr.push(String(data.message ?? ''));
        if (stderr.length > STDERR_LINES) stderr.shift();
        break;
      case 'test:start':
        yield line({ type: event.type, name: data.name, nesting: data.nesting, file: data.file ?? null, line: data.line ?? null });
        break;
      case 'test:pass':
      case 'test:fail': {
        const record = {
          type: event.type,
          name: data.name,
          nesting: data.nesting,
          file: data.file ?? null,
          line: data.line ?? null,
          column: data.column ?? null,
          kind: data.details?.type ?? 'test',
          duration_ms: data.details?.duration_ms ?? null,
        };
        if (data.skip !== undefined) record.skip = data.skip;
        if (data.todo !== undefined) record.todo = data.todo;
        if (event.type === 'test:fail') record.error = describeError(data.details?.error);
        // The test node made for a whole file: its name is the path it was given.
        if (data.nesting === 0 && typeof data.name === 'string' && data.file && path.resolve(data.name) === data.file) {
          record.file_level = true;
          if (event.type === 'test:fail' && stderrFile === data.file) record.stderr = stderr.join('');
        }
        yield line(record);
        break;
      }
      default:
        break;
    }
  }
  yield line({ type: 'run:end' });
}

const line = (record) => `${JSON.stringify(record)}\n`;
