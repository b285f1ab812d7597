/* run-tests' vitest reporter: writes the one event format (schema/events.schema.json),
 * one JSON line per event, batched by ../shared/jsonl-writer.cjs (on disk within ~100 ms,
 * and at process exit), so a run that dies leaves the evidence of every file that started
 * and every test that finished; what a kill can lose is said there. Read by
 * src/runners/vitest/events.ts.
 * Errors keep their own message (vitest's JSON reporter drops "Test timed out …"), and
 * their stack is written as the source-mapped frames vitest found, so a TypeScript test
 * points at its .ts line. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JsonlWriter } from '../shared/jsonl-writer.cjs';
import { stripAnsi } from '../jest/text.cjs';

const NAME_SEPARATOR = ' > ';

/** `at fn (/abs/file.ts:15:27)`, `at /abs/file.ts:15:27`, `at file:///abs/file.js:3:9`. */
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/;

/** The frames of a stack vitest 3 left unparsed (it parses them for its UI only), but
 * already source-mapped. */
function framesOf(stack) {
  const found = [];
  for (const line of typeof stack === 'string' ? stack.split('\n') : []) {
    const m = FRAME.exec(line);
    if (m) found.push({ file: m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1], line: Number(m[2]), column: Number(m[3]) });
  }
  return found;
}

/** The error's frames as a stack (vitest 4 parses and source-maps them into `stacks`),
 * without the runner's own frames, as vitest 4 drops them. */
