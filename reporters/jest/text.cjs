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

/** Lines without their common indentation, and without blank lines around them. */
function dedent(lines) {
  while (lines.length > 0 && lines[0].trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

/** jest's own code frame of a failure (`> 11 |     expect(…)` and its caret), made by
 * the project's jest-message-util from the failure's stack, as jest prints it; null when
 * the project has none where node finds it from its root, or the stack points nowhere. */
function codeFrame(util, config, failureMessage, testPath) {
  if (util === null) return null;
  try {
    const { stack } = util.separateMessageFromStack(failureMessage);
    const shown = stripAnsi(util.formatStackTrace(stack, config, { noStackTrace: false }, testPath));
    const frame = dedent(shown.split('\n').filter((line) => !FRAME.test(line)));
    return /^\s*> \d+ \|/m.test(frame) ? frame : null;
  } catch {
    return null;
  }
}

/** The project's jest-message-util (jest's dependency, found from the project's root). */
function messageUtil(rootDir) {
  try {
    return require(require.resolve('jest-message-util', { paths: [rootDir] }));
  } catch {
    return null;
  }
}

module.exports = { stripAnsi, withoutFrames, trimStack, failureText, codeFrame, messageUtil };
