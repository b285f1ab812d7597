import fs from 'node:fs';
import path from 'node:path';

/** What detection and planning may know about a project directory. Each path is read
 * from disk at most once, so detection stays cheap and adapters stay pure. */
export interface ProjectFacts {
  readonly root: string;
  exists(relative: string): boolean;
  isDirectory(relative: string): boolean;
  isExecutable(relative: string): boolean;
  /** The file's text, or null when it is missing or unreadable. */
  read(relative: string): string | null;
}

export function readProjectFacts(root: string): ProjectFacts {
  const stats = new Map<string, fs.Stats | null>();
  const texts = new Map<string, string | null>();
  const stat = (relative: string): fs.Stats | null => {
    if (!stats.has(relative)) stats.set(relative, fs.statSync(path.join(root, relative), { throwIfNoEntry: false }) ?? null);
    return stats.get(relative) ?? null;
  };
  return {
    root,
    exists: (relative) => stat(relative) !== null,
    isDirectory: (relative) => stat(relative)?.isDirectory() ?? false,
    isExecutable: (relative) => {
      const s = stat(relative);
      return s !== null && s.isFile() && (s.mode & 0o111) !== 0;
    },
    read: (relative) => {
      if (!texts.has(relative)) {
        let text: string | null = null;
        try {
          text = fs.readFileSync(path.join(root, relative), 'utf8');
        } catch {
          text = null;
        }
        texts.set(relative, text);
      }
      return texts.get(relative) ?? null;
    },
  };
}

/** Facts from an in-memory file map, for tests of pure detection. */
export function factsFromFiles(root: string, files: Record<string, string>, executables: readonly string[] = []): ProjectFacts {
  const isDir = (relative: string) => Object.keys(files).some((f) => f.startsWith(`${relative.replace(/\/$/, '')}/`));
  return {
    root,
    exists: (relative) => relative in files || isDir(relative),
    isDirectory: isDir,
    isExecutable: (relative) => executables.includes(relative),
    read: (relative) => files[relative] ?? null,
  };
}
