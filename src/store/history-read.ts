import fs from 'node:fs';
import path from 'node:path';
import type { History } from '../model/history.js';
import { openRead } from './atomic.js';
import { HistoryColumns } from './history-columns.js';
import { decodeHeader, decodeNames } from './history-format.js';
import { historyDir, listHistory, namesFile, type EntryName } from './history-files.js';
import { reportRuns, type ReportRun } from './history-reports.js';

/** A file with more bad lines than this says how many more, not each. */
const LINE_WARNINGS = 5;

export interface HistoryOptions {
  /** The newest this many runs (all when absent). */
  readonly limit?: number;
  /** run-tests JSON reports to read as runs too (--from), as given. */
  readonly from?: readonly string[];
  /** Where relative --from paths are from (default: the process's working directory). */
  readonly cwd?: string;
}

/** A run to read: an entry of the store (read when chosen), or a report's run. */
type Source = { readonly key: string; readonly entry: EntryName } | { readonly key: string; readonly report: ReportRun };

/** The project's history: its stored entries and the runs of the `from` reports, oldest
 * first (by start time), the newest `limit` of them; every test they ran as dense
 * columns. A corrupt or foreign file or line is skipped with a warning naming it. */
export function readHistory(artifactsDir: string, options: HistoryOptions = {}): History {
  const dir = historyDir(artifactsDir);
  const warnings: string[] = [];
  const linked = fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  if (linked) warnings.push(`${dir} is a symbolic link; run-tests reads no history through it`);
  const { entries, foreign } = linked ? { entries: [], foreign: [] } : listHistory(dir);
  warnings.push(...foreign.map((name) => `${path.join(dir, name)}: not a file of the run-tests history; skipped`));
  const reports = reportRuns(options.from ?? [], options.cwd ?? process.cwd());
  warnings.push(...reports.warnings);
  const stored = new Set(entries.map((e) => e.runId));
  const sources: Source[] = [
    ...entries.map((entry) => ({ key: idTime(entry.runId), entry })),
    ...reports.runs.filter((r) => !stored.has(r.run.run_id) || (warnings.push(`${r.run.source}: run ${r.run.run_id} is in the history already; skipped`), false))
      .map((r) => ({ key: r.run.started_at ?? '', report: r })),
  ];
  // Stable: runs that started at once (a merge's parts) keep their order.
  sources.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const chosen = options.limit === undefined ? sources : sources.slice(Math.max(0, sources.length - options.limit));
  const columns = new HistoryColumns(warnings, chosen.length);
  const reader = new EntryReader(dir, columns, warnings);
  for (const source of chosen) {
    if ('entry' in source) reader.read(source.entry);
    else columns.addRun(source.report.run, source.report.lines, source.report.run.source);
  }
  return { runs: columns.runs, tests: columns.tests(), warnings };
}

/** `20261201-164511.123-…` as the ISO time it names, to sort entries among reports' runs. */
const idTime = (id: string): string => `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13, 19)}Z`;

/** Reads entries into the columns, each names file once. */
class EntryReader {
  /** By names file: each line's test as its column's number in `columns`; null: unreadable. */
  private readonly names = new Map<string, (number | null)[] | null>();

  constructor(private readonly dir: string, private readonly columns: HistoryColumns, private readonly warnings: string[]) {}

  read(entry: EntryName): void {
    const file = path.join(this.dir, entry.file);
    const text = this.text(file);
    if (text === null) return;
    const end = text.indexOf('\n');
    const header = decodeHeader(end === -1 ? text : text.slice(0, end));
    if ('problem' in header) {
      this.warnings.push(`${file}:1: ${header.problem}; skipped`);
      return;
    }
    const ids = this.namesOf(entry.names, file);
    if (ids === null) return;
    const bad = this.bad(file);
    this.columns.addEntry({ ...header.run, source: 'store' }, text, end, ids, file, bad.line);
    bad.end();
  }

  /** The names file's tests as column numbers; null (with a warning) when it cannot be read. */
  private namesOf(generation: string, entry: string): (number | null)[] | null {
    if (!this.names.has(generation)) {
      const file = namesFile(this.dir, generation);
      const text = this.text(file);
      const bad = this.bad(file);
      const names = text === null ? { problem: 'is not there' } : decodeNames(text, bad.line);
      bad.end();
      if (!Array.isArray(names) && text !== null) this.warnings.push(`${file}:1: ${names.problem}`);
      this.names.set(generation, Array.isArray(names) ? names.map((n) => (n === null ? null : this.columns.columnOf(n.file, n.name))) : null);
    }
    const ids = this.names.get(generation) ?? null;
    if (ids === null) this.warnings.push(`${entry}: its names file ${path.basename(namesFile(this.dir, generation))} cannot be read; skipped`);
    return ids;
  }

  /** A file's text; null when it is gone (pruned by a run that finished meanwhile), or
   * with a warning when it is a link or no regular file. */
  private text(file: string): string | null {
    try {
      const fd = openRead(file);
      try {
        return fs.readFileSync(fd, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.warnings.push(`${file}: cannot be read (${(error as Error).message}); skipped`);
      return null;
    }
  }

  /** Warnings for a file's bad lines: the first few by number, then how many more. */
  private bad(file: string): { line: (number: number, why: string) => void; end: () => void } {
    let count = 0;
    const line = (number: number, why: string): void => {
      if ((count += 1) <= LINE_WARNINGS) this.warnings.push(`${file}:${number}: ${why}; skipped`);
    };
    const end = (): void => {
      if (count > LINE_WARNINGS) this.warnings.push(`${file}: ${count - LINE_WARNINGS} more bad lines skipped`);
    };
    return { line, end };
  }
}
