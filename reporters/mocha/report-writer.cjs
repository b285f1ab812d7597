'use strict';
// The events file (schema/events.schema.json), one JSON line per event, batched by
// ../shared/jsonl-writer.cjs (on disk within ~100 ms, and at process exit): a test that
// calls process.exit, or a run whose test hangs until the timeout, keeps every line
// written before it; what a kill can lose is said there. Shared by the launcher and the
// reporter (one module instance, so one file descriptor).
const { JsonlWriter } = require('../shared/jsonl-writer.cjs');

let out = null;

function open(path) {
  out = new JsonlWriter(path, 'mocha reporter');
}

function write(event) {
  if (out !== null) out.write(event);
}

/** Writes what is pending at once: run_end never waits for the timer, so a kill just
 * after a finished run cannot make it look incomplete. */
function flush() {
  if (out !== null) out.flush();
}

module.exports = { open, write, flush };
