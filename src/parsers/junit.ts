/** JUnit XML, as pytest, gotestsum, vitest, node:test, jest-junit, mocha-junit-reporter,
 * minitest-reporters, rspec_junit_formatter and Maven Surefire write it. Read whole, by
 * fast-xml-parser (junit-document.ts), when the report ends; while it grows, only its
 * finished testcases are counted.
 *
 * Tests are counted from the <testcase> elements, never from the suites' attributes;
 * when those attributes claim more errors, failures or skips than the elements show
 * (gotestsum records a package that does not build only as `errors="1"` on
 * <testsuites>; mocha-junit-reporter a skipped test only in the root's `skipped`), the
 * difference becomes unattributed entries rather than being dropped; a claim of more
 * tests, or of fewer failures, than the testcases show is a contradiction (declared.ts).
 * Names and ids per producer: junit-names.ts. A go parent test (`TestTable` beside `TestTable/case`)
 * counts only when it failed on its own, as in the go parser. */
import type { Contradiction, ParseContext, ParsedReport, TestResult } from '../model/results.js';
import { withContradictions } from './declared.js';
import { appendAll, boundMessage, relativeFile } from './fields.js';
import { messageOf as goMessage } from './go-output.js';
import { goLocation, textLocation, type Location } from './junit-location.js';
import { type CaseFacts, type Dialect, dialectOfCase, dialectOfRoot, dialectOfSuite, lineOfFileAttr, nameOf, positive, stripLine } from './junit-names.js';
import { FinishedCount, MAX_TEXT, readDocument } from './junit-document.js';
import { parseText, type ParserFactory } from './stream.js';

type Attrs = Readonly<Record<string, string>>;
type OutcomeKind = 'failure' | 'error' | 'skipped' | 'flakyFailure' | 'flakyError' | 'rerunFailure' | 'rerunError';
const OUTCOMES = new Set<string>(['failure', 'error', 'skipped', 'flakyFailure', 'flakyError', 'rerunFailure', 'rerunError']);
const MAX_UNATTRIBUTED = 100;

interface Outcome { readonly kind: OutcomeKind; readonly attrs: Attrs; readonly text: string[]; size: number }
/** An open suite, with what its testcases inherit worked out once. */
interface Suite { readonly attrs: Attrs; readonly dialect: Dialect | null; readonly names: readonly string[]; readonly file: string | null; readonly known: Dialect | null }
interface OpenCase { readonly facts: CaseFacts; readonly dialect: Dialect; readonly outcomes: Outcome[] }
interface Counts { tests: number; failures: number; errors: number; skipped: number }
interface Entry { readonly result: TestResult; readonly group: string; readonly go: boolean }

const zero = (): Counts => ({ tests: 0, failures: 0, errors: 0, skipped: 0 });

export { MAX_DEPTH } from './junit-document.js';

export const createJunitParser: ParserFactory = (ctx) => {
  const chunks: string[] = [];
  const finished = new FinishedCount();
  return {
    push: (chunk) => {
      chunks.push(chunk);
      finished.push(chunk);
    },
    end: () => {
      const reader = new JunitReader(ctx);
      const text = chunks.join('');
      chunks.length = 0;
      return reader.end(readDocument(text, reader));
    },
    get finished() {
      return finished.count;
    },
  };
};

export const parseJunit = (text: string, ctx: ParseContext): ParsedReport => parseText(createJunitParser, text, ctx);

class JunitReader {
  readonly entries: Entry[] = [];
  private readonly warnings: string[] = [];
  private readonly suites: Suite[] = [];
  private depth = 0;
  private rootDialect: Dialect | null = null;
  private goSuite = false;
  private testcase: OpenCase | null = null;
  private outcome: Outcome | null = null;
  private readonly claimed: Partial<Counts> & { source: string[] } = { source: [] };
  private readonly counted = zero();
  private sumChildren = false;
  private notJunit: string | null = null;

  constructor(private readonly ctx: ParseContext) {}

