import type { ProjectFacts } from '../project/facts.js';
import { goReportHints } from './go/runner.js';
import { documentParser, type ParserFactory } from '../parsers/stream.js';
import type { ParserId } from './types.js';

/** Parsers by id (ParserId in ./types.ts names each key), loaded on demand so a command only imports the parser it uses. */
const loaders = {
  'minitest-jsonl': async () => (await import('./minitest/jsonl.js')).createMinitestParser,
  'rspec-json': async () => documentParser((await import('./rspec/json.js')).parseRspecJson),
  'rspec-stream': async () => (await import('./rspec/stream.js')).createRspecStreamParser,
  'go-json': async () => (await import('./go/json.js')).createGoJsonParser,
  jest: async () => (await import('./jest/events.js')).createJestParser,
  vitest: async () => (await import('./vitest/events.js')).createVitestParser,
  mocha: async () => (await import('./mocha/events.js')).createMochaParser,
  'node-test': async () => (await import('./node-test/events.js')).createNodeTestParser,
  pytest: async () => (await import('./pytest/events.js')).createPytestParser,
  cargo: async () => (await import('./cargo/report.js')).createCargoParser,
  junit: async () => (await import('../parsers/junit.js')).createJunitParser,
  tap: async () => (await import('../parsers/tap.js')).createTapParser,
  'jest-json': async () => (await import('./jest/json.js')).createJestJsonParser,
} satisfies Record<ParserId, () => Promise<ParserFactory>>;

export type { ParserId };

/** Whether a parser id read from a file (a run's record) names a parser. */
export const isParserId = (id: unknown): id is ParserId => typeof id === 'string' && Object.hasOwn(loaders, id);

export const loadParser = (id: ParserId): Promise<ParserFactory> => loaders[id]();

/** What a parser needs to know of the project beyond its root, for a report read by
 * `run-tests parse` (a run's report source carries the same from its runner's plan). */
const hintReaders: Partial<Record<ParserId, (facts: ProjectFacts) => Readonly<Record<string, string>>>> = {
  'go-json': goReportHints,
};

export const parserHints = (id: ParserId, facts: ProjectFacts): Readonly<Record<string, string>> => hintReaders[id]?.(facts) ?? {};
