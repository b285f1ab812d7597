import { formatValue } from './figure.js';

const verdict = (f) => (f.pass === null ? 'info' : f.pass ? 'pass' : 'FAIL');
const target = (f) => (f.target === null ? '—' : `≤ ${formatValue(f.target.max, f.target.unit)}`);
const cell = (side) => (side === null ? '—' : formatValue(side.median, side.unit));

/** The figures as rows of cells, shared by the terminal table and the Markdown file. */
function rows(figures) {
  return figures.map((f) => [f.title, cell(f.a), cell(f.b), formatValue(f.result.value, f.result.unit), target(f), verdict(f), String(f.runs)]);
}

const HEADER = ['figure', 'A (median)', 'B (median)', 'result', 'target', 'verdict', 'runs'];

/** A plain-text table for the terminal, followed by what A and B were. */
export function renderTable(figures) {
  const all = [HEADER, ...rows(figures)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const line = (row) => row.map((text, i) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))).join('  ');
  const legend = figures.map((f) => `  ${f.title}\n    A: ${f.a.shown}${f.b ? `\n    B: ${f.b.shown}` : ''}`);
  const notes = figures.filter((f) => f.note).map((f) => `  ${f.title}: ${f.note}`);
  return [line(all[0]), ...all.slice(1).map(line), '', 'Commands:', ...legend, ...(notes.length ? ['', 'Notes:', ...notes] : [])].join('\n');
}

const md = (text) => text.replace(/\|/g, '\\|');

/** bench/RESULTS.md: the machine, the date, the method, each command and each figure. */
export function renderMarkdown({ machine, date, runs, selected, figures, errors }) {
  const lines = [
    '# run-tests benchmarks',
    '',
    'Written by `npm run bench` (bench/run.js); do not edit by hand.',
    '',
    `- date: ${date}`,
    `- benchmarks: ${selected.join(', ')}`,
    `- BENCH_RUNS: ${runs} (rounds per comparison; start-up takes more, see "runs"), after one warm-up run of each command`,
    ...Object.entries(machine).map(([key, value]) => `- ${key}: ${value}`),
    '',
    'Each comparison runs its commands in turn in one process, starting one further along',
    'each round (AB, BA, …; with three: ABC, BCA, CAB), so drift on a noisy machine hits all',
    'alike. "result" is the median of the per-round ratios A/B, or an absolute median.',
    'Absolute times are only comparable within one run on one machine; "info" rows have no',
    'target and split a miss into its parts.',
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows(figures).map((row) => `| ${row.map(md).join(' | ')} |`),
    '',
    '## Commands',
    '',
    '| figure | A | B |',
    '| --- | --- | --- |',
    ...figures.map((f) => `| ${md(f.title)} | \`${md(f.a.shown)}\` | ${f.b ? `\`${md(f.b.shown)}\`` : '—'} |`),
  ];
  const notes = figures.filter((f) => f.note);
  if (notes.length > 0) lines.push('', '## Notes', '', ...notes.map((f) => `- ${md(f.title)}: ${md(f.note)}`));
  if (errors.length > 0) {
    lines.push('', '## Benchmarks that could not run', '', ...errors.map((e) => `- ${e.benchmark}: ${md(e.message.split('\n')[0])}`));
  }
  return `${lines.join('\n')}\n`;
}
