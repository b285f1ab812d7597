import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { tempDir } from './fixtures.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** recordHistory and artifactPaths from src/, bundled with esbuild: the dist bundle
 * exports neither, and the store must be written by the code a run writes it with. */
async function storeModule() {
  const dir = tempDir('history-store');
  const source = (name) => JSON.stringify(path.join(repoRoot, 'src', `${name}.ts`));
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, `export { recordHistory } from ${source('store/history')};\nexport { artifactPaths } from ${source('store/artifacts')};\n`);
  const outfile = path.join(dir, 'store.mjs');
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

/** Test `i` of the suite: `files` files of `perFile` tests, names as long as real ones. */
const testOf = (i, perFile) => {
  const file = Math.floor(i / perFile);
  return { name: `module ${file % 50} feature ${file} handles case ${i % perFile} as documented`, file: `src/module${file % 50}/feature${file}.test.ts` };
};

/**
 * A project whose history holds `runs` runs of `tests` tests, written by recordHistory as
 * each run's end writes it: one clean commit, so flips count; every `flipEvery`-th test
 * fails in one run of three; durations spread over 1-300 ms. Returns the project's directory.
 */
export async function historyProject({ runs, tests, perFile = 10, flipEvery = 97 }) {
  const { recordHistory, artifactPaths } = await storeModule();
  const dir = tempDir('history');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"history-bench","scripts":{"test":"node --test"}}\n');
  fs.mkdirSync(path.join(dir, '.run-tests'));
  const shapes = Array.from({ length: tests }, (_, i) => testOf(i, perFile));
  const start = Date.UTC(2026, 11, 1);
  for (let r = 0; r < runs; r += 1) {
    const at = new Date(start + r * 60_000).toISOString();
    const runId = `${at.slice(0, 10).replaceAll('-', '')}-${at.slice(11, 23).replaceAll(':', '')}-${r.toString(16).padStart(8, '0')}`;
    const results = shapes.map((t, i) => {
      const fails = i % flipEvery === 0 && (r + i) % 3 === 0;
      return { id: t.name, name: t.name, file: t.file, line: 1, durationMs: 1 + ((i * 7 + r * 13) % 300), ...(fails ? { status: 'failed', message: 'boom' } : { status: 'passed' }) };
    });
    const failed = results.filter((t) => t.status === 'failed').length;
    const report = {
      run_id: runId, started_at: at, status: failed > 0 ? 'failed' : 'passed', framework: 'jest', duration_ms: 60_000,
      git: { revision: 'a'.repeat(40), dirty: false },
      summary: { run: tests, passed: tests - failed, failures: failed, errors: 0, skips: 0 },
    };
    recordHistory(artifactPaths(dir, runId), report, results, runs);
  }
  return dir;
}
