/* run-tests' vitest reporter: one JSON line per event, batched by ../shared/jsonl-writer.cjs
 * (on disk within ~100 ms, and at process exit), so a run that dies leaves the evidence
 * of every file that started and every test that finished; what a kill can lose is said
 * there. Parsed by src/runners/vitest/events.ts; versioned by the `start` line.
 * Errors keep their own message (vitest's JSON reporter drops "Test timed out …") and
 * their source-mapped stack frames. */
import { fileURLToPath } from 'node:url';
import { JsonlWriter } from '../shared/jsonl-writer.cjs';

const VERSION = 1;

/** `at fn (/abs/file.ts:15:27)`, `at /abs/file.ts:15:27`, `at file:///abs/file.js:3:9`. */
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/;

/** The frames of a stack vitest 3 left unparsed (it parses them for its UI only), but
 * already source-mapped; the runner's own frames dropped, as vitest 4 drops them. */
function framesOf(stack) {
  const found = [];
  for (const line of typeof stack === 'string' ? stack.split('\n') : []) {
    const m = FRAME.exec(line);
    if (!m || m[1].includes('/node_modules/')) continue;
    found.push({ file: m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1], line: Number(m[2]), column: Number(m[3]) });
  }
  return found;
}

/** vitest 4 parses and source-maps an error's frames into `stacks`. */
const frames = (e) => (Array.isArray(e?.stacks) ? e.stacks.map((s) => ({ file: s.file, line: s.line, column: s.column })) : framesOf(e?.stack));

const error = (e) => ({
  name: typeof e?.name === 'string' ? e.name : null,
  message: String(e?.message ?? e ?? ''),
  frames: frames(e),
});

/** Names from the outermost describe down to the test (the file is not one of them). */
function titles(task) {
  const names = [];
  for (let t = task; t && t.type !== 'module'; t = t.parent) names.unshift(t.name);
  return names;
}

export default class RunTestsVitestReporter {
  constructor(output) {
    // Appended: a rerun may run vitest twice into one report (run-tests deletes it before a run).
    this.out = new JsonlWriter(output, 'vitest reporter');
    /** Modules vitest started: one that never started may have a load error to report. */
    this.started = new Set();
  }

  onInit(vitest) {
    const pattern = vitest.config.testNamePattern;
    this.namePattern = pattern ? new RegExp(pattern) : null;
  }

  /** A test the name filter left out is not a result: vitest reports it as skipped. As
   * vitest matches it: the suites and title joined by spaces. */
  deselected(test, titles) {
    return this.namePattern != null && test.result().state === 'skipped' && !this.namePattern.test(titles.join(' '));
  }

  write(record) {
    this.out.write(record);
  }

  onTestRunStart(specifications) {
    this.write({ type: 'start', version: VERSION, pid: process.pid, files: specifications.length });
  }

  onTestModuleStart(module) {
    this.started.add(module);
    this.write({ type: 'file_start', file: module.moduleId });
  }

  onTestCaseReady(test) {
    this.write({ type: 'test_start', file: test.module.moduleId, titles: titles(test) });
  }

  onTestCaseResult(test) {
    const result = test.result();
    if (this.deselected(test, titles(test))) {
      this.leftOut = (this.leftOut ?? 0) + 1;
      return;
    }
    this.write({
      type: 'test',
      file: test.module.moduleId,
      titles: titles(test),
      state: result.state,
      mode: test.options.mode,
      location: test.location ?? null,
      duration: test.diagnostic()?.duration ?? null,
      errors: (result.errors ?? []).map(error),
    });
  }

  onTestModuleEnd(module) {
    const suiteErrors = [];
    for (const suite of module.children.allSuites()) {
      const errors = suite.errors();
      if (errors.length > 0) suiteErrors.push({ titles: titles(suite), location: suite.location ?? null, errors: errors.map(error) });
    }
    this.write({ type: 'file', file: module.moduleId, state: module.state(), errors: module.errors().map(error), suite_errors: suiteErrors });
  }

  onTestRunEnd(modules, unhandledErrors, reason) {
    // vitest 3 never starts nor ends a module that failed to load: its error is known here
    // only. A module that started and never ended stays so: the evidence of a crash.
    for (const module of modules) if (!this.started.has(module) && module.errors().length > 0) this.onTestModuleEnd(module);
    this.write({ type: 'end', reason, files: modules.length, unhandled_errors: unhandledErrors.map(error), deselected: this.leftOut ?? 0 });
    this.out.close();
  }
}
