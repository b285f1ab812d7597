/** The packages of a cargo project, from its manifests: the root's own and the
 * workspace's members. Read through ProjectFacts-like readers, by project-relative path. */
import path from 'node:path';
import picomatch from 'picomatch';
import { tomlStrings, tomlTable } from '../../project/toml.js';

export interface ManifestReader {
  /** The file's text, or null when it does not exist. */
  read(relative: string): string | null;
  /** Entry names of a directory (empty when it does not exist). */
  list(relative: string): readonly string[];
}

/** The root's package directory ('') and the workspace's members, `exclude` honoured. */
export function packageDirs(sources: ManifestReader): string[] {
  const manifest = tomlTable(sources.read('Cargo.toml'));
  const excluded = new Set(tomlStrings(manifest, 'workspace', 'exclude').map(cleanDir));
  const members = tomlStrings(manifest, 'workspace', 'members').flatMap((member) => memberDirs(sources, cleanDir(member)));
  return [...new Set(['', ...members])].filter((dir) => !excluded.has(dir));
}

/** How deep a `**` member glob is followed below its base. */
const GLOB_DEPTH = 6;
/** Directories a member glob never reaches into: build output, VCS, vendored JS. */
const NOT_MEMBERS = new Set(['target', 'node_modules']);

/** A member path, or the directories a member glob matches (cargo's globs: `*`, `?`, `[…]`,
 * `**`), matched by picomatch against the directories below the glob's fixed base. */
function memberDirs(sources: ManifestReader, member: string): string[] {
  const { base, isGlob } = picomatch.scan(member);
  if (!isGlob) return [member];
  const matches = picomatch(member);
  const depth = member.includes('**') ? GLOB_DEPTH : member.split('/').length - (base === '' ? 0 : base.split('/').length);
  const found: string[] = [];
  const walk = (dir: string, left: number): void => {
    for (const name of [...sources.list(dir)].sort()) {
      const child = path.posix.join(dir, name);
      // Files and empty directories list nothing: neither holds a package.
      if (name.startsWith('.') || NOT_MEMBERS.has(name) || sources.list(child).length === 0) continue;
      if (matches(child)) found.push(child);
      if (left > 1) walk(child, left - 1);
    }
  };
  walk(base, depth);
  return found;
}

/** `./crates/a/` → `crates/a`; the root is ''. */
const cleanDir = (dir: string): string => path.posix.normalize(`${dir}/`).replace(/\/+$/, '').replace(/^\.$/, '');

export const manifestIn = (dir: string): string => path.posix.join(dir, 'Cargo.toml');
