import type { HistoryRun, HistoryTest } from '../model/history.js';
import type { Outcome } from '../model/results.js';
import { scanEntry, type HistoryLine } from './history-format.js';

interface Column {
  readonly name: string;
  readonly file: string | null;
  readonly outcomes: (Outcome | null)[];
  readonly durations: (number | null)[];
  /** Whether it ran in a run read. */
  seen: boolean;
}

/** Builds History's dense columns run by run: index i of a test's arrays is always
 * History.runs[i], null for the runs it was not in. The arrays are made as long as the
 * runs to read at once (`capacity`) and filled in place: grown by push, 10,000 tests'
 * arrays of 200 runs were copied over and over, and collecting them was a third of the
 * time `history` took. */
export class HistoryColumns {
  readonly runs: HistoryRun[] = [];
  /** By file (null: '') and then name: one test, one column, whichever names file or
   * report it comes from. */
  private readonly byFile = new Map<string, Map<string, number>>();
  private readonly columns: Column[] = [];

  constructor(private readonly warnings: string[], private readonly capacity: number) {}

  /** A run from a report (--from): `where` names it in a warning. */
  addRun(run: HistoryRun, lines: Iterable<HistoryLine>, where: string): void {
    const index = this.runs.length;
    this.runs.push(run);
    for (const line of lines) {
      const column = this.columns[this.columnOf(line.file, line.name)];
      if (column !== undefined && !this.put(column, index, line.outcome, line.durationMs)) this.twice(where, line.name);
    }
  }

  /** A stored entry's run and its lines (the text after its header, which ends at
   * `start`); `ids` are its names file's tests as column numbers (columnOf). */
  addEntry(run: HistoryRun, text: string, start: number, ids: readonly (number | null)[], where: string, bad: (number: number, why: string) => void): void {
    const index = this.runs.length;
    this.runs.push(run);
    scanEntry(text, start, (outcome, durationMs, id) => {
      const column = this.columns[ids[id] ?? -1];
      if (column === undefined) return `test number ${id} is not in its names file`;
      if (!this.put(column, index, outcome, durationMs)) this.twice(where, column.name);
      return null;
    }, bad);
  }

  private twice(where: string, name: string): void {
    this.warnings.push(`${where}: ${name} is in the run twice; the second is skipped`);
  }

  /** Sets the column's value in run `index`; false when it has one there already. */
  private put(column: Column, index: number, outcome: Outcome, durationMs: number | null): boolean {
    if (column.outcomes[index] !== null) return false;
    column.outcomes[index] = outcome;
    column.durations[index] = durationMs;
    column.seen = true;
    return true;
  }

  /** The number of the test's column, made when it is new. */
  columnOf(file: string | null, name: string): number {
    let names = this.byFile.get(file ?? '');
    if (names === undefined) this.byFile.set(file ?? '', (names = new Map()));
    let id = names.get(name);
    if (id === undefined) {
      id = this.columns.push({ name, file, outcomes: new Array<Outcome | null>(this.capacity).fill(null), durations: new Array<number | null>(this.capacity).fill(null), seen: false }) - 1;
      names.set(name, id);
    }
    return id;
  }

  /** Every test that ran in a run read, in the order first named, its columns as long as the runs. */
  tests(): HistoryTest[] {
    const length = this.runs.length;
    // A names file names tests of runs not read (left out by --limit, say): those are left out.
    return this.columns.filter((column) => column.seen).map((column) => {
      // Runs chosen but skipped (a corrupt entry) leave room at the end.
      if (length < this.capacity) {
        column.outcomes.length = length;
        column.durations.length = length;
      }
      return { name: column.name, file: column.file, outcomes: column.outcomes, durations: column.durations };
    });
  }
}
