/** A JUnit document read whole by fast-xml-parser, its elements handed on in document
 * order. The parser is lenient: it keeps what it read of a document that is cut off, and
 * its validator then judges whether the document is well-formed. What a cut-off document
 * still has open is never closed here, so an unfinished testcase is never a result. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Attrs = Readonly<Record<string, string>>;

export interface XmlHandler {
  open(name: string, attrs: Attrs): void;
  close(name: string): void;
  /** The text of a TEXT_ELEMENTS element (but output's), entities decoded, CDATA as it
   * is: its first MAX_TEXT characters. */
  text(text: string): void;
}

export interface XmlEnd {
  /** Every element opened was closed, at least one element was seen, nothing was cut off. */
  readonly complete: boolean;
  readonly problems: readonly string[];
}

/** Enough of a failure's text to find its message and the frame in the test file. */
export const MAX_TEXT = 64 * 1024;
/** How deep elements may nest. Real reports nest a few dozen levels (node:test's subtests). */
export const MAX_DEPTH = 256;
/** Elements whose text is read (or skipped) whole. fast-xml-parser hands over their content
 * as one slice of the document, where it builds other text a character at a time: 32 MB
 * of failure text took 4.6 s and 1.6 GB that way. */
const TEXT_ELEMENTS = ['failure', 'error', 'skipped', 'flakyFailure', 'flakyError', 'rerunFailure', 'rerunError', 'system-out', 'system-err'];
const TEXT_ELEMENT = new Set(TEXT_ELEMENTS);
/** Captured output: skipped whole, never decoded. */
const OUTPUT = new Set(['system-out', 'system-err']);
const DEPTH_EXCEEDED = 'Maximum nested tags exceeded';
/** A document nested past MAX_DEPTH: refused whole, never read as a cut-off one. */
class NestingError extends Error {}
const MAX_PROBLEMS = 20;

/** fast-xml-parser's ordered output: `{ name: children, ':@': attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;
/** What the parser's path matcher tells: the elements open where it stopped. */
interface OpenPath { toArray(): string[] }

function parseTree(text: string): { nodes: XmlNode[]; open: string[] } {
  let path: OpenPath | null = null;
  const parser = new XMLParser({
    // Attribute values exactly as written: `trimValues` would trim them too (a test named ` x `).
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false,
    trimValues: false, ignoreDeclaration: true, ignorePiTags: true, maxNestedTags: MAX_DEPTH - 1,
    entityDecoder: XML_ENTITIES,
    stopNodes: TEXT_ELEMENTS.map((name) => `..${name}`),
    jPath: false,
    updateTag: (name: string, matcher: unknown) => {
      path = matcher as OpenPath;
      return name;
    },
  });
  try {
    const nodes = parser.parse(text) as XmlNode[];
    return { nodes, open: (path as OpenPath | null)?.toArray() ?? [] };
  } catch (error) {
    const [parent, name] = (path as OpenPath | null)?.toArray().slice(-2) ?? [];
    if (error instanceof Error && error.message === DEPTH_EXCEEDED) {
      throw new NestingError(`elements nest more than ${MAX_DEPTH} deep (<${name}> inside <${parent}>); JUnit reports are read to a depth of ${MAX_DEPTH}`);
    }
    throw error;
  }
}

/** Reads `text` and hands its elements to `handler`; what is cut off or malformed becomes problems. */
export function readDocument(text: string, handler: XmlHandler): XmlEnd {
  const problems: string[] = [];
  const { nodes, open, cutOpen } = treeOf(text, problems);
  walk(nodes, handler, open.length);
  if (cutOpen !== null) open.push(cutOpen);
  if (open.length > 0) problems.push(`the document ends before </${open[open.length - 1]}> (${open.length} element(s) left open)`);
  const roots = nodes.filter((node) => nameOf(node) !== '#text').length;
  if (roots === 0) problems.push('no XML element found');
  if (roots > 1) problems.push(`${roots} root elements; a document has one`);
  if (problems.length === 0 && text.slice(text.lastIndexOf('>') + 1).trim() !== '') problems.push('text outside the root element');
  if (problems.length === 0) {
    const valid = XMLValidator.validate(text);
    if (valid !== true) problems.push(`${valid.err.msg} (line ${valid.err.line}${valid.err.col === undefined ? '' : `, column ${valid.err.col}`})`);
  }
  return { complete: problems.length === 0, problems: problems.slice(0, MAX_PROBLEMS) };
}

