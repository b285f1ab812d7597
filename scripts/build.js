// Bundles the CLI with esbuild into one CommonJS file, dist/run-tests.cjs, and writes
// V8's code cache for it, dist/run-tests.cache, which bin/run-tests.js hands to V8 so
// that a start compiles almost nothing (see "Start-up" in bench/RESULTS.md's history:
// node 20 has no code cache for ES modules, and its ES module loader costs more than
// the code it loads). Modules behind import() are still evaluated only when a command
// imports them. Type-checking is separate: `npm run typecheck` (tsc --noEmit).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BUNDLE = 'dist/run-tests.cjs';
const CACHE = 'dist/run-tests.cache';

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: BUNDLE,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // src/ finds the package's root from its own file, as an ES module does.
  define: { 'import.meta.url': '__runTestsUrl' },
  banner: { js: 'var __runTestsUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

// The cache belongs to this bundle only: its first line names the bundle's hash, and
// bin/run-tests.js uses a cache only under the same first line (V8 itself checks no
// more than the source's length).
const body = fs.readFileSync(BUNDLE, 'utf8');
const id = `// run-tests build ${crypto.createHash('sha256').update(body).digest('hex').slice(0, 16)}\n`;
fs.writeFileSync(BUNDLE, id + body);
train();

/** V8 caches what a process compiled. Each command below starts from the cache the ones
 * before it wrote and adds what it compiled: the CLI, detection, a real run of a small
 * node:test suite (spawn, log, report, parse, store) and both renderers. A runner's own
 * parser that is not in it compiles when first used, as it would without a cache. */
function train() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-build-'));
  try {
    fs.mkdirSync(path.join(dir, 'test'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "train", "private": true, "scripts": { "test": "node --test" } }\n');
    fs.writeFileSync(path.join(dir, 'test/a.test.js'), [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "test('passes', () => assert.ok(true));",
      "test('fails', () => assert.strictEqual(1, 2));",
      "test.skip('skipped', () => {});",
      '',
    ].join('\n'));
    const commands = [['--version'], ['detect', '--cwd', dir], ['--cwd', dir], ['--cwd', dir, '--json'], ['--cwd', dir, '--failed-only']];
    for (const args of commands) {
      try {
        execFileSync(process.execPath, ['bin/run-tests.js', ...args], { env: { ...process.env, RUN_TESTS_WRITE_CODE_CACHE: CACHE }, stdio: 'pipe' });
      } catch (error) {
        if (error.status !== 1) throw new Error(`training run-tests ${args.join(' ')} failed: ${error.stderr}`);
      }
    }
    if (!fs.existsSync(CACHE)) throw new Error(`training wrote no ${CACHE}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
