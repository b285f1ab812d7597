import fs from 'node:fs';
import path from 'node:path';
import type { History, HistoryRun } from '../model/history.js';
import type { RunReport } from '../model/report.js';
import type { Outcome, TestResult } from '../model/results.js';
import { ensureDir, type ArtifactPaths } from './artifacts.js';
import { openRead, removeFile, writeFileAtomic } from './atomic.js';
import { HistoryColumns } from './history-columns.js';
import { bounded, decodeHeader, decodeLine, encodeEntry, type HistoryLine, type StoredHistoryRun } from './history-format.js';
import { reportRuns, type ReportRun } from './history-reports.js';
import { isRunId } from './runs.js';

/** `.run-tests/history/`: one entry per run, `<run_id>.tsv` (src/store/history-format.ts). */
export const HISTORY_DIR = 'history';
/** How many runs' entries a project keeps by default (--keep-history). */
export const DEFAULT_KEEP_HISTORY = 200;
const ENTRY = /^(\d{8}-\d{6}\.\d{3}-[0-9a-f]{8})\.tsv$/;
/** A file with more bad lines than this says how many more, not each. */
const LINE_WARNINGS = 5;

export const historyDir = (artifactsDir: string): string => path.join(artifactsDir, HISTORY_DIR);

/** Records the run's outcomes as its entry, then prunes the entries to the newest `keep`
 * (this one among them). Called under the project's lock, after the report is built;
 * `tests` are every result of the run, files relative to project_root. A run without
 * results records its run with the report's (unknown) counts and no test. */
export function recordHistory(artifacts: ArtifactPaths, report: RunReport, tests: readonly TestResult[], keep: number): void {
  const dir = historyDir(artifacts.dir);
  // A `history` that is a link or a file is refused: nothing is written through it.
  ensureDir(dir);
  writeFileAtomic(path.join(dir, `${artifacts.runId}.tsv`), encodeEntry(storedRun(artifacts.runId, report), historyLines(tests)));
  pruneHistory(dir, keep, artifacts.runId);
}

function storedRun(runId: string, report: RunReport): StoredHistoryRun {
  const { shard, git } = report;
  return {
    run_id: runId,
    started_at: report.started_at,
    status: report.status,
    framework: report.framework,
    duration_ms: report.duration_ms,
    revision: git?.revision ?? null,
    dirty: git?.dirty ?? null,
    shard: shard === undefined ? null : { index: shard.index, count: shard.count, partition: shard.partition },
    summary: report.summary,
  };
}

/** Worse first: a test a run reports twice (the same file and name) keeps its worse outcome. */
const RANK: Readonly<Record<Outcome, number>> = { error: 0, failed: 1, flaky: 2, passed: 3, skipped: 4 };

/** A line per test (file and name, bounded), in the run's order. */
export function historyLines(tests: readonly TestResult[]): HistoryLine[] {
  const lines = new Map<string, HistoryLine>();
  for (const test of tests) {
    const line: HistoryLine = { outcome: test.status, durationMs: test.durationMs ?? null, file: test.file === null ? null : bounded(test.file), name: bounded(test.name) };
    const key = `${line.file ?? ''}\0${line.name}`;
    const seen = lines.get(key);
    if (seen === undefined || RANK[line.outcome] < RANK[seen.outcome]) lines.set(key, line);
  }
  return [...lines.values()];
}

/** The entries' run ids, oldest first; names of no entry are `foreign`. */
function entryIds(dir: string): { ids: string[]; foreign: string[] } {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ids: [], foreign: [] };
    throw error;
  }
  const ids: string[] = [];
  const foreign: string[] = [];
  for (const name of names) {
    const id = ENTRY.exec(name)?.[1];
    if (id !== undefined && isRunId(id)) ids.push(id);
    // Dot files are ours in passing: an atomic write's temporary file.
    else if (!name.startsWith('.')) foreign.push(name);
  }
  return { ids: ids.sort(), foreign: foreign.sort() };
}

