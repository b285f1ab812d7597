/** Parses go's output as run-tests copies it into the report: `go test -json` events
 * and go's plain text (build failures), whole lines, for one or more go commands. The
 * module path (ctx.hints.module, from go.mod) places `file_test.go:12:` in its package.
 *
 * Only leaf tests count: a parent whose failure is its child's is neither counted nor
 * listed. Ids are `<import path> <test name>` (neither part can hold a space: go
 * rewrites spaces in test names to `_`), or the import path alone for a package-level
 * entry (a build failure, a package that failed outside any test); the go adapter
 * turns them back into exact `-run` selections. */
import type { FailedTest, ParseContext, ParsedReport, RunningTest, TestResult } from '../../model/results.js';
import { boundMessage, lastLines, MESSAGE_LIMIT_BYTES, preview, TAIL_LINES } from '../../parsers/fields.js';
import { decode, readEvent, readTestOutput, type GoEvent, type TestOutput } from './event.js';
import { goTestId } from './id.js';
import { packageDirOf } from './package.js';
import { BuildFailures, failureLocation, messageOf, packageOfBuild, panicked, panicStack, timedOutAfter } from './text.js';
import { prefixLocation } from '../../parsers/go-output.js';
import { NestedRuns } from './nested.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

type Base = Pick<FailedTest, 'id' | 'name' | 'file' | 'line' | 'durationMs' | 'suite'>;


/** A test that runs, or that failed (a test that passed or was skipped is forgotten: its
 * result is all that is left of it). */
interface TestState {
  readonly name: string;
  /** Its output events, each as its JSON string literal, in order, while it runs. */
  readonly output: string[];
  done: boolean;
  /** Once done: its output showed a panic (which ends the package's test binary). */
  panicked: boolean;
  hasChildren: boolean;
  hasFailedChild: boolean;
}

interface PackageState {
  readonly path: string;
  readonly tests: Map<string, TestState>;
  readonly output: string[];
  readonly nested: NestedRuns;
  done: boolean;
  results: number;
  failures: number;
  /** go replayed the package's result from its test cache (`ok pkg (cached)`). */
  cached: boolean;
  /** The package's final event's Elapsed: its test binary's run, to the ms (null until then). */
  elapsedMs: number | null;
}

const IGNORED_ACTIONS = new Set(['start', 'bench']);
/** go's last line for a package whose result it replayed from its test cache. */
const CACHED = /^ok\s+\S+\s+\(cached\)/;

export const createGoJsonParser: ParserFactory = (ctx) => {
  const stream = new GoStream(ctx);
  return lineParser({
    line: (text, lineNo, cutOff) => stream.line(text, lineNo, cutOff),
    end: () => stream.end(),
    finished: () => stream.results.size,
    live: () => ({ tests: stream.added, total: null, files: null }),
  });
};

export const parseGoJson = (text: string, ctx: ParseContext): ParsedReport => parseText(createGoJsonParser, text, ctx);

class GoStream {
  readonly results = new Map<string, TestResult>();
  /** Every result as it was added, for the live display (one that is dropped later, a
   * nested run's, stays here: the report is what counts). */
  readonly added: TestResult[] = [];
  private readonly packages = new Map<string, PackageState>();
  private readonly build: BuildFailures;
  private readonly warnings: string[] = [];
  private readonly unknownActions = new Set<string>();
  private readonly stray: string[] = [];
  private readonly module: string | null;
  private cutOff = false;

  constructor(private readonly ctx: ParseContext) {
    this.build = new BuildFailures(ctx);
    this.module = ctx.hints?.module ?? null;
  }

