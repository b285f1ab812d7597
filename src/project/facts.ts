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
  /** Entry names of a directory (empty when it does not exist). */
  list(relative: string): readonly string[];
  /** The absolute path of `relative` in the root or its nearest ancestor that has it. */
  findUp(relative: string): string | null;
}

export function readProjectFacts(root: string): ProjectFacts {
  const stats = new Map<string, fs.Stats | null>();
  const texts = new Map<string, string | null>();
  const stat = (relative: string): fs.Stats | null => {
    if (!stats.has(relative)) stats.set(relative, fs.statSync(path.join(root, relative), { throwIfNoEntry: false }) ?? null);
    return stats.get(relative) ?? null;
  };
  const lists = new Map<string, readonly string[]>();
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
    list: (relative) => {
      if (!lists.has(relative)) {
        let names: string[] = [];
        try {
          names = fs.readdirSync(path.join(root, relative));
        } catch {
          names = [];
        }
        lists.set(relative, names);
      }
      return lists.get(relative) ?? [];
    },
    findUp: (relative) => {
      for (let dir = root; ; dir = path.dirname(dir)) {
        const candidate = path.join(dir, relative);
        if (fs.existsSync(candidate)) return candidate;
        if (path.dirname(dir) === dir) return null;
      }
    },
  };
}

/** Facts from an in-memory file map, for tests of pure detection. */
export function factsFromFiles(root: string, files: Record<string, string>, executables: readonly string[] = []): ProjectFacts {
  const prefix = (relative: string) => (relative === '' || relative === '.' ? '' : `${relative.replace(/\/$/, '')}/`);
  const isDir = (relative: string) => Object.keys(files).some((f) => f.startsWith(prefix(relative)));
  return {
    root,
    exists: (relative) => relative in files || isDir(relative),
    isDirectory: isDir,
    isExecutable: (relative) => executables.includes(relative),
    read: (relative) => files[relative] ?? null,
    list: (relative) => [...new Set(Object.keys(files)
      .filter((f) => f.startsWith(prefix(relative)))
      .map((f) => f.slice(prefix(relative).length).split('/')[0] ?? ''))],
    findUp: (relative) => (relative in files || isDir(relative) ? `${root}/${relative}` : null),
  };
}
