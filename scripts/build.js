// Bundles the CLI with esbuild into one CommonJS file, dist/run-tests.cjs (tap-parser
// apart, in dist/tap-parser.cjs: see TAP_PARSER), and writes
// V8's code cache for it, dist/run-tests.cache, which bin/run-tests.js hands to V8 so
// that a start compiles almost nothing (see "Start-up" in bench/RESULTS.md's history:
// node 20 has no code cache for ES modules, and its ES module loader costs more than
// the code it loads). Modules behind import() are still evaluated only when a command
// imports them. Type-checking is separate: `npm run typecheck` (tsc --noEmit).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const BUNDLE = 'dist/run-tests.cjs';
const CACHE = 'dist/run-tests.cache';
/** tap-parser and the YAML library it reads diagnostics with: 40% of the bundle, for
 * TAP reports only (a custom command's `--report tap:...`, `parse --format tap`). In a
 * file of their own, read when the TAP parser is first imported, every other start
 * reads, decodes and keeps 0.3 MB less: `--version` 1.42 -> 1.36x of `node -e 0`, and
 * on go's 1,000 tests node's start to the spawn 29 -> 24 ms, ~360 fewer page faults. */
const TAP_PARSER = 'dist/tap-parser.cjs';

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
  plugins: [{
    name: 'tap-parser-beside',
    setup: (b) => b.onResolve({ filter: /^tap-parser$/ }, () => ({ path: `./${path.basename(TAP_PARSER)}`, external: true })),
  }, {
    // The package's own CommonJS build (its `require` export, minified): its ES modules
    // bring their dependencies' comments, em dashes included, into the bundle, which
    // must stay ASCII (see below).
    name: 'fast-xml-parser-commonjs',
    setup: (b) => b.onResolve({ filter: /^fast-xml-parser$/ }, () => ({ path: createRequire(import.meta.url).resolve('fast-xml-parser') })),
  }],
  logLevel: 'warning',
});
await build({
  stdin: { contents: "module.exports = require('tap-parser');", resolveDir: '.', loader: 'js' },
  outfile: TAP_PARSER,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

// The file holds the module function itself, as CommonJS wraps a module: bin/run-tests.js
// hands its text to V8 as it is. It must stay ASCII (esbuild escapes strings, not regular
// expression literals), so that text is read as latin1 into a one-byte string. Measured
// on go test of 1,000 tests: node start to the runner's spawn 41 -> 34 ms and ~700 fewer
// page faults than reading UTF-8 (two non-ASCII characters made the whole 0.7 MB a
// two-byte string) and wrapping it in a template string (a 1.5 MB copy V8 flattened).
//
// The cache belongs to this bundle only: its first line names the bundle's hash, and
// bin/run-tests.js uses a cache only under the same first line (V8 itself checks no
// more than the source's length).
const body = `(function (exports, require, module, __filename, __dirname) {${oneNamespaceEach(fs.readFileSync(BUNDLE, 'utf8'))}\n})`;
const nonAscii = /[^\x00-\x7f]/.exec(body);
if (nonAscii) throw new Error(`${BUNDLE} has a character outside ASCII at offset ${nonAscii.index}, e.g. in a regular expression literal; write it as a \\u escape`);
const id = `// run-tests build ${crypto.createHash('sha256').update(body).digest('hex').slice(0, 16)}\n`;
fs.writeFileSync(BUNDLE, id + body);
train();

/** esbuild turns each `import fs from 'node:fs'` into `__toESM(require("node:fs"))`, a
 * new object with a getter for each of the module's properties: 16 modules import
 * node:fs (104 properties) and 23 node:path, ~7 ms of a start. One object per module
 * serves them all (they only read it), so __toESM is made to remember what it built. */
function oneNamespaceEach(text) {
  const helper = 'var __toESM = (mod, isNodeMode, target) => (';
  if (text.split(helper).length !== 2) throw new Error(`esbuild's __toESM helper is not the one scripts/build.js expects: ${helper}`);
  return text.replace(helper, [
    'var __toESMMade = [new WeakMap(), new WeakMap()];',
    'var __toESM = (mod, isNodeMode) => {',
    '  if (mod == null || typeof mod !== "object" && typeof mod !== "function") return __toESMOnce(mod, isNodeMode);',
    '  var made = __toESMMade[isNodeMode ? 1 : 0], target = made.get(mod);',
    '  if (target === void 0) made.set(mod, target = __toESMOnce(mod, isNodeMode));',
    '  return target;',
    '};',
    'var __toESMOnce = (mod, isNodeMode, target) => (',
  ].join('\n'));
}

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
