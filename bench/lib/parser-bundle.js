import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { tempDir } from './fixtures.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A small node script, bundled with esbuild from src/, that reads FILE in 64 KiB chunks
 * through one parser (`createXParser` exported by src/<module>.ts, or a
 * whole-text `parseX` with `document`), as run-tests
 * follows a report, and prints `tests=<n> failed=<n> complete=<bool>`. The dist bundle
 * does not export parsers; this measures the same code without the CLI around it.
 */
export async function parserScript(module, factory, document = false) {
  const dir = tempDir(`parser-${module.replaceAll('/', '-')}`);
  const entry = path.join(dir, 'entry.ts');
  // `document`: the export is a whole-text parser, read as run-tests reads it (runners/parsers.ts).
  const source = (name) => JSON.stringify(path.join(repoRoot, 'src', `${name}.ts`));
  const imports = document
    ? `import { ${factory} as parse } from ${source(module)};\nimport { documentParser } from ${source('parsers/stream')};\nconst factory = documentParser(parse);`
    : `import { ${factory} as factory } from ${source(module)};`;
  fs.writeFileSync(entry, `import fs from 'node:fs';
${imports}
const parser = factory({ root: process.argv[3] ?? '/', hints: JSON.parse(process.argv[4] ?? '{}') });
const fd = fs.openSync(process.argv[2], 'r');
const buf = Buffer.alloc(64 * 1024);
const decoder = new TextDecoder();
for (let n = fs.readSync(fd, buf); n > 0; n = fs.readSync(fd, buf)) parser.push(decoder.decode(buf.subarray(0, n), { stream: true }));
parser.push(decoder.decode());
const report = parser.end();
const failed = report.tests.filter((t) => t.status === 'failed' || t.status === 'error').length;
process.stdout.write('tests=' + report.tests.length + ' failed=' + failed + ' complete=' + report.complete + '\\n');
`);
  const outfile = path.join(dir, 'parser.mjs');
  await build({
    entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

/** src/<module>.ts bundled with esbuild as an ES module of its own, for a benchmark that
 * imports the parser into its own process (`freshImport`). */
export async function parserModule(module) {
  const outfile = path.join(tempDir(`parser-module-${module.replaceAll('/', '-')}`), 'parser.mjs');
  await build({
    entryPoints: [path.join(repoRoot, 'src', `${module}.ts`)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

let imports = 0;

/** A new instance of an ES module file: its code is compiled and run anew, so V8 has
 * neither type feedback nor optimised code for it, as in a run-tests process that has
 * just started. */
export const freshImport = (file) => import(`${pathToFileURL(file).href}?instance=${(imports += 1)}`);
