/** Small helpers every parser shares: reading untyped JSON fields, bounding messages,
 * and making runner paths project-relative. */

export const MESSAGE_LIMIT_BYTES = 2048;
/** Room a parser leaves in a cut message for the core to say where the full text is
 * (` in <log path>`, withFullText): a run's log path is well under this. */
const WHERE_ROOM_BYTES = 256;
/** The line that ends a cut message: `… 37 more lines`, then ` in <path>` once the core adds it. */
const CUT_MARKER = /\n… (\d+) more lines?$/;

/** Cuts to at most `max` UTF-8 bytes (less the room for where the full text is),
 * ending with a line that says how many lines are not shown in full: `… 37 more lines`.
 * The cut is at the end of a line when that keeps half the room, else inside the line,
 * never inside a character. */
export function boundMessage(text: string, max = MESSAGE_LIMIT_BYTES): string {
  // Three bytes a character at most: most messages are known to fit without encoding.
  if (text.length * 3 <= max || Buffer.byteLength(text) <= max) return text;
  return cutMessage(text, Math.max(max - WHERE_ROOM_BYTES, max / 2), '', 0);
}

/** A cut message's marker with where its full text is (`… 37 more lines in <where>`),
 * within `max` bytes: cut further, and the count raised, if the path needs more room.
 * A message that was not cut is returned as it is. */
export function withFullText(message: string, where: string, max = MESSAGE_LIMIT_BYTES): string {
  const cut = CUT_MARKER.exec(message);
  if (cut === null) return message;
  const marked = `${message} in ${where}`;
  if (Buffer.byteLength(marked) <= max) return marked;
  return cutMessage(message.slice(0, cut.index), max, ` in ${where}`, Number(cut[1]));
}

/** The lines of `bytes` from `from` on, trailing newlines aside; counted in the bytes,
 * since a runner's output can make a message of megabytes. */
function linesIn(bytes: Buffer, from: number): number {
  let last = bytes.length;
  while (last > from && bytes[last - 1] === 0x0a) last -= 1;
  let count = 1;
  for (let at = bytes.indexOf(0x0a, from); at >= 0 && at < last; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

const moreLines = (n: number): string => `\n… ${n} more line${n === 1 ? '' : 's'}`;

/** `text` cut to fit `max` bytes with its marker, which counts `dropped` lines more. */
function cutMessage(text: string, max: number, where: string, dropped: number): string {
  const bytes = Buffer.from(text, 'utf8');
  const lines = (from: number): number => linesIn(bytes, from);
  // The marker is sized for the most lines it could count.
  let end = Math.max(0, max - Buffer.byteLength(`${moreLines(lines(0) + dropped)}${where}`));
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  const newline = bytes.lastIndexOf(0x0a, end);
  const atLine = newline >= end / 2;
  const keep = atLine ? newline : end;
  const more = (atLine ? lines(newline + 1) : lines(end)) + dropped;
  return `${bytes.subarray(0, keep).toString('utf8')}${moreLines(more)}${where}`;
}

/** How many lines of a runner's output a warning or message quotes from its end. */
export const TAIL_LINES = 15;

/** The last `count` lines of a text, trailing blank lines aside, and fewer when they
 * would pass `maxBytes`, though never none of a text that has some: the end of a
 * runner's output, which says why it failed. `left` counts the lines before them. */
export function lastLines(text: string, count = TAIL_LINES, maxBytes = Infinity): { readonly text: string; readonly left: number } {
  const lines = text.trimEnd().split('\n');
  let kept = Math.min(count, lines.length);
  while (kept > 1 && Buffer.byteLength(lines.slice(-kept).join('\n')) > maxBytes) kept -= 1;
  return { text: lines.slice(-kept).join('\n'), left: lines.length - kept };
}

/** Project-relative, `/`-separated, without a leading `./`; paths outside root stay absolute. */
export function relativeFile(file: string, root: string): string {
  const p = file.replace(/\\/g, '/');
  const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
  if (r !== '' && p.startsWith(`${r}/`)) return p.slice(r.length + 1);
  return p.replace(/^(\.\/)+/, '');
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A 1-based line number, or null. */
export const int = (value: unknown): number | null =>
  (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);

export type JsonObject = Record<string, unknown>;

/** One line of a JSON-lines report as an object, or undefined (not JSON, or not an object). */
export function parseJsonObject(line: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Appends `items` to `target`. push(...items) passes each item as an argument, which
 * overflows the stack somewhere above 100,000 items: one suite can hold that many. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** A line shortened for a warning. */
export const preview = (line: string): string => (line.length > 80 ? `${line.slice(0, 80)}…` : line);

/** One line of a JSON-lines report as an object; a blank line is null, a line that is
 * not a JSON object is null with a warning (`incomplete` when the writer was cut off). */
export function jsonLine(raw: string, lineNo: number, cutOff: boolean, warnings: string[]): JsonObject | null {
  const line = raw.trim();
  if (line === '') return null;
  const record = parseJsonObject(line);
  if (record === undefined) {
    warnings.push(`line ${lineNo}: ${cutOff ? 'incomplete' : 'not valid'} JSON, ignored: ${preview(line)}`);
    return null;
  }
  return record;
}
