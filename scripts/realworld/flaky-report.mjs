// flaky.mjs's results as Markdown: one row per checked project, then each problem found,
// then the projects left out. Pure: a function of the rows.
import { ALWAYS, FLAKY } from './flaky-tests.mjs';
import { cell } from './lib.mjs';

const STAGES = ['without --retries', '--retries 2', '--retries 2, flaky only', '--retries 2 --flaky-fails, flaky only'];

const verdict = (stage) => (stage?.report ? `${stage.report.status}/${stage.exit}` : `– (exit ${stage?.exit ?? '?'})`);

/** `Name` (failed, passed) for each test of `list` named after `name`. */
function entries(list, name) {
  const found = (list ?? []).filter((t) => t.test_name.includes(name));
  if (found.length === 0) return 'none';
  return found.map((t) => `\`${t.test_name}\` (${(t.attempts ?? []).map((a) => a.status).join(', ')})`).join('; ');
}

function tests(stage, project) {
  const run = stage?.report?.summary.run;
  return run === undefined ? '–' : `${run} (${project.expect.run} + 2)`;
}

function seconds(row) {
  const plain = row.stages[STAGES[0]]?.seconds;
  const retried = row.stages[STAGES[1]]?.seconds;
  return plain === undefined || retried === undefined ? '–' : `${plain} s → ${retried} s`;
}

function tableRow(row) {
  const retried = row.stages[STAGES[1]]?.report;
  const cells = [
    row.project.id, row.project.runner, tests(row.stages[STAGES[1]], row.project),
    entries(retried?.flaky_tests, FLAKY), entries(retried?.failed_tests, ALWAYS),
    STAGES.map((s) => verdict(row.stages[s])).join(' · '), seconds(row),
    row.problems.length === 0 ? 'as the contract says' : `${row.problems.length} problem(s), below`,
  ];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** `{ summary, text }`: a one-line summary and the Markdown table with its notes. */
export function flakyTable(rows) {
  const checked = rows.filter((r) => r.leftOut === null);
  const clean = checked.filter((r) => r.problems.length === 0);
  const problems = checked.reduce((n, r) => n + r.problems.length, 0);
  const summary = `${checked.length} projects checked, ${clean.length} as the contract says, ${problems} problem(s) found; ${rows.length - checked.length} left out`;
  const lines = [
    '| project | runner | tests (own + injected) | flaky found (attempts) | always failing (attempts) | status/exit: without retries · --retries 2 · flaky only · --flaky-fails | time without → with --retries 2 | result |',
    '|---|---|---|---|---|---|---|---|',
    ...checked.map(tableRow),
  ];
  const found = checked.filter((r) => r.problems.length > 0);
  if (found.length > 0) {
    lines.push('', 'Problems:', '');
    for (const row of found) for (const p of row.problems) lines.push(`- ${row.project.id}: ${p}`);
  }
  const left = rows.filter((r) => r.leftOut !== null);
  if (left.length > 0) {
    const byReason = new Map();
    for (const r of left) {
      const reason = r.leftOut.startsWith('not checked out') ? 'not checked out' : r.leftOut;
      byReason.set(reason, [...(byReason.get(reason) ?? []), r.project.id]);
    }
    lines.push('', `Left out: ${[...byReason].map(([reason, ids]) => `${ids.join(', ')} (${reason})`).join('; ')}.`);
  }
  return { summary, text: lines.join('\n') };
}
