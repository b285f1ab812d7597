/** Every MCP response is at most `limit` bytes of JSON. What does not fit is dropped from
 * the end of the lists named, and the response says so in `cut`. */
export interface Cut {
  readonly limit_bytes: number;
  /** How many items each list lost, from its end. */
  readonly dropped: Readonly<Record<string, number>>;
  /** Where the whole of it is. */
  readonly full: string | null;
}

export type Bounded = Record<string, unknown> & { readonly cut?: Cut };

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** `value` as it is when it fits; else with the lists in `lists` shortened, in that order,
 * until it fits. Past that (a value too large without any list) only `cut` is left. */
export function fit(value: Record<string, unknown>, limit: number, lists: readonly string[], full: string | null): Bounded {
  if (bytes(value) <= limit) return value;
  let current: Record<string, unknown> = value;
  const dropped: Record<string, number> = {};
  const withCut = (v: Record<string, unknown>): Bounded => ({ ...v, cut: { limit_bytes: limit, dropped: { ...dropped }, full } });
  for (const key of lists) {
    const list = current[key];
    if (!Array.isArray(list)) continue;
    const keep = longestFitting(list.length, (n) => {
      dropped[key] = list.length - n;
      return bytes(withCut({ ...current, [key]: list.slice(0, n) })) <= limit;
    });
    dropped[key] = list.length - keep;
    current = { ...current, [key]: list.slice(0, keep) };
    if (bytes(withCut(current)) <= limit) return withCut(current);
  }
  return { cut: { limit_bytes: limit, dropped, full } };
}

/** The largest n in 0..length for which `fits(n)` holds (fits falls as n grows); 0 when none. */
function longestFitting(length: number, fits: (n: number) => boolean): number {
  let [low, high] = [0, length];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The end of a text, at most `limit` bytes of it, starting at a whole line. */
export function textTail(text: string, limit: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text) <= limit) return { text, cut: false };
  if (limit <= 0) return { text: '', cut: true };
  const end = Buffer.from(text).subarray(-limit).toString('utf8');
  const newline = end.indexOf('\n');
  return { text: newline === -1 ? end.replace(/^\uFFFD+/, '') : end.slice(newline + 1), cut: true };
}
