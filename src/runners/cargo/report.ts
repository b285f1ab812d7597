/** Parses cargo's output as run-tests copies it into the report: cargo's stdout
 * (`--message-format json-render-diagnostics`: one JSON line per compiled artifact,
 * then each test binary's libtest JSON events) and its stderr (which binary runs next,
 * which target failed, compiler errors), whole lines, for one or more cargo commands.
 *
 * Ids are `<package> <target selector> <test name>`, e.g. `mixed --test api api_adds`,
 * `mixed --lib tests::adds`, `mixed --doc src/lib.rs - add (line 3)`, or the package
 * alone for a compile error; the cargo adapter turns them back into exact reruns.
 * ctx.hints.workspace (absolute) is where rustc ran, which panic and compiler paths
 * are relative to; it defaults to the project root. */
import path from 'node:path';
import type { FailedTest, ParseContext, ParsedReport, RunningTest, TestResult } from '../../model/results.js';
import { headerTarget, LibtestText } from './libtest-text.js';
import { targetSuite } from './suite.js';
import { classify, Diagnostics, docTestLocation, noteLocation, panicOf, type Location } from './text.js';
import { appendAll, boundMessage, parseJsonObject, preview, relativeFile, str } from '../../parsers/fields.js';
import { lineParser, parseText, type ParserFactory } from '../../parsers/stream.js';

type Json = Record<string, unknown>;

export type TargetKind = 'lib' | 'bin' | 'test' | 'example' | 'bench' | 'doc';

interface Target {
  readonly pkg: string;
  /** Absolute directory of the package's Cargo.toml. */
  readonly dir: string;
  readonly kind: TargetKind;
  readonly name: string;
  readonly src: string;
}

interface Event {
  readonly name: string;
  readonly event: string;
  readonly json: Json;
}

interface Suite {
  run: Run | null;
  readonly started: Set<string>;
  readonly events: Event[];
  done: boolean;
}

/** One test binary cargo announced (`Running …`, `Doc-tests …`). */
interface Run {
  readonly label: string;
  /** The target as the header line alone says it (text output has no artifact lines). */
  readonly header: Target | null;
  /** The binary's file name, or `doc:<crate>`: resolved at the end, since cargo's
   * artifact lines (stdout) may reach the report after its `Running` line (stderr). */
  readonly key: string;
  suite: Suite | null;
  failed: string | null;
  reason: string | null;
}

export const createCargoParser: ParserFactory = (ctx) => {
  const stream = new CargoStream(ctx);
  return lineParser({
    line: (text, lineNo, cutOff) => stream.line(text, lineNo, cutOff),
    end: () => stream.end(),
    finished: () => stream.finished,
  });
};

export const parseCargo = (text: string, ctx: ParseContext): ParsedReport => parseText(createCargoParser, text, ctx);

/** The selector cargo takes for a target: `--lib`, `--doc`, `--test api`. */
export const selectorOf = (kind: TargetKind, name: string): string =>
  kind === 'lib' || kind === 'doc' ? `--${kind}` : `--${kind} ${name}`;

class CargoStream {
  finished = 0;
  private readonly executables = new Map<string, Target>();
  private readonly libs = new Map<string, Target>();
  private readonly runs: Run[] = [];
  private readonly suites: Suite[] = [];
  /** Suites whose `Running` line has not arrived yet (stdout may overtake stderr). */
  private readonly orphans: Suite[] = [];
  private readonly diagnostics = new Diagnostics();
  private readonly compileErrors = new Map<string, FailedTest>();
  private readonly warnings: string[] = [];
  /** Tests a suite started and never finished, in suites that ended early. */
  private readonly stopped: RunningTest[] = [];
  private readonly text = new LibtestText();
  private readonly workspace: string;
  private builds = 0;
  private failedBuilds = 0;
  private cutOff = false;
  /** A suite whose own counts exceed the tests read (terse text, `-q`, names none). */
  private miscounted = false;

  constructor(private readonly ctx: ParseContext) {
    this.workspace = ctx.hints?.workspace ?? ctx.root;
  }

