import { documentParser, type ParserFactory } from './stream.js';

/** Parsers by id, loaded on demand so a command only imports the parser it uses. */
const loaders = {
  'minitest-jsonl': async () => (await import('./minitest-jsonl.js')).createMinitestParser,
  'rspec-json': async () => documentParser((await import('./rspec-json.js')).parseRspecJson),
  'rspec-stream': async () => (await import('./rspec-stream.js')).createRspecStreamParser,
} satisfies Record<string, () => Promise<ParserFactory>>;

export type ParserId = keyof typeof loaders;

export const loadParser = (id: ParserId): Promise<ParserFactory> => loaders[id]();
