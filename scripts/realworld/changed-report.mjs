// changed.mjs' results as Markdown: a line of totals, a row per project and a row per
// edit. Pure functions of the rows changed.mjs collects.
import { cell } from './lib.mjs';

const MAX_LISTED = 3;

export function median(values) {
  const known = values.filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
}

const fraction = (value) => (value === null || value === undefined ? '–' : value.toFixed(2));
const sum = (values) => values.reduce((a, b) => a + b, 0);
const checked = (row) => row.edits.filter((e) => !e.unchecked);

export function summaryLine(rows) {
  const edits = rows.flatMap((r) => r.edits);
  const breaking = edits.filter((e) => (e.broken ?? []).length > 0);
  const missed = sum(edits.map((e) => (e.missed ?? []).length));
  const unchecked = edits.filter((e) => e.unchecked).length;
  const counted = rows.filter((r) => !r.leftOut);
  return `${counted.length} projects (${rows.length - counted.length} left out), ${edits.length} edits, ${breaking.length} of them ` +
    `breaking tests (${sum(breaking.map((e) => e.broken.length))} failing entries in the full runs); ` +
    `**${missed} missed**${unchecked > 0 ? `, ${unchecked} edits unchecked` : ''}; ` +
    `median fraction of the suite run ${fraction(median(edits.map((e) => e.fraction)))} ` +
    `(${fraction(median(breaking.map((e) => e.fraction)))} over the breaking edits).`;
}

/** How the plans of a project's edits went: how many ran units, the whole suite, nothing. */
function plans(edits) {
  const kinds = { units: 0, whole: 0, nothing: 0 };
  for (const e of edits) {
    if (!e.plan) continue;
    if (e.plan.whole_suite) kinds.whole += 1;
    else if (e.plan.units.length > 0) kinds.units += 1;
    else kinds.nothing += 1;
  }
  return [kinds.units && `${kinds.units} units`, kinds.whole && `${kinds.whole} whole suite`, kinds.nothing && `${kinds.nothing} nothing`].filter(Boolean).join(', ');
}

function projectRow(row) {
  const { project } = row;
  if (row.leftOut) return [project.id, project.runner, '–', '–', '–', '–', '–', '–', `left out: ${row.leftOut}`];
  const edits = row.edits;
  const breaking = edits.filter((e) => (e.broken ?? []).length > 0).length;
  const seconds = `${sum(edits.map((e) => e.seconds.full))} / ${sum(edits.map((e) => e.seconds.changed))}`;
  return [
    project.id, project.runner, `${edits.length} (${breaking} breaking)`,
    sum(edits.map((e) => (e.broken ?? []).length)), sum(edits.map((e) => (e.missed ?? []).length)),
    fraction(median(checked(row).map((e) => e.fraction))), plans(edits), seconds,
    [`${row.sourceFiles} source files, ${row.totalUnits ?? '?'} units`, ...row.notes].join('; '),
  ];
}

const listed = (items) => (items.length > MAX_LISTED ? `${items.slice(0, MAX_LISTED).join(', ')} and ${items.length - MAX_LISTED} more` : items.join(', '));

function planText(plan, totalUnits) {
  if (!plan) return '–';
  if (plan.whole_suite) return `whole suite: ${plan.whole_suite.reason}`;
  if (plan.units.length === 0) return 'nothing to run';
  return `${plan.units.length} of ${totalUnits ?? '?'} units: ${listed(plan.units.map((u) => `\`${u.unit}\` (${u.reasons[0]}${u.reasons.length > 1 ? ', …' : ''})`))}`;
}

const identity = (t) => `\`${t.file ? `${t.file} ` : ''}${t.test_name}\``;

function editRow(row, e) {
  const missed = e.missed ?? [];
  return [
    row.project.id, `\`${e.file}\``, (e.broken ?? []).length === 0 ? 'none (proves nothing)' : e.broken.length,
    e.unchecked ? `**unchecked**: ${e.unchecked}` : planText(e.plan, row.totalUnits),
    e.unchecked ? '–' : `${e.changedFailed} (${e.changedStatus})`,
    missed.length === 0 ? 0 : `**${missed.length}**: ${listed(missed.map(identity))}`,
    fraction(e.fraction), `${e.seconds.full} / ${e.seconds.changed}`, e.notes.join('; '),
  ];
}

const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;

export function tables(rows) {
  const out = [
    '| project | runner | edits | failing in full runs | missed | median fraction run | plans | s (full / --changed) | notes |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => line(projectRow(row))),
    '',
    'Each edit:',
    '',
    '| project | file edited | failing in the full run | plan | failing in the --changed run | missed | fraction run | s (full / --changed) | notes |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) for (const e of row.edits) out.push(line(editRow(row, e)));
  return out.join('\n');
}
