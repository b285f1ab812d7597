/** The ids of node:test results, shared by the parser that makes them and the adapter
 * that turns them back into a rerun selection. */

/** `<file>::[[describe names…],[test names…]]`: a rerun selects the outermost test by
 * name (node 20 matches each name on its own, and a matching describe runs all of it). */
export const nodeTestId = (file: string | null, suites: readonly string[], tests: readonly string[]): string =>
  `${file ?? ''}::${JSON.stringify([suites, tests])}`;

export function parseNodeTestId(id: string, file: string | null): { suites: string[]; tests: string[] } | null {
  const prefix = `${file ?? ''}::`;
  if (!id.startsWith(prefix)) return null;
  try {
    const value: unknown = JSON.parse(id.slice(prefix.length));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [suites, tests] = value as unknown[];
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
    return strings(suites) && strings(tests) && tests.length > 0 ? { suites, tests } : null;
  } catch {
    return null;
  }
}
