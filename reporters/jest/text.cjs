'use strict';
/* Failure text as run-tests shows it, shared by the jest and vitest reporters: colours
 * removed, and for jest, whose failure messages end with the stack, its frames. */

/** Colours, cursor moves and OSC-8 links (their text kept): node's own stripper. */
const stripAnsi = (text) => require('node:util').stripVTControlCharacters(text);

/** `at fn (/a b/c.js:12:5)`, `at /a/b.js:12:5`, `at async file:///a/b.mjs:3:1` (paths
 * with spaces too, as src/ecosystems/node/stack.ts reads them with stack-utils), and
 * `at new Promise (<anonymous>)`. */
const FRAME = /^\s*at .+:\d+:\d+\)?\s*$|^\s+at .*\(<anonymous>\)$/;
const withoutFrames = (text) => text.split('\n').filter((line) => !FRAME.test(line)).join('\n').trim();

/** Drops the runner's own frames (node_modules, node internals): the reader needs only
 * the frames in the test file, and the report stays small. */
const trimStack = (text) => text.split('\n').filter((l) => !/^\s+at .*(?:\/node_modules\/|\(node:)/.test(l)).join('\n');

/** jest's failure messages without colours and frames, joined; an expect() failure's
 * "Error: " prefix says nothing (an exception's class is the news). Null when empty. */
function failureText(messages, assertion) {
  const text = messages.map((m) => {
    const shown = withoutFrames(stripAnsi(m));
    return assertion ? shown.replace(/^Error: /, '') : shown;
  }).join('\n\n');
  return text === '' ? null : text;
}

module.exports = { stripAnsi, withoutFrames, trimStack, failureText };
