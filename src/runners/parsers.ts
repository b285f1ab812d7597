/** Every parser by id: the formats several producers share, and each registered
 * runner's own (Runner.parsers). A run's record names its parsers by these ids. */
import type { ParserFactory } from '../parsers/stream.js';
import type { ProjectFacts } from '../project/facts.js';
import { RUNNERS } from './index.js';
import type { ParserEntry, ParserId } from './types.js';

const FORMATS: Readonly<Record<ParserId, ParserEntry>> = {
  junit: { load: async () => (await import('../parsers/junit.js')).createJunitParser },
  tap: { load: async () => (await import('../parsers/tap.js')).createTapParser },
};

const ENTRIES: ReadonlyMap<ParserId, ParserEntry> = new Map([
  ...Object.entries(FORMATS),
  ...RUNNERS.flatMap((runner) => Object.entries(runner.parsers ?? {})),
]);

export type { ParserId };

/** Every parser id, the shared formats' first. */
export const PARSER_IDS: readonly ParserId[] = [...ENTRIES.keys()];

/** Whether a parser id read from a file (a run's record) names a parser. */
export const isParserId = (id: unknown): id is ParserId => typeof id === 'string' && ENTRIES.has(id);

export function loadParser(id: ParserId): Promise<ParserFactory> {
  const entry = ENTRIES.get(id);
  if (entry === undefined) throw new Error(`no parser ${JSON.stringify(id)}`);
  return entry.load();
}

/** What the parser needs of the project beyond its root, for `run-tests parse`. */
export const parserHints = (id: ParserId, facts: ProjectFacts): Readonly<Record<string, string>> => ENTRIES.get(id)?.hints?.(facts) ?? {};
