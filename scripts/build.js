// Bundles the CLI and the libraries it imports into one CommonJS file,
// dist/run-tests.cjs, which bin/run-tests.js loads. Modules behind import() are
// evaluated only when a command imports them. Type-checking is separate: `npm run typecheck`.
//
// Every library in the bundle is a devDependency; those the bundle leaves out are the
// package's dependencies. tap-parser and the YAML library it reads
// diagnostics with are 40% of the code and serve only TAP reports, while node compiles
// all of a file it loads: kept in the bundle, they made `run-tests detect` 1.59-1.72x
// `node -e 0` against 1.50-1.63x without them (bench/RESULTS.md; the target is 1.6x).
// The MCP SDK (with zod, which it takes its tools' schemas in) is larger still and serves
// only `run-tests mcp`, which loads it: no other command reads a byte of it.
import { build } from 'esbuild';
import fs from 'node:fs';

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/run-tests.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['tap-parser', '@modelcontextprotocol/sdk', 'zod'],
  // src/ finds the package's root from its own file's URL, as an ES module does.
  define: { 'import.meta.url': '__runTestsUrl' },
  banner: { js: 'var __runTestsUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});
