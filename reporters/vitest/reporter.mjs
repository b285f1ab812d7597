/* run-tests' vitest reporter: one JSON line per event, batched by ../shared/jsonl-writer.cjs
 * (on disk within ~100 ms, and at process exit), so a run that dies leaves the evidence
 * of every file that started and every test that finished; what a kill can lose is said
 * there. Parsed by src/parsers/vitest.ts; versioned by the `start` line.
 * Errors keep their own message (vitest's JSON reporter drops "Test timed out …") and
 * their source-mapped stack frames. */
import { JsonlWriter } from '../shared/jsonl-writer.cjs';

const VERSION = 1;

const frames = (stacks) => (Array.isArray(stacks) ? stacks : []).map((s) => ({ file: s.file, line: s.line, column: s.column }));

const error = (e) => ({
  name: typeof e?.name === 'string' ? e.name : null,
  message: String(e?.message ?? e ?? ''),
  frames: frames(e?.stacks),
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
    this.write({ type: 'file_start', file: module.moduleId });
  }

  onTestCaseReady(test) {
    this.write({ type: 'test_start', file: test.module.moduleId, titles: titles(test) });
  }

  onTestCaseResult(test) {
    const result = test.result();
    if (this.deselected(test, titles(test))) return;
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
    this.write({ type: 'end', reason, files: modules.length, unhandled_errors: unhandledErrors.map(error) });
    this.out.close();
  }
}
