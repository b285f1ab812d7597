// Bundles the CLI in parts, each loaded only when needed: dist/run-tests.cjs reads the
// command line (commander, the options, --help), which bin/run-tests.js loads;
// dist/commands.cjs does what the commands do (src/cli/commands.ts), loaded once a command
// runs, so that --version, --help and a usage error compile 0.2 MB rather than 1 MB
// (`--version` 1.7x `node -e 0` in CPU time, from 2.9x); dist/detect.cjs is `run-tests
// detect` alone (detection and planning: 0.36 MB of the commands' 0.8 MB); dist/mcp.cjs
// serves `run-tests mcp`; dist/report.cjs writes `run-tests report`'s page (its chart
// library, d3-scale and d3-shape, is 87 KB no other command needs); dist/xml.cjs is the
// XML parser, which only JUnit reports need (0.16 MB, a fifth of a run's code). Node
// compiles all of a file it loads, and on a node without a compile cache (20) that is
// most of a command's start: detect compiled 1 MB in ~30 ms. Modules behind import()
// inside a bundle are evaluated only when a command imports them. A module in two bundles has two copies; the one class whose identity
// crosses bundles, HarnessError, is recognised by a brand (src/model/errors.ts).
// Type-checking is separate: `npm run typecheck`.
//
// Every library in a bundle is a devDependency; those the bundles leave out are the
// package's dependencies. esbuild (run-tests plan reads a JavaScript project's module
// graph from its metafile) is a native binary per platform, which no bundle can hold.
// tap-parser and the YAML library it reads
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
  // An import() of another bundle becomes a require(): node would otherwise load the file
  // as an ES module would, scanning all of it for export names first.
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};

/** The CLI's `import('./commands.js')` loads dist/commands.cjs, `import('./detect-command.js')`
 * dist/detect.cjs, `import('./mcp/server.js')` dist/mcp.cjs and `import('./report-command.js')`
 * dist/report.cjs: bundles of their own. */
const lazyBundles = {
  name: 'lazy-bundles',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\.js$/ }, () => ({ path: './commands.cjs', external: true }));
    b.onResolve({ filter: /^\.\/detect-command\.js$/ }, () => ({ path: './detect.cjs', external: true }));
    b.onResolve({ filter: /^\.\/mcp\/server\.js$/ }, () => ({ path: './mcp.cjs', external: true }));
    b.onResolve({ filter: /^\.\/report-command\.js$/ }, () => ({ path: './report.cjs', external: true }));
  },
};

/** fast-xml-parser is dist/xml.cjs, required when a JUnit report is first read. */
const xmlBundle = {
  name: 'xml-bundle',
  setup(b) {
    b.onResolve({ filter: /^fast-xml-parser$/ }, () => ({ path: './xml.cjs', external: true }));
  },
};

await Promise.all([
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/run-tests.cjs', external: ['tap-parser', 'esbuild'], plugins: [lazyBundles] }),
  build({ ...common, entryPoints: ['src/cli/commands.ts'], outfile: 'dist/commands.cjs', external: ['tap-parser', 'esbuild'], plugins: [xmlBundle] }),
  build({ ...common, entryPoints: ['src/cli/detect-command.ts'], outfile: 'dist/detect.cjs', external: ['tap-parser', 'esbuild'], plugins: [xmlBundle] }),
  build({ ...common, entryPoints: ['src/cli/report-command.ts'], outfile: 'dist/report.cjs', external: ['tap-parser', 'esbuild'] }),
  build({ ...common, entryPoints: ['src/cli/mcp/server.ts'], outfile: 'dist/mcp.cjs', external: ['tap-parser', 'esbuild'], plugins: [xmlBundle] }),
  build({ ...common, stdin: { contents: "export * from 'fast-xml-parser';", resolveDir: '.', loader: 'js' }, outfile: 'dist/xml.cjs' }),
]);
