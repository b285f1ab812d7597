/** A small streaming XML scanner for JUnit reports. fast-xml-parser only parses whole
 * documents: it must hold the text and the whole tree (a 100k-testcase report is tens of
 * MB), it cannot count tests while the runner writes, and it reads a truncated file
 * without saying so. JUnit uses a tiny part of XML (elements, attributes, text, CDATA,
 * comments, a declaration), so a scanner of those is enough; DTDs and namespaces are
 * not interpreted. The buffer holds at most one unfinished construct. */

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

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NAME = /^[^\s/>!?]+/;
const MAX_PROBLEMS = 20;

export class XmlScanner {
  private buf = '';
  private readonly stack: string[] = [];
  private readonly problems: string[] = [];
  private elements = 0;
  private strayText = false;

  constructor(private readonly handler: XmlHandler) {}

  push(chunk: string): void {
    this.buf += chunk;
    const used = this.scan();
    this.buf = used === this.buf.length ? '' : this.buf.slice(used);
  }

  end(): XmlEnd {
    const rest = this.buf.trim();
    if (rest !== '') this.problem(`the document ends inside ${rest.startsWith('<') ? 'a tag' : 'text'}: ${preview(rest)}`);
    if (this.stack.length > 0) this.problem(`the document ends before </${this.stack[this.stack.length - 1]}> (${this.stack.length} element(s) left open)`);
    if (this.elements === 0) this.problem('no XML element found');
    return { complete: this.problems.length === 0, problems: this.problems };
  }

  /** Handles every finished construct in the buffer; returns how far it got. */
  private scan(): number {
    const buf = this.buf;
    let at = 0;
    while (at < buf.length) {
      const lt = buf.indexOf('<', at);
      if (lt < 0) return at; // text continues in the next chunk
      if (lt > at) this.chars(buf.slice(at, lt));
      const next = this.construct(buf, lt);
      if (next < 0) return lt;
      at = next;
    }
    return at;
  }

  /** One construct starting at `<`; the index after it, or -1 when it is not all here yet. */
  private construct(buf: string, lt: number): number {
    if (buf.startsWith('<!--', lt)) return skipTo(buf, lt + 4, '-->');
    if (buf.startsWith('<![CDATA[', lt)) {
      const end = buf.indexOf(']]>', lt + 9);
      if (end < 0) return -1;
      if (this.stack.length === 0) this.stray();
      else this.handler.text(buf.slice(lt + 9, end), true);
      return end + 3;
    }
    if (buf.startsWith('<?', lt)) return skipTo(buf, lt + 2, '?>');
    if (buf.length - lt < 9 && '<![CDATA['.startsWith(buf.slice(lt))) return -1; // a prefix of `<![CDATA[`
    if (buf.startsWith('<!', lt)) return skipTo(buf, lt + 2, '>');
    const gt = tagEnd(buf, lt + 1);
    if (gt < 0) return -1;
    const tag = buf.slice(lt + 1, gt);
    if (tag.startsWith('/')) this.closeTag(tag.slice(1).trim());
    else this.openTag(tag);
    return gt + 1;
  }

  private openTag(tag: string): void {
    const name = NAME.exec(tag)?.[0];
    if (name === undefined) return void this.problem(`not a tag: <${preview(tag)}>`);
    const selfClosing = tag.endsWith('/');
    const attrs: Record<string, string> = {};
    ATTR.lastIndex = name.length;
    for (let m = ATTR.exec(tag); m !== null; m = ATTR.exec(tag)) {
      attrs[m[1] ?? ''] = decodeEntities(m[2] ?? m[3] ?? '');
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

  private stray(): void {
    if (this.strayText) return;
    this.strayText = true;
    this.problem('text outside the root element');
  }

  private problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(text);
  }
}

function skipTo(buf: string, from: number, end: string): number {
  const at = buf.indexOf(end, from);
  return at < 0 ? -1 : at + end.length;
}

/** The `>` that ends a tag, skipping quoted attribute values; -1 when not here yet. */
function tagEnd(buf: string, from: number): number {
  const gt = buf.indexOf('>', from);
  if (gt < 0) return -1;
  const head = buf.slice(from, gt);
  if (!head.includes('"') && !head.includes("'")) return gt; // no quote before the first `>`
  let quote = '';
  for (let i = from; i < buf.length; i += 1) {
    const c = buf[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
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