function stackOf(errors) {
  const lines = [];
  for (const e of errors) {
    for (const f of Array.isArray(e?.stacks) ? e.stacks : framesOf(e?.stack)) {
      if (typeof f.file === 'string' && !f.file.includes('/node_modules/') && !f.file.startsWith('node:')) lines.push(`    at ${f.file}:${f.line}:${f.column}`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : null;
}

const isAssertion = (e) => e?.name === 'AssertionError';

/** Assertions show their message; any other error its class too. */
function errorText(errors) {
  const text = errors.map((e) => {
    const message = stripAnsi(String(e?.message ?? e ?? '')).trim();
    const kind = typeof e?.name === 'string' ? e.name : '';
    return isAssertion(e) || kind === '' ? message : `${kind}: ${message}`;
  }).join('\n\n');
  return text === '' ? 'failed without a message' : text;
}

/** A failed test's text as vitest shows it: the message, vitest's diff of expected and
 * received, and a code frame of the failing line (vitest's layout: `15|` lines and a caret;
 * vitest makes its own only when it prints). */
function failureText(errors) {
  const diff = typeof errors[0]?.diff === 'string' ? stripAnsi(errors[0].diff).trim() : '';
  return [errorText(errors), diff, codeFrame(errors[0]) ?? ''].filter((part) => part !== '').join('\n\n');
}

/** Two lines either side of where the error was thrown in the project (its first frame
 * outside node_modules), with a caret under the column. */
function codeFrame(error) {
  const frames = Array.isArray(error?.stacks) ? error.stacks : framesOf(error?.stack);
  const at = frames.find((f) => typeof f.file === 'string' && !f.file.includes('/node_modules/') && !f.file.startsWith('node:'));
  if (!at || !(at.line > 0)) return null;
  let lines;
  try {
    lines = fs.readFileSync(at.file, 'utf8').split('\n');
  } catch {
    return null;
  }
  if (at.line > lines.length) return null;
  const first = Math.max(1, at.line - 2);
  const last = Math.min(lines.length, at.line + 2);
  const width = String(last).length;
  const shown = [];
  for (let n = first; n <= last; n += 1) {
    const text = lines[n - 1].replace(/\s+$/, '');
    shown.push(`${String(n).padStart(width)}|${text === '' ? '' : ` ${text}`}`);
    if (n === at.line) shown.push(`${' '.repeat(width)}| ${' '.repeat(Math.max(0, (at.column ?? 1) - 1))}^`);
  }
  return shown.join('\n');
}

/** Names from the outermost describe down to the test (the file is not one of them). */
function titles(task) {
  const names = [];
  for (let t = task; t && t.type !== 'module'; t = t.parent) names.unshift(t.name);
  return names;
}

function status(state, errors) {
  if (state === 'passed') return 'passed';
  if (state === 'skipped' || state === 'pending') return 'skipped';
  // An unknown state is written as is: the reader warns and ignores the line.
  if (state !== 'failed') return state;
  return isAssertion(errors[0]) ? 'failed' : 'error';
}

export default class RunTestsVitestReporter {
  constructor(output) {
    // Appended: a rerun may run vitest twice into one report (run-tests deletes it before a run).
    this.out = new JsonlWriter(output, 'vitest reporter');
    /** Modules vitest started: one that never started may have a load error to report. */
    this.started = new Set();
    this.leftOut = 0;
    this.errors = 0;
  }

  onInit(vitest) {
    const pattern = vitest.config.testNamePattern;
    this.namePattern = pattern ? new RegExp(pattern) : null;
    this.version = typeof vitest.version === 'string' ? vitest.version : null;
  }

  /** A test the name filter left out is not a result: vitest reports it as skipped. As
   * vitest matches it: the suites and title joined by spaces. */
  deselected(test) {
    return this.namePattern != null && test.result().state === 'skipped' && !this.namePattern.test(titles(test).join(' '));
  }

  onTestRunStart(specifications) {
    this.out.write({ event: 'run_start', schema: 1, runner: 'vitest', runner_version: this.version ?? null, pid: process.pid, files: specifications.length });
  }

  onTestModuleStart(module) {
    this.started.add(module);
    this.out.write({ event: 'file_start', file: module.moduleId });
  }

  onTestCaseReady(test) {
    this.out.write({ event: 'test_start', name: titles(test).join(NAME_SEPARATOR), file: test.module.moduleId });
  }

  onTestCaseResult(test) {
    if (this.deselected(test)) {
      this.leftOut += 1;
      return;
    }
    const result = test.result();
    const errors = result.errors ?? [];
    const failed = result.state === 'failed';
    this.out.write({
      event: 'test_end',
      name: titles(test).join(NAME_SEPARATOR),
      file: test.module.moduleId,
      line: test.location?.line ?? null,
      status: status(result.state, errors),
      duration_ms: test.diagnostic()?.duration ?? null,
      message: failed ? failureText(errors) : null,
      stack: failed ? stackOf(errors) : null,
    });
  }

  /** A module's own errors (it failed to load) and those of suites whose hooks failed. */
  writeErrors(module) {
    const file = module.moduleId;
    const own = module.errors();
    if (own.length > 0) this.error({ kind: 'load', file, message: errorText(own), stack: stackOf(own) });
    for (const suite of module.children.allSuites()) {
      const errors = suite.errors();
      if (errors.length === 0) continue;
      // Named by the suite, not a test: the rules give it its file's id (-t cannot select a suite).
      this.error({ kind: 'hook', name: titles(suite).join(NAME_SEPARATOR), file, line: suite.location?.line ?? null, message: errorText(errors), stack: stackOf(errors) });
    }
  }

  error(fields) {
    this.errors += 1;
    this.out.write({ event: 'error', ...fields });
  }

  onTestModuleEnd(module) {
    this.writeErrors(module);
    this.out.write({ event: 'file_end', file: module.moduleId });
  }

  onTestRunEnd(modules, unhandledErrors, reason) {
    // vitest 3 never starts nor ends a module that failed to load: its error is known here
    // only. A module that started and never ended stays so: the evidence of a crash.
    for (const module of modules) if (!this.started.has(module) && module.errors().length > 0) this.writeErrors(module);
    for (const e of unhandledErrors) this.error({ id: 'unhandled error', name: 'unhandled error', message: errorText([e]), stack: stackOf([e]) });
    this.out.write({ event: 'run_end', pid: process.pid, totals: this.totals(modules), interrupted: reason === 'interrupted' });
    this.out.close();
  }

  /** vitest's own count of the tests that finished, without those -t left out; each
   * error outside a test is one entry. */
  totals(modules) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const { state } = test.result();
        if (state in counts && !this.deselected(test)) counts[state] += 1;
      }
    }
    const tests = counts.passed + counts.failed + counts.skipped;
    return { tests: tests + this.errors, ...counts, errors: this.errors, deselected: this.leftOut };
  }
}