  open(name: string, attrs: Attrs): void {
    const depth = this.depth++;
    if (depth === 0) this.root(name, attrs);
    if (name === 'testsuite' || name === 'testsuites') {
      if (depth === 1 && this.sumChildren && name === 'testsuite') this.claim(attrs, `<testsuite name="${attrs['name'] ?? ''}">`);
      const dialect = name === 'testsuite' ? dialectOfSuite(attrs) : dialectOfRoot(attrs);
      const parent = this.suites[this.suites.length - 1];
      // node:test nests a test's subtests as a <testsuite> named after it; a root without a name, or one that names its producer, adds nothing.
      const named = attrs['name'] !== undefined && !(this.suites.length === 0 && dialect !== null);
      this.suites.push({
        attrs, dialect,
        names: named ? [...(parent?.names ?? []), attrs['name'] ?? ''] : parent?.names ?? [],
        file: attrs['file'] ?? parent?.file ?? null,
        known: dialect ?? parent?.known ?? null,
      });
      if (name === 'testsuite') this.goSuite = false;
    } else if (name === 'property' && attrs['name'] === 'go.version') this.goSuite = true;
    else if (name === 'testcase' && this.testcase === null) this.startCase(attrs);
    else if (OUTCOMES.has(name) && this.testcase !== null && this.outcome === null) {
      this.outcome = { kind: name as OutcomeKind, attrs, text: [], size: 0 };
    }
  }

  close(name: string): void {
    this.depth -= 1;
    if (name === 'testsuite' || name === 'testsuites') this.suites.pop();
    else if (name === 'testcase' && this.testcase !== null) this.finishCase(this.testcase);
    else if (this.outcome !== null && name === this.outcome.kind) {
      this.testcase?.outcomes.push(this.outcome);
      this.outcome = null;
    }
  }

  text(text: string): void {
    const o = this.outcome;
    if (o === null || o.size >= MAX_TEXT) return;
    o.text.push(text);
    o.size += text.length;
  }

  private root(name: string, attrs: Attrs): void {
    if (name !== 'testsuites' && name !== 'testsuite' && name !== 'testcase') {
      this.notJunit ??= `the root element is <${name}>, not <testsuites>, <testsuite> or <testcase>`;
      return;
    }
    this.rootDialect ??= dialectOfRoot(attrs, name);
    if (name === 'testcase') return;
    if (!this.claim(attrs, `<${name}>`)) this.sumChildren = true;
  }

  /** Adds a suite's counts to what the report claims; false when it claims nothing. */
  private claim(attrs: Attrs, where: string): boolean {
    const read = (key: string) => (attrs[key] === undefined ? null : Number(attrs[key]));
    const counts = { tests: read('tests'), failures: read('failures'), errors: read('errors'), skipped: read('skipped') ?? read('skips') };
    let any = false;
    for (const [key, value] of Object.entries(counts) as [keyof Counts, number | null][]) {
      if (value === null || !Number.isInteger(value) || value < 0) continue;
      this.claimed[key] = (this.claimed[key] ?? 0) + value;
      any = true;
    }
    if (any) this.claimed.source.push(where);
    return any;
  }

  private startCase(attrs: Attrs): void {
    const suite = this.suites[this.suites.length - 1];
    const known = this.goSuite ? 'go' : suite?.known ?? this.rootDialect;
    const facts = { classname: attrs['classname'] ?? '', name: attrs['name'] ?? '', attrs, suites: suite?.names ?? [], suiteFile: suite?.file ?? null };
    this.testcase = { facts, dialect: dialectOfCase(known, attrs), outcomes: [] };
  }

  private finishCase(tc: OpenCase): void {
    this.testcase = null;
    this.outcome = null;
    const { facts, dialect } = tc;
    const naming = nameOf(dialect, facts, this.ctx.root);
    const find = (kind: OutcomeKind) => tc.outcomes.find((o) => o.kind === kind);
    const failing = find('error') ?? find('failure') ?? find('rerunError') ?? find('rerunFailure');
    const skipped = find('skipped');
    const flaky = tc.outcomes.filter((o) => o.kind === 'flakyFailure' || o.kind === 'flakyError');
    // With counts only on the root's suites, a testcase directly under the root is in none.
    if (!this.sumChildren || this.suites.length >= 2) this.count(tc);

    const at = this.definition(facts, naming.file, dialect);
    const base = { id: naming.id, name: naming.name, file: at.file, line: at.line, ...duration(facts.attrs['time']), ...this.suiteOf(facts) };
    let result: TestResult;
    if (failing) {
      const status = failing.kind === 'error' || failing.kind === 'rerunError' ? 'error' : 'failed';
      const where = this.failureAt(failing, facts, at, dialect);
      result = { ...base, ...where, status, message: this.message(failing, dialect) };
    } else if (skipped) {
      const raw = (skipped.attrs['message'] ?? skipped.text.join('')).trim();
      const message = dialect === 'go' ? goMessage([raw]) : raw;
      const where = dialect === 'go' ? goLocation(raw, facts.classname, this.ctx.hints?.['module'] ?? null) : null;
      result = { ...base, ...where, status: 'skipped', ...(message === '' ? {} : { message: boundMessage(message) }) };
    } else {
      if (flaky.length > 0) this.warnings.push(`${naming.name}: passed on rerun after ${flaky.length} failed attempt(s)`);
      result = { ...base, status: 'passed' };
    }
    const go = dialect === 'go' || /^(Test|Example|Fuzz|Benchmark)/.test(naming.name);
    const group = !go ? '' : dialect === 'go' ? facts.classname : `${facts.suites.join('\u0000')}\u0000${facts.classname}`;
    this.entries.push({ result, group, go });
  }