  line(raw: string, lineNo: number, cutOff: boolean): void {
    if (cutOff) {
      // The writer stopped mid-line: whatever the fragment says cannot be trusted.
      this.cutOff = true;
      this.warnings.push(`line ${lineNo}: cut off mid-line, ignored: ${preview(raw)}`);
      return;
    }
    // No trim per line unless needed: a large run has hundreds of thousands.
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.charCodeAt(0) !== 123) { // 123: '{'
      // `run-tests: timed out …`: run-tests' own marker lines in the log, which is go's report.
      if (line.trim() !== '' && !line.startsWith('run-tests: ') && !this.build.text(line)) this.stray.push(line);
      return;
    }
    // A running test's output is kept as it came, for when the test fails.
    const output = readTestOutput(line);
    if (output !== null && this.appendOutput(output)) return;
    const event = readEvent(line);
    if (event === undefined) {
      if (!this.build.text(line)) this.stray.push(line);
      return;
    }
    this.event(event, line, lineNo);
  }

  end(): ParsedReport {
    const ran = (pkg: string) => (this.packages.get(pkg)?.results ?? 0) > 0;
    const buildFailures = this.build.entries(ran);
    for (const entry of buildFailures) this.results.set(entry.id, entry);
    if (this.stray.length > 0) {
      this.warnings.push(`${this.stray.length} line(s) of go's output were neither test events nor build errors, e.g. ${preview(this.stray[0] ?? '')}`);
    }
    const unfinished = [...this.packages.values()].filter((p) => !p.done).map((p) => p.path);
    if (unfinished.length > 0) this.warnings.push(`go did not finish package(s) ${unfinished.join(', ')}`);
    // Complete: go reported on something, every package it started ended, nothing cut off.
    const reported = this.packages.size > 0 || buildFailures.length > 0;
    const complete = reported && !this.cutOff && unfinished.length === 0;
    const packages = [...this.packages.values()].map((p) => ({ name: p.path, cached: p.cached, ...(p.elapsedMs === null ? {} : { elapsed_ms: p.elapsedMs }) }));
    const cached = packages.filter((p) => p.cached).length;
    const notes = cached === 0 ? [] : [`${cached} of ${packages.length} packages replayed from go's test cache (--no-cache runs them afresh)`];
    return { tests: [...this.results.values()], complete, warnings: this.warnings, packages, notes, ...(complete || this.packages.size === 0 ? {} : { running: this.running() }) };
  }

  /** The tests of unfinished packages that started (`run`) and never ended, innermost
   * only: a parent runs as long as its subtest. go names no file for a test. */
  private running(): RunningTest[] {
    return [...this.packages.values()].filter((p) => !p.done).flatMap((pkg) => {
      const open = [...pkg.tests.values()].filter((t) => !t.done);
      return open.filter((t) => !open.some((o) => o.name.startsWith(`${t.name}/`))).map((t) => ({ name: t.name, file: null }));
    });
  }

  private event(event: GoEvent, line: string, lineNo: number): void {
    const { action, test: name } = event;
    if (action === 'build-output' || action === 'build-fail') {
      // Go 1.21+: build output as events, keyed by the build action's import path.
      const pkg = packageOfBuild(event.importPath ?? '');
      if (action === 'build-fail') this.build.markFailed(pkg);
      else for (const text of (event.output === null ? '' : decode(event.output)).split('\n')) if (text.trim() !== '') this.build.text(text, pkg);
      return;
    }
    if (action === null || event.package === null) {
      this.warnings.push(`line ${lineNo}: a go test event without Action or Package, ignored: ${preview(line)}`);
      return;
    }
    const pkg = this.package(event.package);
    if (IGNORED_ACTIONS.has(action)) return;
    if (action === 'run' && name !== null) return void this.run(pkg, name);
    if ((action === 'pause' || action === 'cont') && name !== null) {
      if (!name.includes('/')) pkg.nested[action](name);
      return;
    }
    if (action === 'output') {
      const output = event.output ?? '""';
      const test = name === null ? undefined : pkg.tests.get(name);
      if (test !== undefined) return void test.output.push(output);
      const text = decode(output);
      pkg.output.push(text);
      if (CACHED.test(text)) pkg.cached = true;
      this.build.packageOutput(text);
      return;
    }
    if (action === 'pass' || action === 'fail' || action === 'skip') {
      if (name !== null) this.finishTest(pkg, this.test(pkg, name), action, event.elapsed);
      else this.finishPackage(pkg, action, event.failedBuild, event.elapsed);
      return;
    }
    if (!this.unknownActions.has(action)) {
      this.unknownActions.add(action);
      this.warnings.push(`line ${lineNo}: unknown go test action ${JSON.stringify(action)}, ignored`);
    }
  }

  /** False when the output is not a running test's (the event then goes the long way). */
  private appendOutput({ package: path, test: name, output }: TestOutput): boolean {
    const test = this.packages.get(path)?.tests.get(name);
    if (test === undefined) return false;
    test.output.push(output);
    return true;
  }

  private package(path: string): PackageState {
    let pkg = this.packages.get(path);
    if (!pkg) this.packages.set(path, (pkg = { path, tests: new Map(), output: [], nested: new NestedRuns(), done: false, results: 0, failures: 0, cached: false, elapsedMs: null }));
    return pkg;
  }

  private test(pkg: PackageState, name: string): TestState {
    let test = pkg.tests.get(name);
    if (!test) pkg.tests.set(name, (test = { name, output: [], done: false, panicked: false, hasChildren: false, hasFailedChild: false }));
    return test;
  }

  private run(pkg: PackageState, name: string): void {
    this.test(pkg, name);
    if (!name.includes('/')) pkg.nested.run(name);
    for (const parent of ancestors(pkg, name)) parent.hasChildren = true;
  }

  private finishTest(pkg: PackageState, test: TestState, action: 'pass' | 'fail' | 'skip', elapsed: number | null): void {
    test.done = true;
    if (!test.name.includes('/')) this.dropNested(pkg, test.name, pkg.nested.end(test.name));
    if (action === 'fail') for (const parent of ancestors(pkg, test.name)) parent.hasFailedChild = true;
    // A parent counts only when it failed on its own (no child failed): that failure is its own.
    if (test.hasChildren && (action !== 'fail' || test.hasFailedChild)) {
      // A panic fails its test, so a parent that passed or was skipped did not panic,
      // whatever its output says: it is not read.
      if (action !== 'fail') return void pkg.tests.delete(test.name);
      return this.settle(test, test.output.map(decode));
    }
    const id = goTestId(pkg.path, test.name);
    if (action === 'pass') {
      // Built whole, without spreads: most results are passes, and large runs have many.
      this.add(pkg, elapsed === null
        ? { id, name: test.name, file: null, line: null, suite: pkg.path, status: 'passed' }
        : { id, name: test.name, file: null, line: null, durationMs: Math.round(elapsed * 1000), suite: pkg.path, status: 'passed' });
      // It has served: memory stays with the tests still running and those that failed.
      pkg.tests.delete(test.name);
      return;
    }
    const base: Base = { id, name: test.name, file: null, line: null, suite: pkg.path, ...(elapsed === null ? {} : { durationMs: Math.round(elapsed * 1000) }) };
    const output = test.output.map(decode);
    if (action === 'skip') {
      this.add(pkg, skipped(this.packageDir(pkg.path), output, base));
      pkg.tests.delete(test.name);
    } else {
      this.add(pkg, this.failed(pkg, output, base));
      this.settle(test, output);
    }
  }

  /** A finished test keeps of its output only whether it panicked, which finishPackage
   * reports; `output` is its output decoded, once. */
  private settle(test: TestState, output: readonly string[]): void {
    test.panicked = panicked(output);
    test.output.length = 0;
  }

  private failed(pkg: PackageState, output: readonly string[], base: Base, extra = ''): FailedTest {
    const at = failureLocation(output, this.packageDir(pkg.path), this.ctx);
    const message = [messageOf(output), extra].filter((m) => m !== '').join('\n') || 'failed without a message';
    return { ...base, ...(at ?? {}), status: panicked(output) ? 'error' : 'failed', message: boundMessage(message), ...panicStack(output, this.ctx) };
  }

  /** The package's final line. Tests still running then were cut off by the package's
   * end (go's own -timeout, a crash): they are errors. A package that failed without
   * any test result (and did build) is one error entry. */
  private finishPackage(pkg: PackageState, action: 'pass' | 'fail' | 'skip', failedBuild: string | null, elapsed: number | null): void {
    pkg.done = true;
    if (elapsed !== null) pkg.elapsedMs = Math.round(elapsed * 1000);
    if (failedBuild !== null) this.build.markFailed(packageOfBuild(failedBuild));
    if (action === 'pass') return this.passPackage(pkg);
    if (action !== 'fail' || failedBuild !== null) return;
    const running = [...pkg.tests.values()].filter((t) => !t.done);
    for (const test of running) {
      if (test.hasFailedChild || running.some((other) => other.name.startsWith(`${test.name}/`))) continue;
      const output = test.output.map(decode);
      const after = timedOutAfter(output) ?? timedOutAfter(pkg.output);
      const why = after === null ? 'the test did not finish: its package ended while it ran' : `go's -timeout (${after}) ended the package while this test ran`;
      const result = this.failed(pkg, output, { id: goTestId(pkg.path, test.name), name: test.name, file: null, line: null, suite: pkg.path }, why);
      this.add(pkg, { ...result, status: 'error' });
      this.warnings.push(`${pkg.path}: ${why} (${test.name}); its later tests did not run`);
    }
    const panicking = [...pkg.tests.values()].find((t) => t.done && t.panicked);
    if (panicking) this.warnings.push(`${pkg.path}: ${panicking.name} panicked, which ends the test binary; the package's later tests did not run`);
    // go failed the package, and no test says why (TestMain's exit code, init): one error entry.
    if (pkg.failures === 0 && !this.build.has(pkg.path)) this.add(pkg, this.packageFailure(pkg));
  }

  /** Why go failed the package, then the last lines of its output outside any test,
   * whose end (TestMain's teardown, a late panic) says why, as a run's warnings quote
   * the end of its log. */
  private packageFailure(pkg: PackageState): FailedTest {
    const output = pkg.output.filter((o) => !/^(?:PASS\n?$|FAIL\b)/.test(o));
    const at = failureLocation(output, this.packageDir(pkg.path), this.ctx);
    const why = pkg.results === 0
      ? `${pkg.path} failed without reporting a test`
      : `go failed ${pkg.path} after its tests passed (its TestMain's exit code, say)`;
    const said = messageOf(output);
    // Half a message's room for the quote, so that bounding the message keeps its end.
    const tail = lastLines(said, TAIL_LINES, MESSAGE_LIMIT_BYTES / 2);
    const shown = tail.text.split('\n').length;
    const quoted = said === '' ? 'it printed nothing outside its tests'
      : tail.left === 0 ? `its output outside its tests:\n${tail.text}`
      : `the last ${shown} of its ${shown + tail.left} lines of output outside its tests:\n${tail.text}`;
    return {
      id: pkg.path,
      name: `package failed: ${pkg.path}`,
      ...(at ?? { file: null, line: null }),
      suite: pkg.path,
      status: 'error',
      message: boundMessage(`${why}; ${quoted}`),
      outside: true,
    };
  }

  /** go passed the package: that is its verdict. A test it gave no outcome (Go 1.19
   * loses the `pass` of a test whose output lacks a trailing newline) passed; a failure
   * in its stream came from a nested run NestedRuns could not place. */
  private passPackage(pkg: PackageState): void {
    const lost = [...pkg.tests.values()].filter((t) => !t.done && !t.hasChildren);
    for (const test of lost) {
      test.done = true;
      this.add(pkg, { id: goTestId(pkg.path, test.name), name: test.name, file: null, line: null, suite: pkg.path, status: 'passed' });
    }
    if (lost.length > 0) {
      this.warnings.push(`${pkg.path}: go gave no outcome for ${lost.map((t) => t.name).join(', ')} (before Go 1.20 it loses one when a test's output does not end in a newline); its package passed, so counted as passed`);
    }
    if (pkg.failures === 0) return;
    const failed = [...pkg.tests.keys()].filter((name) => isFailing(this.results.get(goTestId(pkg.path, name))));
    for (const name of failed) this.remove(pkg, goTestId(pkg.path, name));
    this.warnings.push(`${pkg.path}: go passed the package, yet its stream says ${failed.join(', ')} failed: events of a nested run, not counted`);
  }

  /** Tests that ran inside `outer` (see NestedRuns): go's verdict on them is outer's own. */
  private dropNested(pkg: PackageState, outer: string, names: readonly string[]): void {
    if (names.length === 0) return;
    // By their results: a test that passed is no longer in pkg.tests.
    const tops = names.map((name) => goTestId(pkg.path, name));
    const ids = [...this.results.keys()].filter((id) => tops.some((top) => id === top || id.startsWith(`${top}/`)));
    const failed = ids.map((id) => this.remove(pkg, id)).filter(isFailing).length;
    this.warnings.push(`${pkg.path}: ${outer} ran ${names.join(', ')} in a nested run (testing.RunTests, testing.MainStart): not counted, ${outer}'s own result is go's verdict on them (${failed} of their results failed)`);
  }

  private add(pkg: PackageState, result: TestResult): void {
    pkg.results += 1;
    if (isFailing(result)) pkg.failures += 1;
    this.results.set(result.id, result);
    this.added.push(result);
  }

  private remove(pkg: PackageState, id: string): TestResult | undefined {
    const result = this.results.get(id);
    if (result === undefined) return undefined;
    this.results.delete(id);
    pkg.results -= 1;
    if (isFailing(result)) pkg.failures -= 1;
    return result;
  }

  /** The package's directory relative to the module root, from the module path the
   * adapter recorded. */
  private packageDir(importPath: string): string | null {
    return packageDirOf(importPath, this.module);
  }
}

const isFailing = (test: TestResult | undefined): boolean => test?.status === 'failed' || test?.status === 'error';

function skipped(packageDir: string | null, output: readonly string[], base: Base): TestResult {
  const message = messageOf(output);
  const at = prefixLocation(output.join('').split('\n'), packageDir);
  return { ...base, ...(at ?? {}), status: 'skipped', ...(message === '' ? {} : { message: boundMessage(message) }) };
}

/** The tests above `name` that ran: `TestA` and `TestA/b` for `TestA/b/c`. */
function ancestors(pkg: PackageState, name: string): TestState[] {
  if (!name.includes('/')) return [];
  const parts = name.split('/');
  return parts.slice(1).flatMap((_, i) => pkg.tests.get(parts.slice(0, i + 1).join('/')) ?? []);
}
