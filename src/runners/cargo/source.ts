/** Where a cargo test is defined, read from the package's manifest and Rust sources:
 * for failures libtest gives no location (a test that returned `Err`). Pure: files are
 * read through the given functions, by project-relative path. Loaded by the cargo
 * adapter's locate() after a run, never before the runner starts. */
import path from 'node:path';
import { tomlString, tomlTable } from '../../project/toml.js';
import { manifestIn, packageDirs } from './members.js';
import type { Location } from './text.js';
import { codeOnly } from './rust-code.js';

/** Re-exported: the source readers' tests reach it here. */
export { codeOnly };

export interface Sources {
  /** The file's text, or null when it does not exist. */
  read(relative: string): string | null;
  /** Entry names of a directory (empty when it does not exist). */
  list(relative: string): readonly string[];
}

/** The `fn` of a test, from its crate root through its libtest path
 * (`parse::tests::reads_input`): inline `mod x { … }` blocks and `mod x;` files (`x.rs` or
 * `x/mod.rs`, where rustc looks). Null when a step is missing or not certain: two
 * candidates (say, `#[cfg]` alternatives), a `#[path]` module, a test a macro made. */
export function testDefinition(sources: Sources, crateRoot: string, testPath: string): Location | null {
  const modules = testPath.split('::');
  const name = modules.pop() ?? '';
  let file = crateRoot;
  let text = sources.read(file);
  if (text === null) return null;
  let code = codeOnly(text);
  let scope = { from: 0, to: code.length };
  // Where `mod x;` files of the current scope live: beside a crate root or a mod.rs,
  // else in a directory named after the module.
  let dir = path.posix.dirname(file);
  for (const module of modules) {
    const [decl, ...more] = itemsIn(code, scope).filter((item) => item.kind === 'mod' && item.name === module);
    if (decl === undefined || more.length > 0 || decl.hasPath) return null;
    dir = path.posix.join(dir, module);
    if (decl.body !== null) {
      const end = closingBrace(code, decl.body);
      if (end === null) return null;
      scope = { from: decl.body + 1, to: end };
      continue;
    }
    const [only, ...others] = [`${dir}.rs`, `${dir}/mod.rs`].filter((f) => sources.read(f) !== null);
    if (only === undefined || others.length > 0) return null;
    file = only;
    text = sources.read(file) ?? '';
    code = codeOnly(text);
    scope = { from: 0, to: code.length };
  }
  const [fn, ...more] = itemsIn(code, scope).filter((item) => item.kind === 'fn' && item.name === name);
  if (fn === undefined || more.length > 0) return null;
  return { file, line: text.slice(0, fn.at).split('\n').length };
}

/** The crate root of a package's library (`src/lib.rs`, or `[lib] path`), relative to the
 * project root: the root's own package, or the workspace member of that name. Null when
 * no member, or more than one, has that name. */
export function libraryRoot(sources: Sources, pkg: string): string | null {
  const dirs = packageDirs(sources).filter((dir) => tomlString(tomlTable(sources.read(manifestIn(dir))), 'package', 'name') === pkg);
  const [dir, ...more] = dirs;
  if (dir === undefined || more.length > 0) return null;
  const lib = tomlString(tomlTable(sources.read(manifestIn(dir))), 'lib', 'path') ?? 'src/lib.rs';
  return path.posix.join(dir, lib);
}

interface Item {
  readonly kind: 'fn' | 'mod';
  readonly name: string;
  /** Where the name is. */
  readonly at: number;
  /** The `{` of an inline module; null for `mod x;` and functions. */
  readonly body: number | null;
  /** A `#[path = …]` (or cfg_attr path) on the module: its file is not where rustc looks by default. */
  readonly hasPath: boolean;
}

/** Functions and modules declared directly in a scope, not inside a nested block or a
 * macro's arguments. */
function itemsIn(code: string, scope: { from: number; to: number }): Item[] {
  const items: Item[] = [];
  const token = /[{}()[\];]|\b(fn|mod)\s+(?:r#)?([A-Za-z_]\w*)(?=\s*([;{(]))/g;
  token.lastIndex = scope.from;
  let depth = 0;
  let itemStart = scope.from; // after the previous item: what lies between are attributes
  for (let m = token.exec(code); m !== null && m.index < scope.to; m = token.exec(code)) {
    const [text, kind, name, next] = m;
    if (kind === undefined || name === undefined) {
      depth += '{(['.includes(text) ? 1 : '})]'.includes(text) ? -1 : 0;
      if (depth === 0 && (text === ';' || text === '}')) itemStart = m.index + 1;
      continue;
    }
    if (depth !== 0) continue;
    const at = m.index + text.lastIndexOf(name);
    if (kind === 'fn' && next === '(') items.push({ kind, name, at, body: null, hasPath: false });
    if (kind === 'mod') {
      const hasPath = /\bpath\s*=/.test(code.slice(itemStart, m.index));
      items.push({ kind, name, at, body: next === '{' ? code.indexOf('{', m.index + text.length) : null, hasPath });
    }
  }
  return items;
}

function closingBrace(code: string, open: number): number | null {
  let depth = 0;
  for (let i = open; i < code.length; i += 1) {
    if (code[i] === '{') depth += 1;
    else if (code[i] === '}' && (depth -= 1) === 0) return i;
  }
  return null;
}
