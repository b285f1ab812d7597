/** Small helpers every parser shares: reading untyped JSON fields, bounding messages,
 * and making runner paths project-relative. */

export const MESSAGE_LIMIT_BYTES = 2048;
const ELLIPSIS = '…';

/** Cuts to at most `max` UTF-8 bytes without splitting a character, marking the cut. */
export function boundMessage(text: string, max = MESSAGE_LIMIT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max - Buffer.byteLength(ELLIPSIS);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8') + ELLIPSIS;
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
