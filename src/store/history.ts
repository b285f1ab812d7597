import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../model/report.js';
import type { Outcome, TestResult } from '../model/results.js';
import { ensureDir, type ArtifactPaths } from './artifacts.js';
import { openRead, removeFile, writeFileAtomic } from './atomic.js';
import { bounded, decodeNames, encodeEntry, encodeNames, type HistoryLine, type StoredHistoryRun, storedRun, type TestName } from './history-format.js';
import { entryFile, historyDir, listHistory, namesFile } from './history-files.js';

export { readHistory, type HistoryOptions } from './history-read.js';
export { historyDir } from './history-files.js';

/** How many runs' entries a project keeps by default (--keep-history). */
export const DEFAULT_KEEP_HISTORY = 200;
/** A names file holding more names than this many times the run's tests (and at least
 * MIN_NAMES) is left to the entries that use it, and a new one begun: names of tests
 * renamed or deleted long ago go when their last entry is pruned. */
const NAMES_GROWTH = 4;
const MIN_NAMES = 10_000;

/** Records the run's outcomes as its entry, then prunes the entries to the newest `keep`
 * (this one among them) and the names files to those an entry uses. Called under the
 * project's lock, after the report is built; `tests` are every result of the run, files
 * relative to project_root. A run without results records its run with the report's
 * (unknown) counts and no test. */
export function recordHistory(artifacts: ArtifactPaths, report: RunReport, tests: readonly TestResult[], keep: number): void {
  const dir = historyDir(artifacts.dir);
  // A `history` that is a link or a file is refused: nothing is written through it.
  ensureDir(dir);
  const lines = historyLines(tests);
  const names = currentNames(dir, artifacts.runId, lines.length);
  const ids = lines.map((line) => names.idOf(line));
  names.save();
  const entry = lines.map((line, i) => ({ outcome: line.outcome, durationMs: line.durationMs, id: ids[i] ?? 0 }));
  writeFileAtomic(entryFile(dir, artifacts.runId, names.generation), encodeEntry(storedRun(artifacts.runId, report), entry));
  pruneHistory(dir, keep, artifacts.runId);
}


/** Worse first: a test a run reports twice (the same file and name) keeps its worse outcome. */
const RANK: Readonly<Record<Outcome, number>> = { error: 0, failed: 1, flaky: 2, passed: 3, skipped: 4 };

/** A line per test (file and name, bounded), in the run's order. */
export function historyLines(tests: readonly TestResult[]): HistoryLine[] {
  const lines = new Map<string, HistoryLine>();
  for (const test of tests) {
    const line: HistoryLine = { outcome: test.status, durationMs: test.durationMs ?? null, file: test.file === null ? null : bounded(test.file), name: bounded(test.name) };
    const key = keyOf(line);
    const seen = lines.get(key);
    if (seen === undefined || RANK[line.outcome] < RANK[seen.outcome]) lines.set(key, line);
  }
  return [...lines.values()];
}

const keyOf = (test: TestName): string => `${test.file ?? ''}\0${test.name}`;

/** The names file this run's entry uses: the newest, with the run's new names added, or a
 * new one (named after this run) when there is none, it cannot be read, or it grew past
 * its bound. */
function currentNames(dir: string, runId: string, tests: number): { generation: string; idOf(test: TestName): number; save(): void } {
  const generation = listHistory(dir).names.at(-1);
  const known = generation === undefined ? null : readNames(namesFile(dir, generation));
  const fresh = known === null || known.length > Math.max(MIN_NAMES, NAMES_GROWTH * tests);
  const list: TestName[] = fresh ? [] : known;
  const ids = new Map(list.map((name, i) => [keyOf(name), i]));
  const before = list.length;
  const chosen = fresh || generation === undefined ? runId : generation;
  return {
    generation: chosen,
    idOf(test) {
      const key = keyOf(test);
      let id = ids.get(key);
      if (id === undefined) {
        id = list.push({ file: test.file, name: test.name }) - 1;
        ids.set(key, id);
      }
      return id;
    },
    // Before the entry that uses them: a reader never meets a number its names file lacks.
    save: () => void (list.length > before || fresh ? writeFileAtomic(namesFile(dir, chosen), encodeNames(list)) : undefined),
  };
}

/** A names file's names; null when it cannot be read whole (a new one is begun then). */
function readNames(file: string): TestName[] | null {
  try {
    const fd = openRead(file);
    let text: string;
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    let whole = true;
    const names = decodeNames(text, () => (whole = false));
    return Array.isArray(names) && whole ? (names as TestName[]) : null;
  } catch {
    return null;
  }
}

/** Keeps the newest `keep` entries, `current` among them, and the names files they use
 * (the newest always: the next run adds to it). */
export function pruneHistory(dir: string, keep: number, current: string): void {
  const { entries, names } = listHistory(dir);
  const older = entries.filter((e) => e.runId !== current).reverse().slice(Math.max(0, keep - 1));
  for (const entry of older) removeFile(path.join(dir, entry.file));
  const gone = new Set(older.map((e) => e.file));
  const used = new Set(entries.filter((e) => !gone.has(e.file)).map((e) => e.names));
  for (const generation of names.slice(0, -1)) if (!used.has(generation)) removeFile(namesFile(dir, generation));
}
