import { documentParser, type ParserFactory } from './stream.js';

/** Parsers by id, loaded on demand so a command only imports the parser it uses. */
const loaders = {
  'minitest-jsonl': async () => (await import('./minitest-jsonl.js')).createMinitestParser,
  'rspec-json': async () => documentParser((await import('./rspec-json.js')).parseRspecJson),
  'rspec-stream': async () => (await import('./rspec-stream.js')).createRspecStreamParser,
  'go-json': async () => (await import('./go-json.js')).createGoJsonParser,
  jest: async () => (await import('./jest.js')).createJestParser,
  vitest: async () => (await import('./vitest.js')).createVitestParser,
  mocha: async () => (await import('./mocha.js')).createMochaParser,
  'node-test': async () => (await import('./node-test.js')).createNodeTestParser,
  pytest: async () => (await import('./pytest.js')).createPytestParser,
  cargo: async () => (await import('./cargo.js')).createCargoParser,
  junit: async () => (await import('./junit.js')).createJunitParser,
  tap: async () => (await import('./tap.js')).createTapParser,
  'jest-json': async () => (await import('./jest-json.js')).createJestJsonParser,
} satisfies Record<string, () => Promise<ParserFactory>>;

export type ParserId = keyof typeof loaders;

/** Whether a parser id read from a file (a run's record) names a parser. */
export const isParserId = (id: unknown): id is ParserId => typeof id === 'string' && Object.hasOwn(loaders, id);

export const loadParser = (id: ParserId): Promise<ParserFactory> => loaders[id]();