  line(raw: string, lineNo: number, cutOff: boolean): void {
    if (cutOff) {
      this.cutOff = true;
      this.warnings.push(`line ${lineNo}: cut off mid-line, ignored: ${preview(raw)}`);
      return;
    }
    const line = raw.replace(/\r$/, '');
    const json = line.startsWith('{') ? parseJsonObject(line) : undefined;
    if (json !== undefined) return this.json(json);
    const records = this.text.line(line);
    if (records !== null) return records.forEach((record) => this.json(record));
    if (this.diagnostics.text(line)) return;
    const what = classify(line);
    if (what.kind === 'running') {
      const header = headerTarget(what.source, what.unit, what.executable);
      this.announce(what.source, basename(what.executable), header && this.inProject(header.kind, header.name, what.source));
    } else if (what.kind === 'doc-tests') this.announce(`Doc-tests ${what.crate}`, `doc:${what.crate}`, this.inProject('doc', what.crate, ''));
    else if (what.kind === 'target-failed') this.lastRun((run) => void (run.failed = what.selector));
    else if (what.kind === 'exit-reason') this.lastRun((run) => void (run.reason ??= what.text));
    else if (what.kind === 'could-not-compile') this.compileError(what.pkg, what.what);
  }

  end(): ParsedReport {
    const tests: TestResult[] = [...this.compileErrors.values()];
    // Text output has no build-finished line: its blocks are the evidence.
    let complete = !this.cutOff && !this.miscounted && (this.builds > 0 || (this.suites.length > 0 && this.compileErrors.size === 0));
    for (const suite of this.suites) {
      appendAll(tests, this.results(suite));
      if (!suite.done) complete = false;
    }
    for (const run of this.runs.filter((r) => r.suite === null)) {
      const target = this.targetOf(run);
      if (run.failed !== null && target) tests.push(this.silentFailure(run, target));
      else this.warnings.push(`${run.label}: no test results (the binary was cut off, or does not use libtest)`);
      if (run.failed === null) complete = false;
    }
    if (this.failedBuilds > 0 && this.compileErrors.size === 0) {
      tests.push({ id: 'build', name: 'compile error', file: null, line: null, status: 'error', message: 'cargo reported that the build failed; see the log', outside: true });
    }
    // Only libtest's JSON says when a test starts; its text does not.
    const starts = this.suites.some((s) => s.started.size > 0);
    return { tests, complete, warnings: this.warnings, ...(complete || !starts ? {} : { running: this.stopped }) };
  }

  private json(json: Json): void {
    const reason = str(json['reason']);
    if (reason === 'compiler-artifact') return this.artifact(json);
    if (reason === 'build-finished') {
      this.builds += 1;
      if (json['success'] === false) this.failedBuilds += 1;
      return;
    }
    if (reason !== null) return;
    const type = str(json['type']);
    const event = str(json['event']) ?? '';
    if (type === 'suite' && event === 'started') return this.startSuite();
    const suite = this.suites.at(-1);
    if (type === 'suite' && suite) this.endSuite(suite, json);
    const name = str(json['name']);
    if (type !== 'test' || !suite || name === null) return;
    if (event === 'started') suite.started.add(name);
    else if (event === 'ok' || event === 'failed' || event === 'ignored') {
      suite.events.push({ name, event, json });
      this.finished += 1;
    }
  }

  private endSuite(suite: Suite, json: Json): void {
    suite.done = true;
    const counts = [json['passed'], json['failed'], json['ignored']];
    if (!counts.every((n) => typeof n === 'number')) return;
    const counted = (counts as number[]).reduce((a, b) => a + b, 0);
    if (counted <= suite.events.length) return;
    this.miscounted = true;
    this.warnings.push(`a libtest block counts ${counted} tests but names only ${suite.events.length} (the terse output of \`cargo test -q\` names no passing test): the report is incomplete`);
  }

