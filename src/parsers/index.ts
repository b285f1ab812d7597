import type { Parser } from '../core/types.js';

/** Parsers by id, loaded on demand so a command only imports the parser it uses. */
const loaders = {
  'minitest-jsonl': async () => (await import('./minitest-jsonl.js')).parseMinitestJsonl,
  'rspec-json': async () => (await import('./rspec-json.js')).parseRspecJson,
  'rspec-stream': async () => (await import('./rspec-stream.js')).parseRspecStream,
} satisfies Record<string, () => Promise<Parser>>;

export type ParserId = keyof typeof loaders;

export const loadParser = (id: ParserId): Promise<Parser> => loaders[id]();
