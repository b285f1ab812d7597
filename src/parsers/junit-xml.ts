/** A small streaming XML scanner for JUnit reports. fast-xml-parser only parses whole
 * documents: it must hold the text and the whole tree (a 100k-testcase report is tens of
 * MB), it cannot count tests while the runner writes, and it reads a truncated file
 * without saying so. JUnit uses a tiny part of XML (elements, attributes, text, CDATA,
 * comments, a declaration), so a scanner of those is enough; DTDs and namespaces are
 * not interpreted.
 *
 * Linear in its input however it is cut: text and CDATA are handed on as they come, a
 * comment is searched for its end in the new text only, and a tag that runs past its
 * chunk is kept in pieces, joined once. Nesting is bounded (MAX_DEPTH): memory per open
 * element must not let a file of nested <testsuite>s exhaust it. */

export interface XmlHandler {
  open(name: string, attrs: Readonly<Record<string, string>>): void;
  close(name: string): void;
  /** Raw character data between tags (entities not yet decoded), or a CDATA section's content. */
  text(raw: string, cdata: boolean): void;
}

export interface XmlEnd {
  /** Every element opened was closed, at least one element was seen, nothing was cut off. */
  readonly complete: boolean;
  readonly problems: readonly string[];
}

/** An attribute, or else a run of name characters skipped whole (a failed match must not
 * be retried from every character of a long run). */
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')|[^\s=/>]+/g;
const QUOTE_OR_GT = /["'>]/g;
const NAME = /^[^\s/>!?]+/;
const MAX_PROBLEMS = 20;
/** How deep elements may nest. Real reports nest a few dozen levels (node:test's subtests). */
export const MAX_DEPTH = 256;
/** A cut that may fall inside an entity (`&amp;` is at most 10 characters). */
const ENTITY_MAX = 12;

/** A construct that runs past the end of a chunk, and what is kept of it. */
type Open =
  | { readonly kind: 'skip'; readonly end: string; readonly head: string; tail: string } // comment, <!…>, <?…?>: only its end matters
  | { readonly kind: 'cdata'; readonly head: string; tail: string } // content handed on as it comes
  | { readonly kind: 'tag'; readonly pieces: string[]; quote: string }; // attributes are needed: kept whole

export class XmlScanner {
  /** A few characters carried to the next chunk: a cut entity or the start of a construct. */
  private held = '';
  private open: Open | null = null;
  /** The start of the text since the last construct, for the warning when the file ends in it. */
  private run = '';
  private readonly stack: string[] = [];
  private readonly problems: string[] = [];
  private elements = 0;
  private strayText = false;

  constructor(private readonly handler: XmlHandler) {}

  push(chunk: string): void {
    const text = this.held + chunk;
    this.held = '';
    const at = this.open === null ? 0 : this.continueOpen(this.open, text);
    if (at >= 0) this.scan(text, at);
  }

  end(): XmlEnd {
    const rest = this.open === null ? (this.run + this.held).trim() : this.open.kind === 'tag' ? `<${this.open.pieces[0] ?? ''}` : this.open.head;
    if (rest !== '') this.problem(`the document ends inside ${rest.startsWith('<') ? 'a tag' : 'text'}: ${preview(rest)}`);
    if (this.stack.length > 0) this.problem(`the document ends before </${this.stack[this.stack.length - 1]}> (${this.stack.length} element(s) left open)`);
    if (this.elements === 0) this.problem('no XML element found');
    return { complete: this.problems.length === 0, problems: this.problems };
  }

  /** Handles every construct of `text` from `at`; what runs past its end is kept. */
  private scan(text: string, from: number): void {
    let at = from;
    while (at < text.length) {
      const lt = text.indexOf('<', at);
      if (lt < 0) return this.textToEnd(text, at);
      if (lt > at) this.chars(text.slice(at, lt));
      this.run = '';
      at = this.construct(text, lt);
      if (at < 0) return;
    }
  }

  /** Text that the chunk ends in: handed on, except an entity the cut may have split. */
  private textToEnd(text: string, at: number): void {
    const amp = text.lastIndexOf('&');
    const end = amp >= at && text.length - amp < ENTITY_MAX && !text.includes(';', amp) ? amp : text.length;
    if (end > at) {
      const raw = text.slice(at, end);
      this.chars(raw);
      if (this.run === '') this.run = raw.trimStart().slice(0, 200);
      else if (this.run.length <= 60) this.run += raw.slice(0, 200);
    }
    this.held = text.slice(end);
  }

  /** One construct starting at `<`: the index after it, or -1 when it runs past the text. */
  private construct(text: string, lt: number): number {
    if (text.length - lt < 9 && !text.includes('>', lt)) {
      this.held = text.slice(lt); // too little to tell `<![CDATA[` from `<!x>`
      return -1;
    }
    if (text.startsWith('<!--', lt)) return this.skip(text, lt, lt + 4, '-->');
    if (text.startsWith('<![CDATA[', lt)) return this.cdata(text, lt);
    if (text.startsWith('<?', lt)) return this.skip(text, lt, lt + 2, '?>');
    if (text.startsWith('<!', lt)) return this.skip(text, lt, lt + 2, '>');
    const end = tagEnd(text, lt + 1, '');
    if (end.at >= 0) {
      this.tag(text.slice(lt + 1, end.at));
      return end.at + 1;
    }
    this.open = { kind: 'tag', pieces: [text.slice(lt + 1)], quote: end.quote };
    return -1;
  }

  private skip(text: string, lt: number, from: number, end: string): number {
    const at = text.indexOf(end, from);
    if (at >= 0) return at + end.length;
    this.open = { kind: 'skip', end, head: text.slice(lt, lt + 61), tail: text.slice(Math.max(from, text.length - end.length + 1)) };
    return -1;
  }

  private cdata(text: string, lt: number): number {
    if (this.stack.length === 0) this.stray();
    const at = text.indexOf(']]>', lt + 9);
    if (at >= 0) {
      this.cdataText(text.slice(lt + 9, at));
      return at + 3;
    }
    const keep = Math.max(lt + 9, text.length - 2);
    this.cdataText(text.slice(lt + 9, keep));
    this.open = { kind: 'cdata', head: text.slice(lt, lt + 61), tail: text.slice(keep) };
    return -1;
  }

  /** Carries an open construct on into `text`: the index after its end, or -1. */
  private continueOpen(open: Open, text: string): number {
    if (open.kind === 'tag') {
      const end = tagEnd(text, 0, open.quote);
      if (end.at < 0) {
        open.pieces.push(text);
        open.quote = end.quote;
        return -1;
      }
      this.open = null;
      this.tag(open.pieces.join('') + text.slice(0, end.at));
      return end.at + 1;
    }
    const marker = open.kind === 'cdata' ? ']]>' : open.end;
    const joined = open.tail + text; // the marker may start in the tail
    const at = joined.indexOf(marker);
    const keep = at >= 0 ? at : Math.max(0, joined.length - marker.length + 1);
    if (open.kind === 'cdata') this.cdataText(joined.slice(0, keep));
    if (at < 0) {
      open.tail = joined.slice(keep);
      return -1;
    }
    this.open = null;
    return at + marker.length - open.tail.length;
  }

  private tag(tag: string): void {
    if (tag.startsWith('/')) this.closeTag(tag.slice(1).trim());
    else this.openTag(tag);
  }

  private openTag(tag: string): void {
    const name = NAME.exec(tag)?.[0];
    if (name === undefined) return void this.problem(`not a tag: <${preview(tag)}>`);
    const selfClosing = tag.endsWith('/');
    if (!selfClosing && this.stack.length >= MAX_DEPTH) {
      throw new Error(`elements nest more than ${MAX_DEPTH} deep (<${name}> inside <${this.stack[this.stack.length - 1]}>); JUnit reports are read to a depth of ${MAX_DEPTH}`);
    }
    const attrs: Record<string, string> = {};
    ATTR.lastIndex = name.length;
    for (let m = ATTR.exec(tag); m !== null; m = ATTR.exec(tag)) {
      if (m[2] !== undefined || m[3] !== undefined) attrs[m[1] ?? ''] = decodeEntities(m[2] ?? m[3] ?? '');
    }
    this.elements += 1;
    this.handler.open(name, attrs);
    if (selfClosing) this.handler.close(name);
    else this.stack.push(name);
  }

  private closeTag(name: string): void {
    const at = this.stack.lastIndexOf(name);
    if (at < 0) return void this.problem(`</${name}> closes no open element`);
    if (at !== this.stack.length - 1) this.problem(`</${name}> closes <${this.stack.slice(at + 1).join('>, <')}> too`);
    while (this.stack.length > at) this.handler.close(this.stack.pop() ?? name);
  }

  private chars(raw: string): void {
    if (this.stack.length > 0) this.handler.text(raw, false);
    else if (raw.trim() !== '') this.stray();
  }

  private cdataText(text: string): void {
    if (this.stack.length > 0 && text !== '') this.handler.text(text, true);
  }

  private stray(): void {
    if (this.strayText) return;
    this.strayText = true;
    this.problem('text outside the root element');
  }

  private problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(text);
  }
}

/** The `>` that ends a tag, from `from`, outside quoted attribute values; -1 (with the
 * quote still open, if any) when it is not in `text`. */
function tagEnd(text: string, from: number, openQuote: string): { at: number; quote: string } {
  let quote = openQuote;
  let at = from;
  for (;;) {
    if (quote !== '') {
      const close = text.indexOf(quote, at);
      if (close < 0) return { at: -1, quote };
      at = close + 1;
      quote = '';
    }
    QUOTE_OR_GT.lastIndex = at;
    const m = QUOTE_OR_GT.exec(text);
    if (m === null) return { at: -1, quote: '' };
    if (m[0] === '>') return { at: m.index, quote: '' };
    quote = m[0];
    at = m.index + 1;
  }
}

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const preview = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
