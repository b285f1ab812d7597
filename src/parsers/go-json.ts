/** Parses go's output as run-tests copies it into the report: `go test -json` events
 * and go's plain text (build failures), whole lines, for one or more go commands. The
 * module path (ctx.hints.module, from go.mod) places `file_test.go:12:` in its package.
 *
 * Only leaf tests count: a parent whose failure is its child's is neither counted nor
 * listed. Ids are `<import path> <test name>` (neither part can hold a space: go
 * rewrites spaces in test names to `_`), or the import path alone for a package-level
 * entry (a build failure, a package that failed outside any test); the go adapter
 * turns them back into exact `-run` selections. */
import type { FailedTest, ParseContext, ParsedReport, TestResult } from '../core/types.js';
import { boundMessage, parseJsonObject, preview, str } from './fields.js';
import { packageDirOf } from './go-package.js';
import { BuildFailures, failureLocation, messageOf, packageOfBuild, panicked, prefixLocation, timedOutAfter } from './go-text.js';
import { lineParser, parseText, type ParserFactory } from './stream.js';

type Json = Record<string, unknown>;
type Base = Pick<FailedTest, 'id' | 'name' | 'file' | 'line' | 'durationMs'>;

/** One event of go's stream, whichever way its line was read. */
interface GoEvent {
  readonly action: string | null;
  readonly package: string | null;
  readonly test: string | null;
  readonly elapsed: number | null;
  /** The Output field as its JSON string literal (decoded only where it is needed). */
  readonly output: string | null;
  readonly importPath: string | null;
  readonly failedBuild: string | null;
}

/** go's own encoding of an event (encoding/json of test2json's TestEvent: these fields,
 * in this order), with no escape in Time, Action, Package or Test: nearly every line
 * of a run. Such a line is read by this expression, 4-10x faster than JSON.parse and
 * without building an object; the Output literal it captures is valid JSON (only JSON's
 * escapes, no control characters) and is decoded only for a test whose output is
 * needed: one that failed or was skipped, most tests' output is never read. Every
 * other line goes through JSON.parse. */
const GO_EVENT = /^\{"Time":"[^"\\\u0000-\u001f]*","Action":"([a-z-]+)","Package":"([^"\\\u0000-\u001f]*)"(?:,"Test":"([^"\\\u0000-\u001f]*)")?(?:,"Elapsed":(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?))?(?:,"Output":("(?:[^"\\\u0000-\u001f]|\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4}))*"))?\}$/;

/** The text of an Output literal. */
const decode = (literal: string): string => JSON.parse(literal) as string;

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
  done: boolean;
  results: number;
}

const IGNORED_ACTIONS = new Set(['start', 'pause', 'cont', 'bench']);

export const createGoJsonParser: ParserFactory = (ctx) => {
  const stream = new GoStream(ctx);
  return lineParser({
    line: (text, lineNo, cutOff) => stream.line(text, lineNo, cutOff),
    end: () => stream.end(),
    finished: () => stream.results.size,
  });
};

export const parseGoJson = (text: string, ctx: ParseContext): ParsedReport => parseText(createGoJsonParser, text, ctx);

