/** Definitions in a source whose blocks are told by indentation: Python, and Ruby as it
 * is conventionally indented. Enough to name the test at a line (`file:line`); a line
 * the scan cannot place selects nothing, and the caller says so. */

export interface Definition {
  /** The pattern's `kind` group (`def`, `class`, …). */
  readonly kind: string;
  /** The pattern's `name` group. */
  readonly name: string;
  /** 1-based. */
  readonly line: number;
  readonly indent: number;
}

const indentOf = (text: string): number => text.length - text.trimStart().length;
const isBlank = (text: string): boolean => text.trim() === '' || text.trimStart().startsWith('#');

/** The definitions (lines `pattern` matches, with groups `kind` and `name`) that enclose
 * a line, outermost first: a line belongs to the nearest definition above it that is
 * indented less, or to the one on the line itself. A line `annotation` matches (a
 * decorator) belongs to the definition below it, one `closer` matches (Ruby's `end`) to
 * the definition it closes. */
export function enclosingDefinitions(text: string, line: number, pattern: RegExp, { annotation, closer }: { annotation?: RegExp; closer?: RegExp } = {}): Definition[] {
  const lines = text.split(/\r?\n/);
  let at = line - 1;
  if (at < 0 || at >= lines.length) return [];
  while (annotation && at < lines.length - 1 && annotation.test(lines[at] ?? '')) at += 1;
  const chain: Definition[] = [];
  const start = lines[at] ?? '';
  let limit = closer?.test(start) ? indentOf(start) + 1 : Infinity;
  for (let i = at; i >= 0; i -= 1) {
    const source = lines[i] ?? '';
    if (isBlank(source)) continue;
    const indent = indentOf(source);
    if (indent >= limit || closer?.test(source)) continue;
    const found = pattern.exec(source)?.groups;
    if (found?.['kind'] !== undefined && found['name'] !== undefined) chain.unshift({ kind: found['kind'], name: found['name'], line: i + 1, indent });
    limit = indent;
    if (indent === 0) break;
  }
  return chain;
}

/** The definitions `pattern` matches directly inside the block of `parent` (indented
 * more than it, up to the first line that is not), in order. */
export function definitionsIn(text: string, parent: Definition, pattern: RegExp): Definition[] {
  const lines = text.split(/\r?\n/);
  const found: Definition[] = [];
  let inner = Infinity;
  for (let i = parent.line; i < lines.length; i += 1) {
    const source = lines[i] ?? '';
    if (isBlank(source)) continue;
    const indent = indentOf(source);
    if (indent <= parent.indent) break;
    inner = Math.min(inner, indent);
    const groups = indent === inner ? pattern.exec(source)?.groups : undefined;
    if (groups?.['kind'] !== undefined && groups['name'] !== undefined) found.push({ kind: groups['kind'], name: groups['name'], line: i + 1, indent });
  }
  return found;
}