  private artifact(json: Json): void {
    const target = json['target'] as Json | undefined;
    const manifest = str(json['manifest_path']);
    const kinds = Array.isArray(target?.['kind']) ? (target['kind'] as unknown[]).map(String) : [];
    const name = str(target?.['name']);
    if (!target || manifest === null || name === null) return;
    const kind: TargetKind = (['bin', 'test', 'example', 'bench'] as const).find((k) => kinds.includes(k)) ?? 'lib';
    const info: Target = { pkg: packageName(str(json['package_id']) ?? ''), dir: path.posix.dirname(manifest), kind, name, src: str(target['src_path']) ?? '' };
    const executable = str(json['executable']);
    if (executable !== null) this.executables.set(basename(executable), info);
    if (kind === 'lib') this.libs.set(name, info);
  }

  private targetOf(run: Run | null): Target | null {
    if (run === null) return null;
    // Text output: no artifact lines, only what the headers say.
    if (this.executables.size === 0 && this.libs.size === 0) return run.header;
    if (!run.key.startsWith('doc:')) return this.executables.get(run.key) ?? null;
    const lib = this.libs.get(run.key.slice(4));
    return lib ? { ...lib, kind: 'doc' } : null;
  }

  /** A target as a header line names it, for text without artifact lines: the package
   * is not named there, and the source path is taken as the project's own. */
  private inProject(kind: TargetKind, name: string, source: string): Target {
    return { pkg: '', dir: this.ctx.root, kind, name, src: path.posix.join(this.ctx.root, source) };
  }

  private announce(label: string, key: string, header: Target | null): void {
    const run: Run = { label, header, key, suite: null, failed: null, reason: null };
    this.runs.push(run);
    const orphan = this.orphans.shift();
    if (orphan) [orphan.run, run.suite] = [run, orphan];
  }

  /** A suite belongs to the binary cargo announced last, unless that one already has a
   * suite: then its announcement is still on its way. */
  private startSuite(): void {
    const suite: Suite = { run: null, started: new Set(), events: [], done: false };
    this.suites.push(suite);
    const last = this.runs.at(-1);
    if (last && last.suite === null && this.orphans.length === 0) [suite.run, last.suite] = [last, suite];
    else this.orphans.push(suite);
  }

  private lastRun(update: (run: Run) => void): void {
    const run = this.runs.at(-1);
    if (run) update(run);
  }

  private compileError(pkg: string, what: string | null): void {
    const diagnostics = this.diagnostics.take();
    const first = diagnostics.find((d) => d.at !== null) ?? diagnostics[0];
    const at = first?.at ? this.place(first.at) : null;
    const message = diagnostics.map((d) => d.lines.join('\n')).join('\n\n') || `cargo could not compile ${pkg}`;
    const previous = this.compileErrors.get(pkg);
    if (previous) return;
    this.compileErrors.set(pkg, {
      id: pkg,
      name: `compile error: ${pkg}${what === null ? '' : ` (${what})`}`,
      file: at?.file ?? null,
      line: at?.line ?? null,
      status: 'error',
      message: boundMessage(message),
    });
  }

  private results(suite: Suite): TestResult[] {
    const target = this.targetOf(suite.run);
    const unknown = target === null ? this.unknownBinary(suite.run) : null;
    if (unknown !== null && !this.warnings.includes(unknown)) this.warnings.push(unknown);
    const results = suite.events.map((e) => this.result(e, target));
    if (suite.done) return results;
    const why = suite.run?.reason ?? 'the test binary stopped before its suite ended';
    const running = [...suite.started].filter((name) => !suite.events.some((e) => e.name === name));
    this.warnings.push(`${suite.run?.label ?? 'a test binary'} ended early (${why})${running.length > 0 ? ` while running ${running.join(', ')}` : ''}`);
    appendAll(this.stopped, running.map((name) => ({ name, file: this.base(name, target).file })));
    if (suite.run?.failed === null) return results; // cut off by run-tests: no verdict on these
    return [...results, ...running.map((name) => ({ ...this.base(name, target), status: 'error' as const, message: `the test binary ended while this test ran: ${why}` }))];
  }

  private unknownBinary(run: Run | null): string {
    if (run === null && this.builds === 0) {
      return 'libtest output without cargo\'s `Running` lines (cargo prints them on stderr): tests other than doc tests are named without their target';
    }
    return `test results from an unknown binary${run ? ` (${run.label})` : ''}: their ids cannot be rerun exactly`;
  }

