import type { HistoryRun, HistoryTest } from '../model/history.js';
import type { Outcome } from '../model/results.js';
import type { HistoryLine } from './history-format.js';

interface Column {
  readonly name: string;
  readonly file: string | null;
  readonly outcomes: (Outcome | null)[];
  readonly durations: (number | null)[];
}

/** Builds History's dense columns run by run: a test's arrays are padded with null for
 * the runs it was not in, so index i is always History.runs[i]. */
export class HistoryColumns {
  readonly runs: HistoryRun[] = [];
  /** By file (null: '') and then name: no key string is built per line. */
  private readonly byFile = new Map<string, Map<string, Column>>();
  private readonly order: Column[] = [];

  constructor(private readonly warnings: string[]) {}

  /** `where` names the run's file in a warning. */
  addRun(run: HistoryRun, lines: Iterable<HistoryLine>, where: string): void {
    const index = this.runs.length;
    this.runs.push(run);
    for (const line of lines) {
      const column = this.column(line.file, line.name);
      if (column.outcomes.length > index) {
        this.warnings.push(`${where}: ${line.name} is in the run twice; the second is skipped`);
        continue;
      }
      while (column.outcomes.length < index) {
        column.outcomes.push(null);
        column.durations.push(null);
      }
      column.outcomes.push(line.outcome);
      column.durations.push(line.durationMs);
    }
  }

  private column(file: string | null, name: string): Column {
    let names = this.byFile.get(file ?? '');
    if (names === undefined) this.byFile.set(file ?? '', (names = new Map()));
    let column = names.get(name);
    if (column === undefined) {
      column = { name, file, outcomes: [], durations: [] };
      names.set(name, column);
      this.order.push(column);
    }
    return column;
  }

  /** Every test, in the order first seen, its columns as long as the runs. */
  tests(): HistoryTest[] {
    const length = this.runs.length;
    for (const column of this.order) {
      while (column.outcomes.length < length) {
        column.outcomes.push(null);
        column.durations.push(null);
      }
    }
    return this.order;
  }
}
