/** TOML project files (Cargo.toml, pyproject.toml) read by a TOML parser, smol-toml: a
 * table can be written `[workspace]`, `[ workspace ]`, `workspace.members = …` or
 * `workspace = { … }`, and a `[workspace]` line inside a string is no table. */
import { parse, type TomlTable } from 'smol-toml';

/** The file's top-level table, or null when the file is missing or not valid TOML (the
 * tool that owns the file refuses it too, in its own words). */
export function tomlTable(text: string | null): TomlTable | null {
  if (text === null) return null;
  try {
    return parse(text);
  } catch {
    return null;
  }
}

/** The value under a path of keys (`'tool', 'pytest'`), or undefined. */
export function tomlAt(table: TomlTable | null, ...keys: readonly string[]): unknown {
  let value: unknown = table;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export const tomlString = (table: TomlTable | null, ...keys: readonly string[]): string | null => {
  const value = tomlAt(table, ...keys);
  return typeof value === 'string' ? value : null;
};

export const tomlStrings = (table: TomlTable | null, ...keys: readonly string[]): string[] => {
  const value = tomlAt(table, ...keys);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};