  private result(e: Event, target: Target | null): TestResult {
    const base = this.base(e.name, target);
    const time = typeof e.json['exec_time'] === 'number' ? { durationMs: Math.round(e.json['exec_time'] * 1000) } : {};
    const note = str(e.json['message']);
    if (e.event === 'ok') return { ...base, ...time, status: 'passed' };
    if (e.event === 'ignored') return { ...base, status: 'skipped', ...(note ? { message: note } : {}) };
    const output = str(e.json['stdout']) ?? '';
    const panic = panicOf(output);
    // A #[should_panic] test that returned: libtest's note says where it is defined.
    const where = panic?.at ?? noteLocation(note);
    // A doc test's panic points into the generated test; its name says where it is.
    const doc = target?.kind === 'doc' || (target === null && docTestLocation(e.name) !== null);
    const at = doc || where === null ? null : this.place(where);
    const message = [panic?.message ?? output.trim(), note ?? ''].filter((m) => m !== '').join('\n') || 'failed without a message';
    return { ...base, ...(at ?? {}), ...time, status: 'failed', message: boundMessage(message) };
  }

  private base(name: string, target: Target | null): Pick<FailedTest, 'id' | 'name' | 'file' | 'line' | 'suite'> {
    if (target === null) {
      // Text output without its headers: a doc test still says what it is.
      const doc = docTestLocation(name);
      if (doc === null) return { id: name, name, file: null, line: null };
      return { id: `--doc ${name}`, name: `doc: ${name}`, file: doc.file, line: doc.line };
    }
    const src = relativeFile(target.src, target.dir);
    const label = { lib: 'unit', bin: `unit ${src}`, test: `integration ${src}`, example: `example ${src}`, bench: `bench ${src}`, doc: 'doc' }[target.kind];
    const own = path.posix.normalize(target.dir) === path.posix.normalize(this.ctx.root);
    const doc = target.kind === 'doc' ? docTestLocation(name) : null;
    const file = doc ? relativeFile(path.posix.join(target.dir, doc.file), this.ctx.root) : target.kind === 'lib' ? null : relativeFile(target.src, this.ctx.root);
    return {
      id: `${target.pkg === '' ? '' : `${target.pkg} `}${selectorOf(target.kind, target.name)} ${name}`,
      name: `${own ? '' : `[${target.pkg}] `}${label}: ${name}`,
      file,
      line: doc?.line ?? null,
      suite: targetSuite(target.pkg, target.kind, target.name),
    };
  }

  /** A binary cargo says failed without a libtest stream (it crashed first, or uses its own harness). */
  private silentFailure(run: Run, target: Target): FailedTest {
    const id = `${target.pkg === '' ? '' : `${target.pkg} `}${selectorOf(target.kind, target.name)}`;
    return { id, name: `${run.label}: failed without reporting tests`, file: null, line: null, suite: targetSuite(target.pkg, target.kind, target.name), status: 'error', message: run.reason ?? `cargo: test failed, to rerun pass \`${run.failed ?? ''}\``, outside: true };
  }

  /** A rustc path (relative to the workspace root, where rustc ran) made project-relative. */
  private place(at: Location): Location {
    const file = path.posix.isAbsolute(at.file) ? at.file : path.posix.join(this.workspace, at.file);
    return { file: relativeFile(file, this.ctx.root), line: at.line };
  }
}

/** `path+file:///w/beta#0.1.0` → `beta`; `path+file:///w/m#mixed@0.1.0` → `mixed`; `mixed 0.1.0 (path+…)` (cargo < 1.77) → `mixed`. */
export function packageName(id: string): string {
  const hash = id.lastIndexOf('#');
  if (hash < 0) return id.split(' ')[0] ?? id;
  const fragment = id.slice(hash + 1);
  if (fragment.includes('@')) return fragment.slice(0, fragment.indexOf('@'));
  return id.slice(0, hash).replace(/\/+$/, '').split('/').at(-1) ?? id;
}

const basename = (file: string): string => file.replace(/\\/g, '/').split('/').at(-1) ?? file;
