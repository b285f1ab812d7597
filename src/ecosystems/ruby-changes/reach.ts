/** Who reaches a changed file through the graph, and why: one walk back from each changed
 * file (so a plan costs the changed files times the graph, not the units times it), and
 * one walk forward from every unit for loads the graph cannot follow. */
import type { EdgeKind, Graph } from './graph.js';

export type Reverse = ReadonlyMap<string, readonly string[]>;

export function reverseOf(graph: Graph): Reverse {
  const reverse = new Map<string, string[]>();
  for (const [from, out] of graph.edges) {
    for (const to of out.keys()) {
      const list = reverse.get(to);
      if (list === undefined) reverse.set(to, [from]);
      else list.push(from);
    }
  }
  return reverse;
}

/** The units that reach `changed` (not itself), each with the reason its shortest path
 * gives: the unit's own first step, and the file it leads to when that is not `changed`. */
export function unitsReaching(graph: Graph, reverse: Reverse, changed: string, units: ReadonlySet<string>): Map<string, string> {
  const next = new Map<string, string>([[changed, changed]]);
  const queue = [changed];
  const found = new Map<string, string>();
  for (let i = 0; i < queue.length; i += 1) {
    const file = queue[i] ?? '';
    for (const from of reverse.get(file) ?? []) {
      if (next.has(from)) continue;
      next.set(from, file);
      queue.push(from);
      if (units.has(from)) found.set(from, reason(graph.edges.get(from)?.get(file) ?? 'references', changed, file));
    }
  }
  return found;
}

function reason(kind: EdgeKind, changed: string, hop: string): string {
  if (kind === 'convention') return hop === changed ? `convention: ${changed}` : `convention: ${hop}, which loads ${changed}`;
  const verb = kind === 'requests' ? 'sends requests to' : kind;
  return hop === changed ? `${verb} ${changed}` : `${verb} ${changed} via ${hop}`;
}

/** The first file a unit reaches whose loads the graph cannot follow, with why and the
 * unit; null when every unit's loads are known. `outside` counts too when asked. */
export function unknownReached(graph: Graph, units: readonly string[], outside: boolean): string | null {
  const origin = new Map<string, string>();
  const queue: string[] = [];
  for (const unit of [...units].sort()) {
    origin.set(unit, unit);
    queue.push(unit);
  }
  for (let i = 0; i < queue.length; i += 1) {
    const file = queue[i] ?? '';
    const unit = origin.get(file) ?? file;
    const by = unit === file ? '' : `, and ${unit} reaches it`;
    const why = graph.unknown.get(file);
    if (why !== undefined) return `${why}${by}`;
    const away = outside ? graph.outside.get(file) : undefined;
    if (away !== undefined) return `${file} loads ${away}, outside the project, where the graph does not follow${by}`;
    for (const to of graph.edges.get(file)?.keys() ?? []) {
      if (origin.has(to)) continue;
      origin.set(to, unit);
      queue.push(to);
    }
  }
  return null;
}
