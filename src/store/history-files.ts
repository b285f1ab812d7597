import fs from 'node:fs';
import path from 'node:path';

/** `.run-tests/history/`: the runs' entries and the names files they use (history-format.ts). */
export const HISTORY_DIR = 'history';

const ID = '\\d{8}-\\d{6}\\.\\d{3}-[0-9a-f]{8}';
const ENTRY = new RegExp(`^(${ID})\\.(${ID})\\.tsv$`);
const NAMES = new RegExp(`^names\\.(${ID})\\.tsv$`);

export const historyDir = (artifactsDir: string): string => path.join(artifactsDir, HISTORY_DIR);
export const entryFile = (dir: string, runId: string, names: string): string => path.join(dir, `${runId}.${names}.tsv`);
export const namesFile = (dir: string, names: string): string => path.join(dir, `names.${names}.tsv`);

/** One run's entry: its run, and the names file it uses. */
export interface EntryName {
  readonly runId: string;
  readonly names: string;
  /** Its file's name in the history directory. */
  readonly file: string;
}

/** What the history directory holds: the entries, oldest first; the names files, oldest
 * first; and the names of anything else (dot files, an atomic write's temporary files,
 * are not counted). A missing directory holds nothing. */
export function listHistory(dir: string): { entries: EntryName[]; names: string[]; foreign: string[] } {
  let files: string[];
  try {
    files = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { entries: [], names: [], foreign: [] };
    throw error;
  }
  const entries: EntryName[] = [];
  const names: string[] = [];
  const foreign: string[] = [];
  for (const file of files.sort()) {
    const entry = ENTRY.exec(file);
    const generation = entry === null ? NAMES.exec(file)?.[1] : undefined;
    if (entry !== null) entries.push({ runId: entry[1] ?? '', names: entry[2] ?? '', file });
    else if (generation !== undefined) names.push(generation);
    else if (!file.startsWith('.')) foreign.push(file);
  }
  return { entries, names, foreign };
}
