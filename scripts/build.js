// Bundles the CLI with esbuild: one module graph loaded from a few files starts
// measurably faster than ~60 separate ESM modules (see bench/RESULTS.md). Code behind
// dynamic import() stays in its own chunk, so a command loads only what it uses.
// Type-checking is separate: `npm run typecheck` (tsc --noEmit).
import { build } from 'esbuild';
import fs from 'node:fs';

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { 'run-tests': 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (cross-spawn) call require() for Node's own modules.
  banner: { js: "import { createRequire as __runTestsRequire } from 'node:module'; const require = __runTestsRequire(import.meta.url);" },
  logLevel: 'warning',
});
