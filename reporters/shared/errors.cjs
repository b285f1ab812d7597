'use strict';
// What a thrown value says, for the reporters that run in node (mocha, node:test):
// whether it is an assertion failure or an error, and its message as a stack shows it.
// Never the value itself: it may be huge or circular.

const TEXT_LIMIT = 16 * 1024;

const text = (value) => (typeof value === 'string' ? value.slice(0, TEXT_LIMIT) : null);

/** The error's class as its stack's first line names it: `TypeError: …`, `Error`,
 * `AssertionError [ERR_ASSERTION]: …` (node puts a code between them). */
function nameInStack(stack) {
  const match = typeof stack === 'string' ? /^([A-Za-z_$][\w$]*)(?: \[[^\]\n]*\])?(?::|\n|$)/.exec(stack) : null;
  return match ? match[1] : null;
}

/** { name, code, message, stack } of a thrown value. An error that crossed a process
 * (mocha's parallel mode) is a plain object with no name of its own, whose stack still
 * starts with it ("Error: hook broke"). */
function describeError(error) {
  if (error === null || typeof error !== 'object') {
    return { name: null, code: null, message: text(String(error)), stack: null };
  }
  let name = null;
  try {
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

/** node:assert's and chai's AssertionError (and anything with code ERR_ASSERTION) is an
 * assertion failure; every other exception is an error. */
const isAssertion = (described) =>
  described !== null && (described.code === 'ERR_ASSERTION' || /^AssertionError\b/.test(described.name ?? ''));

/** An assertion's message as is; an exception's prefixed with its class, as a stack shows it. */
function failureMessage(described, fallback = 'failed without a message') {
  if (described === null) return fallback;
  const message = (described.message ?? '').replace(/\s+$/, '');
  if (isAssertion(described)) return message !== '' ? message : described.name ?? fallback;
  const name = described.name ?? '';
  return name !== '' && message !== '' ? `${name}: ${message}` : message || name || fallback;
}

/** The status and message of a test that threw `described`. */
const failure = (described) => ({ status: isAssertion(described) ? 'failed' : 'error', message: failureMessage(described) });

module.exports = { describeError, failure, failureMessage, isAssertion, text };