  /** With the hint `suite: classname` (--timings reads a JUnit file so): the testcase's
   * classname as its suite, where go's package and cargo's target are named. */
  private suiteOf(facts: CaseFacts): { suite?: string } {
    return this.ctx.hints?.['suite'] === 'classname' && facts.classname !== '' ? { suite: facts.classname } : {};
  }

  private count(tc: OpenCase): void {
    const has = (kind: OutcomeKind) => tc.outcomes.some((o) => o.kind === kind);
    this.counted.tests += 1;
    if (has('error')) this.counted.errors += 1;
    else if (has('failure')) this.counted.failures += 1;
    else if (has('skipped')) this.counted.skipped += 1;
  }

  /** Where the test is defined: `file`/`line`/`lineno` attributes, `file="x:38"`, the suite's file. */
  private definition(facts: CaseFacts, implied: string | null, dialect: Dialect): { file: string | null; line: number | null } {
    const rawFile = facts.attrs['file'] ?? implied ?? facts.suiteFile;
    const file = rawFile === undefined || rawFile === null || rawFile === '' ? null : relativeFile(stripLine(rawFile), this.ctx.root);
    const lineAttr = facts.attrs['line'] ?? facts.attrs['lineno'];
    // pytest writes 0-based lines (the code object's first line).
    const attrLine = lineAttr === undefined ? null : positive(Number(lineAttr) + (dialect === 'pytest' ? 1 : 0));
    return { file, line: attrLine ?? (rawFile ? lineOfFileAttr(rawFile) : null) };
  }

  /** Where it failed: the failure's own attributes, else a frame of its text in the test file. */
  private failureAt(o: Outcome, facts: CaseFacts, at: { file: string | null; line: number | null }, dialect: Dialect): { file: string | null; line: number | null } {
    const attrFile = o.attrs['file'];
    const file = attrFile ? relativeFile(stripLine(attrFile), this.ctx.root) : at.file;
    const attrLine = positive(Number(o.attrs['line'] ?? o.attrs['lineno'] ?? NaN)) ?? (attrFile ? lineOfFileAttr(attrFile) : null);
    if (attrLine !== null) return { file, line: attrLine };
    const text = o.text.join('');
    const found: Location | null = dialect === 'go' ? goLocation(text, facts.classname, this.ctx.hints?.['module'] ?? null) : textLocation(text, file, this.ctx.root);
    return found ?? { file, line: at.line };
  }

  private message(o: Outcome, dialect: Dialect): string {
    const text = o.text.join('');
    if (dialect === 'go') return boundMessage(goMessage([text]) || 'failed without a message');
    const full = (o.attrs['message'] ?? '').trim();
    const attr = full.replace(/(\.\.\.|\u2026)$/, '');
    const body = text.trim();
    // The attribute is often the text's first line again (or a cut-down copy of it).
    const repeated = attr === '' || attr === 'Failed' || (body.split('\n', 1)[0] ?? '').includes(attr.split('\n', 1)[0] ?? '') ||
      (attr !== full && body.includes(attr));
    const message = repeated ? body || attr : body === '' ? attr : `${attr}\n\n${body}`;
    return boundMessage(message || o.attrs['type'] || `${o.kind} without a message`);
  }

  end(xml: { complete: boolean; problems: readonly string[] }): ParsedReport {
    const tests = this.withoutParents();
    const warnings = [...xml.problems.map((p) => `JUnit XML: ${p}`), ...this.warnings];
    if (this.notJunit !== null) warnings.unshift(`not a JUnit report: ${this.notJunit}`);
    if (!xml.complete) warnings.push(`the JUnit report is incomplete: ${this.entries.length} testcase(s) were read before it ended`);
    if (!xml.complete || this.notJunit !== null) return { tests, complete: false, warnings };
    const { extra, contradictions } = this.unattributed(tests.length, warnings);
    appendAll(tests, extra);
    return withContradictions({ tests, complete: true, warnings }, contradictions);
  }

