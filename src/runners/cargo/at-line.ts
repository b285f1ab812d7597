/** The cargo tests at a line of a library or integration-test source: the `#[test]` fn
 * there, or every one of a `mod` at its other lines, with its libtest path (the module
 * path from the file's place and its inline `mod`s), as exact selections. */
import { usageError } from '../../model/errors.js';
import type { FailedTestRecord } from '../../model/results.js';
import { codeOnly } from './rust-code.js';

interface Item {
  readonly kind: 'mod' | 'fn';
  readonly name: string;
  /** 1-based lines of the item and of its body's closing brace. */
  readonly start: number;
  end: number;
  readonly parent: Item | null;
}

/** Where the file's target puts its module: `src/a/b.rs` is `a::b` in the library,
 * `tests/api/x.rs` is `x` in the integration test `api`; null for any other file. */
function target(file: string): { selector: string; label: string; modules: string[] } | null {
  const parts = file.replace(/\.rs$/, '').split('/');
  const modules = (from: number) => parts.slice(from).filter((p, i, all) => !(p === 'mod' && i === all.length - 1));
  if (parts[0] === 'src' && file !== 'src/main.rs' && parts[1] !== 'bin') return { selector: '--lib', label: 'unit', modules: file === 'src/lib.rs' ? [] : modules(1) };
  if (parts[0] !== 'tests' || parts[1] === undefined) return null;
  const crateRoot = parts.length === 2 ? file : `tests/${parts[1]}/main.rs`;
  return { selector: `--test ${parts[1]}`, label: `integration ${crateRoot}`, modules: parts.length === 2 || file === crateRoot ? [] : modules(2) };
}

const TOKEN = /\b(mod|fn)\s+(?:r#)?(\w+)|[{};]/g;

/** The `mod` and `fn` items with bodies, each with its enclosing item. */
function items(code: string): Item[] {
  const found: Item[] = [];
  const braces: (Item | null)[] = [];
  let pending: Item | null = null;
  const lineAt = (index: number): number => code.slice(0, index).split('\n').length;
  for (const m of code.matchAll(TOKEN)) {
    const [text, kind, name] = m;
    if (kind === 'mod' || kind === 'fn') {
      pending = { kind, name: name ?? '', start: lineAt(m.index), end: Number.MAX_SAFE_INTEGER, parent: [...braces].reverse().find((b) => b !== null) ?? null };
    } else if (text === '{') {
      braces.push(pending);
      if (pending) found.push(pending);
      pending = null;
    } else if (text === '}') {
      const closed = braces.pop();
      if (closed) closed.end = lineAt(m.index);
    } else pending = null; // `;`: `mod x;`, a declaration without a body
  }
  return found;
}

/** The attribute lines above an item name a test: `#[test]`, `#[tokio::test]`. */
function isTest(lines: readonly string[], item: Item): boolean {
  for (let i = item.start - 2; i >= 0; i -= 1) {
    const line = (lines[i] ?? '').trim();
    if (/^#\[\s*(?:\w+::)*test\s*[\](]/.test(line)) return true;
    if (line !== '' && !line.startsWith('#[') && !line.endsWith(']') && !line.endsWith(',')) return false;
  }
  return false;
}

export function cargoTestsAt(file: string, line: number, text: string, pkg: string | null): FailedTestRecord[] {
  const where = target(file);
  if (where === null) throw usageError(`${file} is no library or integration test source: cargo selects the tests of src/ and tests/ by line`);
  if (pkg === null) throw usageError(`Cargo.toml names no package: run-tests cannot name the tests of ${file}`);
  const code = codeOnly(text);
  const lines = code.split('\n');
  const all = items(code);
  const at = all.filter((item) => item.start <= line && line <= item.end).at(-1);
  const tests = at === undefined ? [] : at.kind === 'fn' ? [at] : all.filter((item) => item.kind === 'fn' && within(item, at));
  const selected = tests.filter((item) => isTest(lines, item));
  if (selected.length === 0) throw usageError(`no #[test] fn is defined at ${file}:${line}`);
  return selected.map((item) => {
    const name = [...where.modules, ...modulesOf(item), item.name].join('::');
    return { id: `${pkg} ${where.selector} ${name}`, test_name: `${where.label}: ${name}`, file, line: item.start, status: 'failed', message: '' };
  });
}

function within(item: Item, scope: Item): boolean {
  for (let p = item.parent; p !== null; p = p.parent) if (p === scope) return true;
  return false;
}

function modulesOf(item: Item): string[] {
  const names: string[] = [];
  for (let p = item.parent; p !== null; p = p.parent) if (p.kind === 'mod') names.unshift(p.name);
  return names;
}
