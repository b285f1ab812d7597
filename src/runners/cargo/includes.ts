/** The files a crate compiles in from elsewhere than its module tree: `include!`,
 * `include_str!` and `include_bytes!` of a literal path, `#[path = "…"]` modules, and
 * an integration test's `mod common;` (tests/common.rs is a test target of its own too).
 * Read from every .rs file below each member's directory, as text: one in a comment
 * only makes a plan wider. A `#[path]` inside an inline `mod x { … }` is read as if it
 * were outside it. */
import fs from 'node:fs';
import path from 'node:path';
import type { Inclusion } from './crate-graph.js';

const INCLUDE = /\binclude(?:_str|_bytes)?!\s*[([{]\s*r?#*"([^"]*)"/g;
const PATH_ATTRIBUTE = /#\s*\[\s*(?:cfg_attr\s*\([^\]]*?,\s*)?path\s*=\s*r?#*"([^"]*)"/g;
const MOD_DECLARATION = /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(?:r#)?(\w+)\s*;/gm;
/** Directories no crate's sources are in: build output, VCS, vendored JavaScript. */
const SKIPPED = new Set(['target', 'node_modules']);

/** Every inclusion in the .rs files below the member directories (absolute). */
export function inclusionsOf(memberDirs: readonly string[]): Inclusion[] {
  const members = new Set(memberDirs);
  const found: Inclusion[] = [];
  for (const dir of memberDirs) {
    for (const file of rustFiles(dir, members)) found.push(...inclusionsIn(file, fs.readFileSync(file, 'utf8'), path.join(dir, 'tests')));
  }
  // A #[path] module's own `mod x;` files are beside it, as a mod.rs's are.
  for (const inclusion of [...found]) {
    if (inclusion.module === true && declaresModules(readOrNull(inclusion.reaches))) found.push({ from: inclusion.from, reaches: path.dirname(inclusion.reaches), dir: true });
  }
  return found;
}

const declaresModules = (text: string | null): boolean => text !== null && new RegExp(MOD_DECLARATION.source, 'm').test(text);

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The inclusions of one file's text; `tests` is its crate's tests/ directory. */
export function inclusionsIn(file: string, text: string, tests: string): Inclusion[] {
  const dir = path.dirname(file);
  const found: Inclusion[] = [];
  for (const [, literal = ''] of text.matchAll(INCLUDE)) found.push({ from: file, reaches: path.resolve(dir, literal), dir: false });
  for (const [, literal = ''] of text.matchAll(PATH_ATTRIBUTE)) found.push({ from: file, reaches: path.resolve(dir, literal), dir: false, module: true });
  if (file.startsWith(`${tests}${path.sep}`)) {
    for (const [, name = ''] of text.matchAll(MOD_DECLARATION)) {
      found.push({ from: file, reaches: path.join(dir, `${name}.rs`), dir: false }, { from: file, reaches: path.join(dir, name, 'mod.rs'), dir: false });
    }
  }
  return found;
}

/** The .rs files below `dir`, not in another member's directory, hidden ones or build output. */
function rustFiles(dir: string, members: ReadonlySet<string>): string[] {
  const files: string[] = [];
  const walk = (at: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !members.has(full)) walk(full);
      } else if (entry.isFile() && entry.name.endsWith('.rs')) files.push(full);
    }
  };
  walk(dir);
  return files;
}
