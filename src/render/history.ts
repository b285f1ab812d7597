import type { HistoryDocument, TestStats } from '../model/history.js';
import { visible } from './visible.js';

type Document = Omit<HistoryDocument, 'schema_version'>;

const COLUMNS = ['runs', 'fail', 'flaky', 'flips', 'median', 'p95', 'trend', 'last'] as const;
const MIN_WIDTH: Partial<Record<(typeof COLUMNS)[number], number>> = { median: 6, p95: 6 };

/** `run-tests history` for a person: a header (how many runs, from when), then a line per
 * test in the document's order, then the warnings. */
export function renderHistory(document: Document): string {
  const { runs, tests } = document;
  const lines = [header(document)];
  if (runs.length > 0 && tests.length === 0) lines.push('no test matches');
  if (tests.length > 0) {
    const rows = tests.map(row);
    // Durations get room for `999 ms` always: the table's shape never depends on how fast a run was.
    const widths = COLUMNS.map((name, i) => Math.max(name.length, MIN_WIDTH[name] ?? 0, ...rows.map((r) => r[i]?.length ?? 0)));
    const cells = (values: readonly string[]): string => values.map((v, i) => (i < 6 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0))).join('  ');
    lines.push(`${cells(COLUMNS)}  test`);
    tests.forEach((test, i) => lines.push(`${cells(rows[i] ?? [])}  ${test.file === null ? '' : `${test.file}  `}${test.name}`));
  }
  for (const warning of document.warnings) lines.push(`warning: ${warning}`);
  // Names and files are the runners' words: shown with any control character escaped.
  return `${lines.map((line) => visible(line)).join('\n')}\n`;
}

function header({ project_root, runs, tests }: Document): string {
  if (runs.length === 0) return `no history recorded in ${project_root}: run the tests first`;
  const times = runs.map((r) => r.started_at).filter((t): t is string => t !== null).sort();
  const span = times.length === 0 ? '' : `, from ${times[0]} to ${times.at(-1)}`;
  return `${project_root}: ${runs.length} ${runs.length === 1 ? 'run' : 'runs'}${span}; ${tests.length} ${tests.length === 1 ? 'test' : 'tests'}`;
}

const row = (t: TestStats): string[] => [String(t.runs), String(t.failures), String(t.flaky), String(t.flips), ms(t.median_ms), ms(t.p95_ms), t.trend ?? '-', t.last ?? '-'];

/** `12 ms`, `1.5 s`; `-` when unknown. */
export function ms(value: number | null): string {
  if (value === null) return '-';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}
