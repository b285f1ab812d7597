/** TAP 13 and 14 (node's `--test-reporter=tap`, node-tap, and anything else that
 * speaks TAP), read with tap-parser as the report grows: each pushed chunk is written
 * to the parser, so memory holds results, not text.
 *
 * Names join subtest parents with ` > ` (as node:test and vitest show them); a parent
 * test point counts only when it failed while none of its subtests did (a failing hook,
 * an error after its subtests passed). TODO and SKIP are skips. Node's YAML diagnostics
 * give the file (`location`), the line of the failure (the first `stack` frame in that
 * file) and the error's class: an AssertionError is `failed`, anything else `error`.
 * Ids are `<file>::<name>` (the file empty when the producer did not say). The report
 * is complete only when it has a plan and nothing bailed out; a plan that disagrees with
 * the count is a contradiction (declared.ts), unless the plan came first and fewer test
 * points follow it (a cut-off report). So is a closing `# fail N` against the tests. */
import { Parser, type FinalResults, type Result } from 'tap-parser';
import type { Contradiction, ParseContext, ParsedReport, TestResult } from '../model/results.js';
import { withContradictions } from './declared.js';
import { boundMessage, relativeFile } from './fields.js';
import { textLocation } from './junit-location.js';
import { parseText, type ParserFactory } from './stream.js';

type Diag = Record<string, unknown>;
const LINE_BREAKS = /[\r\u2028\u2029]/;
/** Real reports nest subtests a few levels; each level is a parser of its own. */
export const MAX_DEPTH = 256;

/** Nesting beyond MAX_DEPTH: the report is not read (parse-command calls it unparseable). */
class TooDeep extends Error {}
export const TAP_NAME_SEPARATOR = ' > ';

interface Level {
  readonly path: readonly string[];
  /** The subtest whose closing test point has not come yet. */
  pending: Level | null;
  /** Whether a test point in this subtest (at any depth) failed. */
  failed: boolean;
}

export const createTapParser: ParserFactory = (ctx) => {
  const reader = new TapReader(ctx);
  return {
    push: (chunk) => reader.write(chunk),
    end: () => reader.end(),
    get finished() {
      return reader.tests.length;
    },
  };
};

export const parseTap = (text: string, ctx: ParseContext): ParsedReport => parseText(createTapParser, text, ctx);

class TapReader {
  readonly tests: TestResult[] = [];
  private readonly warnings: string[] = [];
  // Without `passes: true`: it would keep every passing result a second time.
  private readonly parser = new Parser();
  private final: FinalResults | null = null;
  private bailout: string | null = null;
  private extra = 0;
  private planned = false;
  /** The plan came after test points, so the report cannot be cut off before them. */
  private planLast = false;
  /** node's and tape's closing `# fail N`; node counts a failed parent there too, so only zero or not is compared. */
  private declaredFail: number | null = null;
  private readonly contradictions: Contradiction[] = [];
  /** The line the last chunk ended in, in pieces. */
  private readonly carry: string[] = [];
  private ending = false;
  private readonly top: Level = { path: [], pending: null, failed: false };

  constructor(private readonly ctx: ParseContext) {
    this.attach(this.parser, this.top);
    this.parser.on('complete', (results: FinalResults) => void (this.final = results));
    this.parser.on('bailout', (reason: string) => void (this.bailout ??= reason));
    this.parser.on('extra', () => void (this.extra += 1));
    // tap-parser makes up a `1..0` plan for a report without one: only a written plan counts.
    this.parser.on('plan', (plan: { comment?: string }) => {
      if (this.ending && plan.comment === 'no tests found') return;
      this.planned = true;
      this.planLast = this.parser.count > 0;
    });
    this.parser.on('comment', (line: string) => {
      const fail = /^# fail (\d+)\s*$/.exec(line);
      if (fail) this.declaredFail = Number(fail[1]);
    });
  }

