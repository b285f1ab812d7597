/** Imports point down only: the base (src/model/) imports nothing of ours, a layer
 * imports only layers below it, and no runner reaches into another runner's folder. */
import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Lower ranks are imported by higher ones, never the other way round. */
const RANKS: readonly (readonly [RegExp, number])[] = [
  [/^model\//, 0],
  [/^(project|parsers|process|store)\//, 1],
  [/^ecosystems\//, 2],
  [/^runners\/types\.ts$/, 2],
  [/^runners\/[^/]+\//, 3],
  [/^runners\/[^/]+\.ts$/, 4],
  [/^detect\//, 5],
  [/^core\//, 6],
  [/^render\//, 7],
  [/^cli\//, 8],
];

const rankOf = (file: string): number => {
  const found = RANKS.find(([pattern]) => pattern.test(file));
  if (found === undefined) throw new Error(`src/${file} is in no layer of test/unit/layout.test.ts`);
  return found[1];
};
const runnerOf = (file: string): string | null => /^runners\/([^/]+)\//.exec(file)?.[1] ?? null;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** `from './x.js'` and `import('./x.js')`, resolved to src-relative .ts paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] ?? '');
  return specs.map((spec) => path.relative(SRC, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts'));
}

const edges = sources(SRC).flatMap((full) => {
  const from = path.relative(SRC, full);
  return importsOf(full).map((to) => ({ from, to }));
});

describe('layout', () => {
  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'core/run-project.ts', to: 'runners/types.ts' });
  });

  it('imports point down only', () => {
    const upward = edges.filter(({ from, to }) => rankOf(to) > rankOf(from)).map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it('no runner imports another runner', () => {
    const sideways = edges.filter(({ from, to }) => {
      const [a, b] = [runnerOf(from), runnerOf(to)];
      return a !== null && b !== null && a !== b;
    }).map(({ from, to }) => `${from} -> ${to}`);
    expect(sideways).toEqual([]);
  });

  it('only the registry imports a runner, outside the runners', () => {
    const reaching = edges.filter(({ from, to }) => runnerOf(to) !== null && !from.startsWith('runners/'))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(reaching).toEqual([]);
  });
});