class GoStream {
  readonly results = new Map<string, TestResult>();
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
      if (line.trim() !== '' && !this.build.text(line)) this.stray.push(line);
      return;
    }
    const m = GO_EVENT.exec(line);
    if (m !== null) {
      // Indexes, not destructuring: that goes through the array's iterator, which costs
      // while this code is still interpreted, as it is for most of a short run's lines.
      const elapsed = m[4];
      return this.event({ action: m[1] ?? null, package: m[2] ?? null, test: m[3] ?? null, elapsed: elapsed === undefined ? null : Number(elapsed), output: m[5] ?? null, importPath: null, failedBuild: null }, line, lineNo);
    }
    const event = parseJsonObject(line);
    if (event === undefined) {
      if (!this.build.text(line)) this.stray.push(line);
      return;
    }
    this.event(fromJson(event), line, lineNo);
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
    return { tests: [...this.results.values()], complete, warnings: this.warnings };
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
    if (action === 'output') {
      const output = event.output ?? '""';
      const test = name === null ? undefined : pkg.tests.get(name);
      if (test !== undefined) return void test.output.push(output);
      const text = decode(output);
      pkg.output.push(text);
      this.build.packageOutput(text);
      return;
    }
    if (action === 'pass' || action === 'fail' || action === 'skip') {
      if (name !== null) this.finishTest(pkg, this.test(pkg, name), action, event.elapsed);
      else this.finishPackage(pkg, action, event.failedBuild);
      return;
    }
    if (!this.unknownActions.has(action)) {
      this.unknownActions.add(action);
      this.warnings.push(`line ${lineNo}: unknown go test action ${JSON.stringify(action)}, ignored`);
    }
  }

  private package(path: string): PackageState {
    let pkg = this.packages.get(path);
    if (!pkg) this.packages.set(path, (pkg = { path, tests: new Map(), output: [], done: false, results: 0 }));
    return pkg;
  }

  private test(pkg: PackageState, name: string): TestState {
    let test = pkg.tests.get(name);
    if (!test) pkg.tests.set(name, (test = { name, output: [], done: false, panicked: false, hasChildren: false, hasFailedChild: false }));
    return test;
  }

  private run(pkg: PackageState, name: string): void {
    this.test(pkg, name);
    for (const parent of ancestors(pkg, name)) parent.hasChildren = true;
  }

  private finishTest(pkg: PackageState, test: TestState, action: 'pass' | 'fail' | 'skip', elapsed: number | null): void {
    test.done = true;
    if (action === 'fail') for (const parent of ancestors(pkg, test.name)) parent.hasFailedChild = true;
    // A parent counts only when it failed on its own (no child failed): that failure is its own.
    if (test.hasChildren && (action !== 'fail' || test.hasFailedChild)) {
      // A panic fails its test, so a parent that passed or was skipped did not panic,
      // whatever its output says: it is not read.
      if (action !== 'fail') return void (test.output.length = 0);
      return this.settle(test, test.output.map(decode));
    }
    const id = `${pkg.path} ${test.name}`;
    if (action === 'pass') {
      // Built whole, without spreads: most results are passes, and large runs have many.
      this.add(pkg, elapsed === null
        ? { id, name: test.name, file: null, line: null, status: 'passed' }
        : { id, name: test.name, file: null, line: null, durationMs: Math.round(elapsed * 1000), status: 'passed' });
      // Its output has served: memory stays with the tests still running.
      test.output.length = 0;
      return;
    }
    const base: Base = { id, name: test.name, file: null, line: null, ...(elapsed === null ? {} : { durationMs: Math.round(elapsed * 1000) }) };
    const output = test.output.map(decode);
    if (action === 'skip') {
      this.add(pkg, skipped(this.packageDir(pkg.path), output, base));
      test.output.length = 0;
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
    return { ...base, ...(at ?? {}), status: panicked(output) ? 'error' : 'failed', message: boundMessage(message) };
  }

  /** The package's final line. Tests still running then were cut off by the package's
   * end (go's own -timeout, a crash): they are errors. A package that failed without
   * any test result (and did build) is one error entry. */
  private finishPackage(pkg: PackageState, action: 'pass' | 'fail' | 'skip', failedBuild: string | null): void {
    pkg.done = true;
    if (failedBuild !== null) this.build.markFailed(packageOfBuild(failedBuild));
    if (action !== 'fail' || failedBuild !== null) return;
    const running = [...pkg.tests.values()].filter((t) => !t.done);
    for (const test of running) {
      if (test.hasFailedChild || running.some((other) => other.name.startsWith(`${test.name}/`))) continue;
      const output = test.output.map(decode);
      const after = timedOutAfter(output) ?? timedOutAfter(pkg.output);
      const why = after === null ? 'the test did not finish: its package ended while it ran' : `go's -timeout (${after}) ended the package while this test ran`;
      const result = this.failed(pkg, output, { id: `${pkg.path} ${test.name}`, name: test.name, file: null, line: null }, why);
      this.add(pkg, { ...result, status: 'error' });
      this.warnings.push(`${pkg.path}: ${why} (${test.name}); its later tests did not run`);
    }
    const panicking = [...pkg.tests.values()].find((t) => t.done && t.panicked);
    if (panicking) this.warnings.push(`${pkg.path}: ${panicking.name} panicked, which ends the test binary; the package's later tests did not run`);
    if (pkg.results === 0 && !this.build.has(pkg.path)) this.add(pkg, this.packageFailure(pkg));
  }

  private packageFailure(pkg: PackageState): FailedTest {
    const output = pkg.output.filter((o) => !/^FAIL\b/.test(o));
    const at = failureLocation(output, this.packageDir(pkg.path), this.ctx);
    return {
      id: pkg.path,
      name: `package failed: ${pkg.path}`,
      ...(at ?? { file: null, line: null }),
      status: 'error',
      message: boundMessage(messageOf(output) || `${pkg.path} failed without reporting a test`),
    };
  }

  private add(pkg: PackageState, result: TestResult): void {
    pkg.results += 1;
    this.results.set(result.id, result);
  }

  /** The package's directory relative to the module root, from the module path the
   * adapter recorded. */
  private packageDir(importPath: string): string | null {
    return packageDirOf(importPath, this.module);
  }
}

/** An event JSON.parse read: a line in another encoder's field order, or with escapes. */
function fromJson(event: Json): GoEvent {
  const output = str(event['Output']);
  return {
    action: str(event['Action']),
    package: str(event['Package']),
    test: str(event['Test']),
    elapsed: typeof event['Elapsed'] === 'number' ? event['Elapsed'] : null,
    output: output === null ? null : JSON.stringify(output),
    importPath: str(event['ImportPath']),
    failedBuild: str(event['FailedBuild']),
  };
}

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