  /** tap-parser is given whole lines only: it looks for a line's end from the start of
   * what it holds at every write, which is quadratic in a long line given in chunks. */
  write(chunk: string): void {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      const tail = chunk.slice(start, newline);
      this.feed(this.carry.length === 0 ? tail : `${this.carry.splice(0).join('')}${tail}`);
      start = newline + 1;
    }
    if (start < chunk.length) this.carry.push(chunk.slice(start));
  }

  /** One line. tap-parser's `.` stops at \r, U+2028 and U+2029: one of them inside a line
   * would leave it, and every line after it, unread. */
  private feed(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    try {
      this.parser.write(`${LINE_BREAKS.test(line) ? line.replace(/[\r\u2028\u2029]/g, ' ') : line}\n`);
    } catch (error) {
      if (error instanceof TooDeep) throw error;
      this.warnings.push(`TAP: the parser failed: ${(error as Error).message}`);
    }
  }

  end(): ParsedReport {
    if (this.carry.length > 0) this.feed(this.carry.splice(0).join(''));
    this.ending = true;
    try {
      this.parser.end();
    } catch (error) {
      this.warnings.push(`TAP: the parser failed at the end: ${(error as Error).message}`);
    }
    const final = this.final;
    let complete = final !== null && this.bailout === null;
    if (this.bailout !== null) this.warnings.push(`TAP: Bail out! ${this.bailout}`.trim());
    if (final !== null && this.bailout === null) {
      const { start, end, skipAll } = final.plan;
      if (!this.planned || start === null || end === null) {
        complete = false;
        this.warnings.push(`TAP: no plan (1..N): the report is cut off after ${this.tests.length} test(s)`);
      } else if (this.top.pending !== null) {
        complete = false;
        this.warnings.push(`TAP: the subtest ${this.top.pending.path.join(TAP_NAME_SEPARATOR)} has no closing test point: the report is cut off`);
      } else if (skipAll && this.tests.length > 0) {
        complete = false;
        this.warnings.push(`TAP: the plan ${start}..${end} says no tests, but ${this.tests.length} were reported`);
      } else if (!skipAll && end - start + 1 > final.count && !this.planLast) {
        complete = false;
        this.warnings.push(`TAP: the plan ${start}..${end} does not match the ${final.count} test point(s) reported`);
      } else if (!skipAll && end - start + 1 !== final.count) {
        this.contradictions.push({ message: `TAP: the plan ${start}..${end} says ${end - start + 1} test point(s), but ${final.count} were reported`, saysFailed: false });
      }
    }
    if (complete) this.checkFailCount();
    if (final === null) this.warnings.push('TAP: the parser never finished');
    if (this.extra > 0) this.warnings.push(`TAP: ${this.extra} line(s) were not TAP and were ignored`);
    return withContradictions({ tests: this.tests, complete, warnings: this.warnings }, this.contradictions);
  }

  private checkFailCount(): void {
    const failing = this.tests.filter((t) => t.status === 'failed' || t.status === 'error').length;
    const n = this.declaredFail;
    if (n === null || (n > 0) === (failing > 0)) return;
    this.contradictions.push({ message: `TAP: "# fail ${n}" at the end, but ${failing} listed test(s) failed`, saysFailed: n > 0 });
  }

  /** Listens to one parser (the root or a subtest's); `level` is its place in the tree. */
  private attach(parser: Parser, level: Level): void {
    parser.on('child', (child: Parser) => {
      if (level.path.length >= MAX_DEPTH) {
        throw new TooDeep(`subtests nest more than ${MAX_DEPTH} deep (under ${level.path.slice(0, 3).join(TAP_NAME_SEPARATOR)} …); TAP reports are read to a depth of ${MAX_DEPTH}`);
      }
      const sub: Level = { path: [...level.path, child.name || `subtest ${parser.count + 1}`], pending: null, failed: false };
      level.pending = sub;
      this.attach(child, sub);
    });
    parser.on('assert', (res: Result) => {
      const sub = level.pending;
      level.pending = null;
      const failed = !res.ok && !res.todo && !res.skip;
      if (sub !== null) {
        if (sub.failed) level.failed = true;
        // The subtest's closing test point: its leaves are counted already.
        if (!failed || sub.failed) return;
      }
      if (failed) level.failed = true;
      this.tests.push(this.result(res, level.path));
    });
  }

  private result(res: Result, path: readonly string[]): TestResult {
    const own = res.name.trim() || `test ${res.id}`;
    const name = [...path, own].join(TAP_NAME_SEPARATOR);
    const diag: Diag = res.diag !== null && typeof res.diag === 'object' ? (res.diag as Diag) : {};
    const at = this.location(diag);
    const base = { id: `${at.file ?? ''}::${name}`, name, file: at.file, line: at.line, ...duration(diag['duration_ms'] ?? res.time) };
    if (res.todo !== false || res.skip !== false) {
      const reason = typeof res.todo === 'string' ? res.todo : typeof res.skip === 'string' ? res.skip : '';
      const message = res.todo !== false ? `TODO${reason === '' ? '' : `: ${reason}`}` : reason;
      return { ...base, status: 'skipped', ...(message === '' ? {} : { message }) };
    }
    if (res.ok) return { ...base, status: 'passed' };
    const stack = typeof diag['stack'] === 'string' ? diag['stack'] : '';
    const failedAt = at.file === null ? null : textLocation(stack, at.file, this.ctx.root);
    return { ...base, ...(failedAt ?? {}), status: isError(diag) ? 'error' : 'failed', message: messageOf(diag, own) };
  }

  /** node's `location: '/abs/file.js:12:3'`, else `file` and `line` fields some producers give. */
  private location(diag: Diag): { file: string | null; line: number | null } {
    const loc = typeof diag['location'] === 'string' ? /^(.*?):(\d+)(?::\d+)?$/.exec(diag['location']) : null;
    if (loc?.[1] !== undefined) return { file: relativeFile(loc[1].replace(/^file:\/\//, ''), this.ctx.root), line: Number(loc[2]) || null };
    const file = typeof diag['file'] === 'string' ? relativeFile(diag['file'], this.ctx.root) : null;
    const line = typeof diag['line'] === 'number' && Number.isInteger(diag['line']) && diag['line'] > 0 ? diag['line'] : null;
    return { file, line };
  }
}

/** An assertion failure, unless the diagnostics name another error or a hook/cancellation. */
function isError(diag: Diag): boolean {
  const failureType = diag['failureType'];
  if (failureType === 'hookFailure' || failureType === 'cancelledByParent' || failureType === 'uncaughtException' || failureType === 'unhandledRejection') return true;
  const name = diag['name'];
  if (typeof name !== 'string' || name === '') return false;
  return !/AssertionError/.test(name) && diag['code'] !== 'ERR_ASSERTION';
}

function messageOf(diag: Diag, name: string): string {
  const error = [diag['error'], diag['message']].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const cls = typeof diag['name'] === 'string' && isError(diag) ? diag['name'] : null;
  const text = error === undefined ? `not ok: ${name}` : cls === null ? error.trim() : `${cls}: ${error.trim()}`;
  return boundMessage(text);
}

function duration(value: unknown): { durationMs?: number } {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? { durationMs: Math.round(value) } : {};
}
