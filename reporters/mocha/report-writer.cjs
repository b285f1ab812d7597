'use strict';
// One JSON line per event, batched by ../shared/jsonl-writer.cjs (on disk within ~100 ms,
// and at process exit): a test that calls process.exit, or a run whose test hangs until
// the timeout, keeps every line written before it; what a kill can lose is said there.
// Shared by the launcher and the reporter (one module instance, so one file descriptor).
const { JsonlWriter } = require('../shared/jsonl-writer.cjs');

const MESSAGE_LIMIT = 16 * 1024;
let out = null;

function open(path) {
  out = new JsonlWriter(path, 'mocha reporter');
}

function write(record) {
  if (out !== null) out.write(record);
}

/** Writes what is pending at once: the `end` line never waits for the timer, so a kill
 * just after a finished run cannot make it look incomplete. */
function flush() {
  if (out !== null) out.flush();
}

const text = (value) => {
  if (typeof value !== 'string') return null;
  return value.length > MESSAGE_LIMIT ? value.slice(0, MESSAGE_LIMIT) : value;
};

/** What the parser needs of a thrown value: never the value itself (it may be huge or circular). */
function describeError(error) {
  if (error === null || typeof error !== 'object') {
    return { name: null, code: null, message: text(String(error)), stack: null };
  }
  let name = null;
  try {
    // In parallel mode an error reaches the reporter deserialized: a plain object with
    // no name of its own, whose stack still starts with it ("Error: hook broke").
    name = typeof error.name === 'string' ? error.name : nameInStack(error.stack) ?? error.constructor?.name ?? null;
  } catch {
    name = null;
  }
  return {
    name,
    code: typeof error.code === 'string' ? error.code : null,
    message: text(typeof error.message === 'string' ? error.message : String(error)),
    stack: text(error.stack),
  };
}

/** The error's class as its stack's first line names it: `TypeError: …`, `Error`,
 * `AssertionError [ERR_ASSERTION]: …` (node puts a code between them). */
function nameInStack(stack) {
  const match = typeof stack === 'string' ? /^([A-Za-z_$][\w$]*)(?: \[[^\]\n]*\])?(?::|\n|$)/.exec(stack) : null;
  return match ? match[1] : null;
}

module.exports = { open, write, flush, describeError };
