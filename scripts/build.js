// Bundles the CLI and the libraries it imports into dist/run-tests.cjs, which
// bin/run-tests.js loads, and `run-tests mcp`'s server into dist/mcp.cjs, which only that
// command loads. Modules behind import() are evaluated only when a command imports them.
// Type-checking is separate: `npm run typecheck`.
//
// Every library in a bundle is a devDependency; the one the bundles leave out is the
// package's only dependency. tap-parser and the YAML library it reads
// diagnostics with are 40% of the code and serve only TAP reports, while node compiles
// all of a file it loads: kept in the bundle, they made `run-tests detect` 1.59-1.72x
// `node -e 0` against 1.50-1.63x without them (bench/RESULTS.md; the target is 1.6x).
// The MCP SDK (with zod, which takes its tools' schemas) is larger still (1.9 MB against
// the CLI's 0.8 MB) and serves only `run-tests mcp`: it gets a bundle of its own, so no
// other command compiles a byte of it, and installing run-tests downloads none of the
// web servers the SDK depends on for transports run-tests does not use.
import { build } from 'esbuild';
import fs from 'node:fs';

fs.rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // src/ finds the package's root from its own file's URL, as an ES module does.
  define: { 'import.meta.url': '__runTestsUrl' },
  banner: { js: 'var __runTestsUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
};

/** The CLI's `import('./mcp/server.js')` loads dist/mcp.cjs, the server's own bundle. */
const mcpBundle = {
  name: 'mcp-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/mcp\/server\.js$/ }, () => ({ path: './mcp.cjs', external: true }));
  },
};

await Promise.all([
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/run-tests.cjs', external: ['tap-parser'], plugins: [mcpBundle] }),
  build({ ...common, entryPoints: ['src/cli/mcp/server.ts'], outfile: 'dist/mcp.cjs', external: ['tap-parser'] }),
]);