/** Keeps the newest `keep` entries, `current` among them. */
export function pruneHistory(dir: string, keep: number, current: string): void {
  const older = entryIds(dir).ids.filter((id) => id !== current).reverse().slice(Math.max(0, keep - 1));
  for (const id of older) removeFile(path.join(dir, `${id}.tsv`));
}

export interface HistoryOptions {
  /** The newest this many runs (all when absent). */
  readonly limit?: number;
  /** run-tests JSON reports to read as runs too (--from), as given. */
  readonly from?: readonly string[];
  /** Where relative --from paths are from (default: the process's working directory). */
  readonly cwd?: string;
}

/** A run to read: an entry of the store (read when chosen), or a report's run. */
type Source = { readonly key: string; readonly entry: string } | { readonly key: string; readonly report: ReportRun };

/** The project's history: its stored entries and the runs of the `from` reports, oldest
 * first (by start time), the newest `limit` of them; every test they ran as dense
 * columns. A corrupt or foreign file or line is skipped with a warning naming it. */
export function readHistory(artifactsDir: string, options: HistoryOptions = {}): History {
  const dir = historyDir(artifactsDir);
  const warnings: string[] = [];
  const linked = fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  if (linked) warnings.push(`${dir} is a symbolic link; run-tests reads no history through it`);
  const { ids, foreign } = linked ? { ids: [], foreign: [] } : entryIds(dir);
  warnings.push(...foreign.map((name) => `${path.join(dir, name)}: not a history entry of run-tests; skipped`));
  const reports = reportRuns(options.from ?? [], options.cwd ?? process.cwd());
  warnings.push(...reports.warnings);
  const stored = new Set(ids);
  const sources: Source[] = [
    ...ids.map((id) => ({ key: idTime(id), entry: path.join(dir, `${id}.tsv`) })),
    ...reports.runs.filter((r) => !stored.has(r.run.run_id) || (warnings.push(`${r.run.source}: run ${r.run.run_id} is in the history already; skipped`), false))
      .map((r) => ({ key: r.run.started_at ?? '', report: r })),
  ];
  // Stable: runs that started at once (a merge's parts) keep their order.
  sources.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const chosen = options.limit === undefined ? sources : sources.slice(Math.max(0, sources.length - options.limit));
  const columns = new HistoryColumns(warnings);
  for (const source of chosen) {
    if ('entry' in source) readEntry(source.entry, columns, warnings);
    else columns.addRun(source.report.run, source.report.lines, source.report.run.source);
  }
  return { runs: columns.runs, tests: columns.tests(), warnings };
}

/** `20261201-164511.123-…` as the ISO time it names, to sort entries among reports' runs. */
const idTime = (id: string): string => `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 19)}Z`;

function readEntry(file: string, columns: HistoryColumns, warnings: string[]): void {
  let text: string;
  try {
    const fd = openRead(file);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // Pruned by a run that finished meanwhile, or a link or no regular file there.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${file}: cannot be read (${(error as Error).message}); skipped`);
    return;
  }
  const end = text.indexOf('\n');
  const header = decodeHeader(end === -1 ? text : text.slice(0, end));
  if ('problem' in header) {
    warnings.push(`${file}:1: ${header.problem}; skipped`);
    return;
  }
  columns.addRun({ ...header.run, source: 'store' }, entryLines(file, text, end, header.files, warnings), file);
}

/** The entry's test lines after its header; a bad line is skipped with a warning naming its number. */
function* entryLines(file: string, text: string, start: number, files: readonly string[], warnings: string[]): Generator<HistoryLine> {
  let bad = 0;
  let number = 1;
  for (let at = start + 1; at > 0 && at < text.length;) {
    const next = text.indexOf('\n', at);
    const line = text.slice(at, next === -1 ? text.length : next);
    number += 1;
    at = next === -1 ? -1 : next + 1;
    const read = decodeLine(line, files);
    if (typeof read !== 'string') yield read;
    else if ((bad += 1) <= LINE_WARNINGS) warnings.push(`${file}:${number}: ${read}; skipped`);
  }
  if (bad > LINE_WARNINGS) warnings.push(`${file}: ${bad - LINE_WARNINGS} more bad lines skipped`);
}

export type { HistoryRun };
