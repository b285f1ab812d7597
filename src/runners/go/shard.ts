/** --shard for go: a unit is a package, named by its directory relative to the project
 * root (`.` for the module root), and a part runs exactly its
 * packages (`./lib`, never `./lib/...`, which would run the packages below too).
 * `go list` says which packages a selection holds, as `go test` reads the same patterns:
 * build constraints, testdata, vendor, `_` and `.` directories and nested modules as go
 * sees them. A package without test files is a unit too, of 0 bytes: it runs no test,
 * but `go test` builds it, and a full run reports it when it does not compile. */
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../../model/errors.js';
import { listingStdout } from '../../ecosystems/listed-units.js';
import type { ShardUnit, UnitsRequest } from '../types.js';

/** The packages of the patterns a run of the request's files gives go (as the plan
 * does), each once, with the size of its test files. */
export async function goUnits(request: UnitsRequest): Promise<ShardUnit[]> {
  const patterns = [...new Set(request.files.length === 0 ? ['./...'] : request.files.map((f) => patternOf(f, request)))];
  const fields = '-json=Dir,TestGoFiles,XTestGoFiles';
  const flags = listingFlags(request.runnerArgs ?? []);
  // -e: a package go cannot load is still listed (its test run reports why it fails).
  const out = await listingStdout(['go', 'list', '-e', fields, ...flags, '--', ...patterns], request.root, request.env, 'go\'s packages (go list)');
  // go names directories by its working directory, or its real path when the root is a link.
  const real = fs.realpathSync(request.root);
  const found = new Map<string, ShardUnit>();
  for (const pkg of listedPackages(out)) {
    if (typeof pkg.Dir !== 'string') continue;
    const tests = [...(pkg.TestGoFiles ?? []), ...(pkg.XTestGoFiles ?? [])];
    const root = pkg.Dir === real || pkg.Dir.startsWith(`${real}${path.sep}`) ? real : request.root;
    const name = unitName(path.relative(root, pkg.Dir).split(path.sep).join('/'));
    found.set(name, { name, bytes: tests.reduce((sum, file) => sum + sizeOf(path.join(pkg.Dir ?? '', file)), 0) });
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** As selectionCommands reads a file: a directory is every package below it, any other
 * .go file its package. A `_test.go` file selects functions of its package, which no
 * part of whole packages can run exactly. */
function patternOf(file: string, request: UnitsRequest): string {
  const clean = file.replace(/\/+$/, '');
  if (clean === '' || clean === '.') return './...';
  if (request.facts.isDirectory(clean)) return `./${clean}/...`;
  if (clean.endsWith('_test.go')) {
    throw usageError(`--shard deals out go packages whole; ${clean} selects functions of its package: give its directory (${unitName(path.posix.dirname(clean))}), or run it without --shard`);
  }
  const dir = path.posix.dirname(clean);
  return dir === '.' ? '.' : `./${dir}`;
}

/** The flags of `run-tests -- <args>` that change which packages and test files go
 * sees (build tags, the module mode), for go list as go test gets them. */
const LISTING = new Set(['tags', 'mod', 'modfile']);
/** go test's flags that take no value when given without `=`. */
const BOOLEAN = new Set(['a', 'n', 'race', 'msan', 'asan', 'cover', 'v', 'work', 'x', 'linkshared', 'trimpath', 'modcacherw', 'failfast', 'short', 'json', 'benchmem', 'buildvcs', 'fullpath']);

export function listingFlags(args: readonly string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const flag = /^--?(\w+)(=.*)?$/.exec(arg);
    if (flag === null) continue;
    const value = flag[2] === undefined && !BOOLEAN.has(flag[1] ?? '') ? args[++i] : undefined;
    if (LISTING.has(flag[1] ?? '')) flags.push(arg, ...(value === undefined ? [] : [value]));
  }
  return flags;
}

interface ListedPackage {
  readonly Dir?: string;
  readonly TestGoFiles?: readonly string[];
  readonly XTestGoFiles?: readonly string[];
}

/** `go list -json` prints one indented object after another, each closing with a `}`
 * alone on its line. */
export function listedPackages<T = ListedPackage>(out: string): T[] {
  return out.split(/^}$/m).filter((chunk) => chunk.trim() !== '').map((chunk) => JSON.parse(`${chunk}}`) as T);
}

const unitName = (dir: string): string => (dir === '' || dir === '.' ? '.' : dir);

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
