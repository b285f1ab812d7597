/** Rust source with comments and literals blanked, for scans of its items: loaded with
 * the adapter (file:line reads it before a run), unlike source.ts, which only locate() needs. */

const RAW_STRING = /(?<![\w])(?:b|c)?r(#*)"/y;
const CHAR = /'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]*\}|[^\n])|[^\\'\n])'/uy;

/** The source with comments, string and character literals blanked (newlines and
 * offsets kept), so that braces and `fn` in them are not read as code. */
export function codeOnly(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number): number => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
    return to;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    RAW_STRING.lastIndex = i;
    CHAR.lastIndex = i;
    const raw = c === 'r' || c === 'b' || c === 'c' ? RAW_STRING.exec(text) : null;
    if (c === '/' && next === '/') i = blank(i, lineEnd(text, i));
    else if (c === '/' && next === '*') i = blank(i, blockCommentEnd(text, i));
    else if (raw !== null) i = blank(i, rawStringEnd(text, i + raw[0].length, raw[1] ?? ''));
    else if (c === '"') i = blank(i, stringEnd(text, i + 1));
    else if (c === '\'' && CHAR.exec(text) !== null) i = blank(i, CHAR.lastIndex);
    else i += 1;
  }
  return out.join('');
}

const lineEnd = (text: string, from: number): number => {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
};

/** Block comments nest in Rust. */
function blockCommentEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length - 1; i += 1) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth += 1;
      i += 1;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth -= 1;
      i += 1;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

function rawStringEnd(text: string, from: number, hashes: string): number {
  const end = text.indexOf(`"${hashes}`, from);
  return end === -1 ? text.length : end + 1 + hashes.length;
}
