/** The static module graph of a project's test files (and of the files its configuration
 * loads), read from esbuild's metafile: esbuild resolves as node and TypeScript do
 * (relative paths, index files, package.json `exports` and `imports`, tsconfig `paths`)
 * and parses JavaScript, TypeScript, JSX, JSON and CSS. Nothing is written or run. */
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { Message, Metafile } from 'esbuild';

export interface ModuleGraph {
  /** Every file esbuild read (root-relative, `/`-separated, `../` outside the root),
   * with the files it imports (the same form). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
  /** Files with an import esbuild cannot follow, and what it says: `require(name)`. */
  readonly computed: ReadonlyMap<string, string>;
  /** Files with a bare import that resolves to no installed package and no tsconfig path
   * (an alias of a tool esbuild does not read: jest's moduleNameMapper, vite's
   * resolve.alias), and that import: left out of the graph. */
  readonly unresolved: ReadonlyMap<string, string>;
}

/** Kinds esbuild does not parse but that import nothing: read as empty leaves of the graph,
 * so that a test importing an image is still placed. Any other unknown kind (`.vue`, `.svelte`)
 * fails the build: what such a file imports cannot be read, and the plan is the whole suite. */
const LEAVES = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.ico', '.bmp', '.svg', '.woff', '.woff2', '.ttf', '.otf', '.eot',
  '.mp3', '.mp4', '.wav', '.webm', '.ogg', '.wasm', '.node', '.txt', '.md', '.html', '.csv', '.pdf'];

/** esbuild's words for an import it leaves to run time. */
const COMPUTED_IDS = new Set(['unsupported-require-call', 'unsupported-dynamic-import', 'indirect-require']);

/** The module importing every entry; not a file of the graph. */
const STDIN = '<run-tests entries>';

/** Thrown when esbuild cannot read the graph: its first error, where it is. */
export class GraphError extends Error {}

/** The graph below `entries` (paths relative to `root`). */
export async function moduleGraph(root: string, entries: readonly string[]): Promise<ModuleGraph> {
  const { build } = await import('esbuild');
  const packages = installedPackages(root);
  const installed = packages.flatMap((name) => [name, `${name}/*`]);
  const unresolved = new Map<string, string>();
  const options = {
    absWorkingDir: root,
    // One module importing every entry: each file is read and printed once (3,000 entries
    // as entry points of their own took ~2 s, as one ~0.2 s).
    stdin: { contents: entries.map((entry) => `import ${JSON.stringify(path.resolve(root, entry))};`).join('\n'), resolveDir: root, sourcefile: STDIN, loader: 'js' as const },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node' as const,
    format: 'esm' as const,
    // Never written; outside the project, so it is none of its files.
    outfile: path.join(root, '..', '.run-tests-graph.js'),
    logLevel: 'silent' as const,
    logOverride: Object.fromEntries([...COMPUTED_IDS].map((id) => [id, 'warning' as const])),
    // JSX in .js files is common (React projects), and a superset of what .js holds.
    loader: { ...Object.fromEntries(LEAVES.map((ext) => [ext, 'empty' as const])), '.js': 'jsx' as const },
  };
  // A bare import that no installed package and no tsconfig path provides fails the
  // build: it is noted, left out, and the graph read again (at most once more).
  for (let attempt = 0; ; attempt += 1) {
    let result;
    try {
      result = await build({ ...options, external: [...installed, ...unresolved.values()] });
    } catch (error) {
      const errors = (error as { errors?: Message[] }).errors ?? [];
      const before = unresolved.size;
      const others = errors.filter((e) => !noteUnresolved(e, unresolved));
      if (others[0] !== undefined || attempt > 0 || unresolved.size === before) {
        throw new GraphError(errors[0] ? describe(others[0] ?? errors[0]) : (error as Error).message);
      }
      continue;
    }
    const metafile = result.metafile as Metafile;
    // In a try block, esbuild leaves an import it cannot resolve to run time, silently.
    for (const [file, spec] of uninstalled(metafile, new Set(packages))) unresolved.set(`${file}\0${spec}`, spec);
    const computed = computedImports(result.warnings);
    for (const [file, glob] of globImports(metafile)) if (!computed.has(file)) computed.set(file, glob);
    for (const [file, call] of requireMade(root, metafile)) if (!computed.has(file)) computed.set(file, call);
    return { imports: importsOf(metafile), computed, unresolved: byImporter(unresolved) };
  }
}