/** The tree, and the elements left open. A document cut off inside a construct (a tag, a
 * comment, CDATA, a failure's text) makes the parser throw: it is read again up to where
 * the construct may start, latest first, and at the earliest up to its last testcase. */
function treeOf(text: string, problems: string[]): { nodes: XmlNode[]; open: string[]; cutOpen: string | null } {
  let failure: unknown;
  try {
    return { ...parseTree(text), cutOpen: null };
  } catch (error) {
    if (error instanceof NestingError) throw error;
    failure = error;
  }
  const cuts = ['<', '<!--', '<![CDATA[', '<testcase'].map((start) => text.lastIndexOf(start)).filter((at) => at >= 0);
  for (const cut of new Set(cuts.sort((a, b) => b - a))) {
    try {
      const tree = parseTree(text.slice(0, cut));
      problems.push(`the document ends inside ${preview(text.slice(cut))}`);
      // The element whose start tag the cut begins with was open too.
      return { ...tree, cutOpen: /^<([^\s/>!?]+)/.exec(text.slice(cut, cut + 200))?.[1] ?? null };
    } catch (error) {
      if (error instanceof NestingError) throw error;
    }
  }
  problems.push(`not readable as XML: ${failure instanceof Error ? failure.message : String(failure)}`);
  return { nodes: [], open: [], cutOpen: null };
}

/** Hands the elements on in document order. An element left open is the last one of its
 * parent, and is never closed: `open` counts those on the way down the last nodes. */
function walk(nodes: readonly XmlNode[], handler: XmlHandler, open: number): void {
  nodes.forEach((node, i) => {
    const name = nameOf(node);
    if (name === '#text') return;
    const children = (node[name] ?? []) as XmlNode[];
    const isOpen = open > 0 && i === nodes.length - 1;
    handler.open(name, (node[':@'] ?? {}) as Attrs);
    if (TEXT_ELEMENT.has(name)) {
      const raw = children[0]?.['#text'];
      if (typeof raw === 'string' && raw !== '' && !OUTPUT.has(name)) handler.text(textOf(raw.slice(0, MAX_TEXT)));
    } else {
      walk(children, handler, isOpen ? open - 1 : 0);
    }
    if (!isOpen) handler.close(name);
  });
}

const nameOf = (node: XmlNode): string => Object.keys(node).find((key) => key !== ':@') ?? '#text';

/** The raw content of a TEXT_ELEMENTS element as text: CDATA sections as they are (one the
 * MAX_TEXT cut leaves open, too); elsewhere entities decoded and the tags of nested
 * elements (Surefire's <stackTrace>) left out. */
function textOf(raw: string): string {
  return raw.split(/<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)/).map((part, i) => (i % 2 === 1 ? part : decodeEntities(part.replace(/<[^>]*>/g, '')))).join('');
}

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's five entities and character references, in attributes and text alike. Entities a
 * DTD declares stay as written: nothing a report says expands into more text. (The
 * parser's own decoder leaves character references alone unless told HTML's entities.) */
const XML_ENTITIES = { decode: decodeEntities, reset() {}, setXmlVersion() {}, setExternalEntities() {}, addInputEntities() {} };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const preview = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** A closed `</testcase>` or a self-closing `<testcase …/>`. */
const FINISHED = /<\/testcase\s*>|<testcase\b[^>]*\/>/g;
/** The most of a tag kept from one chunk to the next: a longer one is not counted live. */
const MAX_CARRY = 4096;

/** The live count of finished testcases, as the report grows: the document is parsed only at its end. */
export class FinishedCount {
  count = 0;
  private carry = '';

  push(chunk: string): void {
    const text = this.carry + chunk;
    const lastTag = text.lastIndexOf('<');
    // A tag the chunk cuts is counted with the next chunk.
    const end = lastTag >= 0 && !text.includes('>', lastTag) && text.length - lastTag <= MAX_CARRY ? lastTag : text.length;
    this.count += text.slice(0, end).match(FINISHED)?.length ?? 0;
    this.carry = text.slice(end);
  }
}
