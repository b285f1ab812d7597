/** The tests a JavaScript or TypeScript file defines with `describe`/`it`/`test`/`suite`
 * calls and literal names, read without running it: what `file:line` selects for jest,
 * vitest, mocha and node:test. A scan of tokens (comments, strings, templates, regular
 * expressions skipped; parentheses matched), not a parser: a call whose name is computed
 * (a variable, a `${}` template, `.each`) is found, and said to be unnameable. */
import { usageError } from '../../model/errors.js';
import type { TestLocator } from '../../model/request.js';

export interface TestBlock {
  readonly kind: 'suite' | 'test';
  /** Null when the name is computed at run time. */
  readonly name: string | null;
  /** 1-based lines of the call and of its closing parenthesis. */
  readonly start: number;
  end: number;
  readonly children: TestBlock[];
}

const CALL = /(describe|context|suite|it|test|specify)((?:\s*\.\s*[A-Za-z]+)*)\s*\(/y;
const SUITES = new Set(['describe', 'context', 'suite']);
/** Modifiers after which the call's first argument is not the name (`test.each(table)(name, …)`). */
const COMPUTED = /\.\s*(?:each|for|skipIf|runIf)\b/;
/** After these a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const KEYWORDS_BEFORE_EXPRESSION = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await']);
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

class Scanner {
  private i = 0;
  line = 1;
  constructor(private readonly text: string) {}

  /** The blocks, nested as the calls are. */
  blocks(): TestBlock[] {
    const roots: TestBlock[] = [];
    const parens: (TestBlock | null)[] = [];
    const open: TestBlock[] = [];
    let prev = '';
    while (this.i < this.text.length) {
      const c = this.text[this.i] ?? '';
      if (this.skipTrivia()) continue;
      if (c === '"' || c === "'" || c === '`') {
        this.skipQuoted();
        prev = 'a';
      } else if (c === '/' && BEFORE_REGEX.has(prev)) {
        this.skipRegex();
        prev = 'a';
      } else if (/[A-Za-z_$]/.test(c)) {
        const block = this.call();
        if (block !== null) {
          (open.at(-1)?.children ?? roots).push(block);
          open.push(block);
          parens.push(block);
          prev = '(';
        } else {
          IDENTIFIER.lastIndex = this.i;
          const word = IDENTIFIER.exec(this.text)?.[0] ?? c;
          this.i += word.length;
          prev = KEYWORDS_BEFORE_EXPRESSION.has(word) ? '(' : 'a';
        }
      } else {
        if (c === '(') parens.push(null);
        else if (c === ')') {
          const closed = parens.pop();
          if (closed) {
            closed.end = this.line;
            open.pop();
          }
        }
        prev = c;
        this.i += 1;
      }
    }
    return roots;
  }

  /** Whitespace and comments; true when something was skipped. */
  private skipTrivia(): boolean {
    const c = this.text[this.i];
    if (c === '\n') {
      this.line += 1;
      this.i += 1;
      return true;
    }
    if (c !== undefined && /\s/.test(c)) {
      this.i += 1;
      return true;
    }
    if (c !== '/') return false;
    const next = this.text[this.i + 1];
    if (next !== '/' && next !== '*') return false;
    const end = next === '/' ? this.text.indexOf('\n', this.i) : this.text.indexOf('*/', this.i + 2);
    const stop = end === -1 ? this.text.length : next === '/' ? end : end + 2;
    this.advanceTo(stop);
    return true;
  }

  private advanceTo(stop: number): void {
    for (; this.i < stop; this.i += 1) if (this.text[this.i] === '\n') this.line += 1;
  }

  /** A string or template at i; returns its value, or null for a template with `${}`. */
  skipQuoted(): string | null {
    const quote = this.text[this.i];
    let value = '';
    let computed = false;
    this.i += 1;
    while (this.i < this.text.length) {
      const c = this.text[this.i] ?? '';
      if (c === quote) {
        this.i += 1;
        return computed ? null : value;
      }
      if (c === '\\') {
        value += unescape(this.text[this.i + 1] ?? '');
        this.advanceTo(this.i + 2);
      } else if (quote === '`' && c === '$' && this.text[this.i + 1] === '{') {
        computed = true;
        this.i += 2;
        this.skipExpression();
      } else {
        if (c === '\n' && quote !== '`') return null; // an unterminated string: stop at its line
        value += c;
        this.advanceTo(this.i + 1);
      }
    }
    return null;
  }

  /** The code inside `${…}`, up to its closing brace. */
  private skipExpression(): void {
    let depth = 1;
    while (this.i < this.text.length && depth > 0) {
      if (this.skipTrivia()) continue;
      const c = this.text[this.i];
      if (c === '"' || c === "'" || c === '`') this.skipQuoted();
      else {
        if (c === '{') depth += 1;
        else if (c === '}') depth -= 1;
        this.i += 1;
      }
    }
  }

  private skipRegex(): void {
    let inClass = false;
    for (this.i += 1; this.i < this.text.length; this.i += 1) {
      const c = this.text[this.i];
      if (c === '\n') return;
      if (c === '\\') this.i += 1;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    this.i += 1;
  }

  /** A test or suite call at i (not a property such as `t.test`), consumed up to and
   * including its `(`; null, consuming nothing, for anything else. */
  private call(): TestBlock | null {
    if (/[\w$.]/.test(this.text[this.i - 1] ?? '')) return null;
    CALL.lastIndex = this.i;
    const found = CALL.exec(this.text);
    if (found === null) return null;
    const start = this.line;
    this.advanceTo(this.i + found[0].length);
    const kind = SUITES.has(found[1] ?? '') ? 'suite' : 'test';
    const name = COMPUTED.test(found[2] ?? '') ? null : this.literalArgument();
    return { kind, name, start, end: Number.MAX_SAFE_INTEGER, children: [] };
  }

  /** The first argument when it is a literal string alone (`'a'`, not `'a' + b`); looks
   * ahead without consuming, so the main loop scans it as it scans any string. */
  private literalArgument(): string | null {
    const [i, line] = [this.i, this.line];
    while (this.skipTrivia());
    const quote = this.text[this.i];
    const value = quote === '"' || quote === "'" || quote === '`' ? this.skipQuoted() : null;
    while (this.skipTrivia());
    const after = this.text[this.i];
    [this.i, this.line] = [i, line];
    return after === ',' || after === ')' ? value : null;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0', '\n': '' };
const unescape = (c: string): string => ESCAPES[c] ?? c;

export const testBlocks = (source: string): TestBlock[] => new Scanner(source).blocks();

/** The named chains (outermost first) of the tests at a line: the test whose call spans
 * it, or every test of the innermost suite that does. Throws a USAGE error when there
 * is none, or when one of them has a computed name. */
export function testsAtLine(source: string, file: string, line: number): { kind: TestBlock['kind']; name: string }[][] {
  const chain = innermost(testBlocks(source), line);
  const target = chain.at(-1);
  if (target === undefined) throw usageError(`no test or suite is defined at ${file}:${line} (describe, it, test or suite with a literal name)`);
  const leaves = target.kind === 'test' ? [chain] : testsBelow(target).map((path) => [...chain, ...path]);
  if (leaves.length === 0) throw usageError(`the suite at ${file}:${line} defines no test`);
  return leaves.map((path) => path.map((block) => {
    if (block.name === null) throw usageError(`the ${block.kind} at ${file}:${block.start} has a name computed when it runs (a variable, a \${} template or .each): select it with --name`);
    return { kind: block.kind, name: block.name };
  }));
}

function innermost(blocks: readonly TestBlock[], line: number): TestBlock[] {
  const found = blocks.find((b) => b.start <= line && line <= b.end);
  return found === undefined ? [] : [found, ...(found.kind === 'test' ? [] : innermost(found.children, line))];
}

const testsBelow = (suite: TestBlock): TestBlock[][] =>
  suite.children.flatMap((child) => (child.kind === 'test' ? [[child]] : testsBelow(child).map((path) => [child, ...path])));

/** `file:line` for a JavaScript runner: the chains of the tests there; `file::node` is
 * pytest's and refused. */
export function jsTestsAt(runner: string, file: string, at: TestLocator, source: string | null): { kind: TestBlock['kind']; name: string }[][] {
  if ('node' in at) throw usageError(`${runner} has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
  if (source === null) throw usageError(`${file} cannot be read to find the tests at line ${at.line}`);
  return testsAtLine(source, file, at.line);
}