/** `Could not resolve "x"` for a bare `x`: recorded by `importer\0x`, true. */
function noteUnresolved(message: Message, unresolved: Map<string, string>): boolean {
  const spec = /^Could not resolve "([^"]+)"$/.exec(message.text)?.[1];
  if (spec === undefined || /^[./]/.test(spec) || message.location === null) return false;
  unresolved.set(`${message.location.file}\0${spec}`, spec);
  return true;
}

/** Bare external imports of no installed package and no built-in module. */
function uninstalled(metafile: Metafile, packages: ReadonlySet<string>): [string, string][] {
  const found: [string, string][] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const { path: spec, external } of input.imports) {
      if (!external || /^[./<]/.test(spec) || spec.includes('*') || isBuiltin(spec)) continue;
      const name = spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
      if (!packages.has(name)) found.push([file, spec]);
    }
  }
  return found;
}

function byImporter(unresolved: ReadonlyMap<string, string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, spec] of unresolved) {
    const file = key.slice(0, key.indexOf('\0'));
    if (!found.has(file)) found.set(file, spec);
  }
  return found;
}

/** The packages installed in a node_modules at or above `root`, by name, except those
 * linked from outside any node_modules (a workspace's own packages: their files are
 * followed as the project's). Installed packages stay outside the graph: their own
 * dynamic requires are theirs, and reading them would cost more than the project. */
export function installedPackages(root: string): string[] {
  const names = new Set<string>();
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    for (const name of entriesOf(modules)) {
      const scoped = name.startsWith('@') ? entriesOf(path.join(modules, name)).map((inner) => `${name}/${inner}`) : [name];
      for (const full of scoped) if (!full.startsWith('.') && !linkedFromOutside(path.join(modules, full))) names.add(full);
    }
    if (path.dirname(dir) === dir) break;
  }
  return [...names].sort();
}

function entriesOf(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function linkedFromOutside(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isSymbolicLink() && !fs.realpathSync(dir).split(path.sep).includes('node_modules');
  } catch {
    return false;
  }
}

/** The metafile's inputs as edges between files. An external import is a package, a
 * built-in, or an import TypeScript erases (its names are types only). */
function importsOf(metafile: Metafile): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (file === STDIN) continue;
    imports.set(file, input.imports.filter((i) => !i.external && i.path !== '<runtime>').map((i) => i.path));
  }
  return imports;
}

/** Where esbuild said an import is left to run time (a `require(name)`), by file. */
function computedImports(warnings: readonly Message[]): Map<string, string> {
  const computed = new Map<string, string>();
  for (const warning of warnings) {
    const at = warning.location;
    if (!COMPUTED_IDS.has(warning.id) || !at || computed.has(at.file)) continue;
    computed.set(at.file, callAt(at.lineText, at.column, at.length));
  }
  return computed;
}

/** `require(name)` from the line esbuild points at (the callee, or its argument). */
function callAt(line: string, column: number, length: number): string {
  const start = line.lastIndexOf('(', column) === column - 1 ? line.slice(0, column - 1).search(/[\w.$]+$/) : column;
  const call = line.slice(start === -1 ? column : start);
  const end = matchingParen(call);
  const text = end === -1 ? line.slice(column, column + Math.max(length, 1)) : call.slice(0, end + 1);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function matchingParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')' && (depth -= 1) === 0) return i;
  }
  return -1;
}

/** esbuild bundles `require('./x/' + name)` as every file the pattern can match, and
 * records the pattern (`./x/**` and a star) as an external import: a path computed at run time too,
 * which may lie outside the pattern (`name` = `../y`). */
function globImports(metafile: Metafile): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const glob = input.imports.find((i) => i.external && i.path.includes('*'));
    if (glob) found.set(file, `a pattern: ${glob.path}`);
  }
  return found;
}

/** A require function made at run time (`createRequire(import.meta.url)`, `module.require`)
 * loads what esbuild does not follow, literal paths too: its calls are computed imports. */
function requireMade(root: string, metafile: Metafile): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of Object.keys(metafile.inputs)) {
    if (file === STDIN || !/\.[cm]?[jt]sx?$/.test(file)) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      continue;
    }
    const made = /\b(createRequire|module\.require)\s*\(/.exec(text);
    if (made) found.set(file, `${made[1] ?? ''}(...)`);
  }
  return found;
}

const describe = (message: Message): string =>
  message.location ? `${message.location.file}:${message.location.line}: ${message.text}` : message.text;