  /** Drops go parents (`TestA` when `TestA/x` exists) unless they failed on their own. */
  private withoutParents(): TestResult[] {
    const parents = new Map<string, boolean>(); // group + name → a child failed
    for (const { result, group, go } of this.entries) {
      if (!go) continue;
      const parts = result.name.split('/');
      const failed = result.status === 'failed' || result.status === 'error';
      for (let i = 1; i < parts.length; i += 1) {
        const key = `${group}\u0000${parts.slice(0, i).join('/')}`;
        parents.set(key, (parents.get(key) ?? false) || failed);
      }
    }
    return this.entries.filter(({ result, group, go }) => {
      const childFailed = go ? parents.get(`${group}\u0000${result.name}`) : undefined;
      if (childFailed === undefined) return true;
      return result.status === 'failed' && !childFailed;
    }).map((e) => e.result);
  }

  /** What the suites' counts claim beyond the testcases becomes unattributed entries; a
   * claim of more tests than listed, or of fewer failures and errors, is a contradiction.
   * Failures and errors are compared in total: mocha's xunit reporter counts its
   * `<failure>` elements as `errors`, which is a classification, not a lost error. */
  private unattributed(found: number, warnings: string[]): { extra: TestResult[]; contradictions: Contradiction[] } {
    const where = this.claimed.source.join(' + ');
    const { claimed, counted } = this;
    const extra: TestResult[] = [];
    const contradictions: Contradiction[] = [];
    const add = (kind: 'errors' | 'failures' | 'skipped', missing: number) => {
      if (missing <= 0) return 0;
      const n = Math.min(missing, MAX_UNATTRIBUTED);
      if (n < missing) warnings.push(`${missing} ${kind} not in any testcase: only ${n} are listed`);
      const message = `${where}: ${kind}="${claimed[kind] ?? 0}", but ${counted[kind]} testcase(s) show one; ${missing} not attributed to any test (see the runner's log)`;
      for (let i = 1; i <= n; i += 1) {
        const id = `junit:unattributed-${kind}-${i}`;
        const name = `${kind === 'skipped' ? 'skipped test' : kind === 'errors' ? 'error' : 'failure'} not attributed to any test (${i} of ${missing})`;
        extra.push(kind === 'skipped' ? { id, name, file: null, line: null, status: 'skipped', message } : { id, name, file: null, line: null, status: 'error', message, outside: true });
      }
      warnings.push(message);
      return missing;
    };
    let more = 0;
    if (claimed.errors !== undefined || claimed.failures !== undefined) {
      const failing = (claimed.errors ?? 0) + (claimed.failures ?? 0) - counted.errors - counted.failures;
      const errors = Math.min(Math.max((claimed.errors ?? 0) - counted.errors, 0), Math.max(failing, 0));
      more += add('errors', errors) + add('failures', failing - errors);
      if (failing < 0) {
        contradictions.push({ message: `${where}: failures="${claimed.failures ?? 0}" errors="${claimed.errors ?? 0}", but ${counted.failures + counted.errors} testcase(s) failed`, saysFailed: (claimed.failures ?? 0) + (claimed.errors ?? 0) > 0 });
      }
    }
    if (claimed.skipped !== undefined) more += add('skipped', claimed.skipped - counted.skipped);
    const claimedTests = claimed.tests;
    if (claimedTests !== undefined && claimedTests > counted.tests + more) {
      contradictions.push({ message: `${where}: tests="${claimedTests}", but the report lists ${counted.tests} testcase(s)`, saysFailed: false });
    } else if (claimedTests !== undefined && claimedTests < counted.tests) {
      // jest-junit leaves todo tests out of `tests` but lists them: more results than claimed hides none.
      warnings.push(`${where}: tests="${claimedTests}", but the report lists ${counted.tests} testcase(s); the testcases are what is counted (${found} after leaving out go parents)`);
    }
    return { extra, contradictions };
  }
}

function duration(time: string | undefined): { durationMs?: number } {
  const seconds = time === undefined ? NaN : Number(time);
  return Number.isFinite(seconds) && seconds >= 0 ? { durationMs: Math.round(seconds * 1000) } : {};
}
