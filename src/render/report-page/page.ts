import { escapeHtml as e } from './escape.js';
import { PAGE_LIMITS, type FlakyRow, type LastFailure, type PageModel, type SlowTest } from './model.js';
import { runsChart } from './runs-chart.js';
import { shardsChart } from './shards-chart.js';
import { STYLE } from './style.js';
import { duration, outcomeClass, statusClass, when } from './svg.js';
import { durationSparkline, outcomeStrip } from './small-charts.js';

/** Nothing is loaded, run or sent: styles inline, charts inline SVG, no script. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The report page: one self-contained HTML document, a pure function of its model. */
export function renderReportPage(model: PageModel): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Tests of ${e(model.project)}</title>
<style>${STYLE}</style>
</head>
<body>
${[header(model), runsSection(model), slowestSection(model), flakiestSection(model), failuresSection(model), shardsSection(model)].join('\n')}
</body>
</html>
`;
}

const fileOf = (file: string | null, line: number | null = null): string =>
  file === null ? '' : `<div class="file">${e(line === null ? file : `${file}:${line}`)}</div>`;
const testCell = (name: string, file: string | null, line: number | null = null): string =>
  `<td><div class="name">${e(name)}</div>${fileOf(file, line)}</td>`;
const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function header(model: PageModel): string {
  const { runs } = model;
  const span = runs.length === 0 ? 'no runs recorded' : `${plural(runs.length, 'run')}, ${when(runs[0]?.started_at ?? null, 0)} to ${when(runs.at(-1)?.started_at ?? null, runs.length - 1)} (UTC)`;
  const last = model.last;
  const tiles = [
    ['Last run', last === null ? 'none' : `<span class="status ${statusClass(last.status)}">${e(last.status)}</span>`],
    ['Runs passed', `${runs.filter((r) => r.status === 'passed').length} of ${runs.length}`],
    ['Tests seen', model.tests.toLocaleString('en-US')],
    ['Unsteady tests', model.unsteady.toLocaleString('en-US')],
  ].map(([label, value]) => `<div class="tile">${label}<b>${value}</b></div>`).join('');
  const warnings = model.warnings.length === 0 ? ''
    : `<details><summary>${plural(model.warnings.length, 'line')} of the history could not be read</summary><ul>${model.warnings.slice(0, 20).map((w) => `<li>${e(w)}</li>`).join('')}</ul></details>`;
  return `<header><h1>Tests of ${e(model.project)}</h1><p class="meta">${span}; made ${e(model.generated_at.replace('T', ' ').slice(0, 19))} UTC by run-tests report.</p><div class="tiles">${tiles}</div>${warnings}</header>`;
}

const LEGEND = [['passed', 'passed'], ['flaky', 'flaky'], ['failed', 'failed or error'], ['skipped', 'skipped'], ['error', 'run ended in error'], ['none', 'not run']] as const;
const legend = (keys: readonly string[]): string =>
  `<div class="legend">${LEGEND.filter(([k]) => keys.includes(k)).map(([k, label]) => `<span><span class="swatch o-${k}"></span>${label}</span>`).join('')}</div>`;

function runsSection(model: PageModel): string {
  if (model.runs.length === 0) return '<section><h2>Runs</h2><p class="note">No run is recorded yet: run the tests, then make the page again.</p></section>';
  const rows = model.runs.map((r, i) => `<tr><td>${e(when(r.started_at, i))}</td><td>${e(r.run_id)}</td><td class="status ${statusClass(r.status)}">${e(r.status)}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.flaky}</td><td class="n">${r.skipped}</td></tr>`).reverse().join('');
  return `<section><h2>Runs</h2><p class="note">Each bar is one run, oldest on the left: its tests by outcome, and under it the run's status.</p>${legend(['passed', 'flaky', 'failed', 'skipped', 'error'])}${runsChart(model.runs)}
<details><summary>The runs as a table</summary><table><thead><tr><th>Started</th><th>Run</th><th>Status</th><th>Passed</th><th>Failed</th><th>Flaky</th><th>Skipped</th></tr></thead><tbody>${rows}</tbody></table></details></section>`;
}

function slowestSection(model: PageModel): string {
  if (model.slowest.length === 0) return '<section><h2>Slowest tests</h2><p class="note">No test has a recorded duration.</p></section>';
  const row = (t: SlowTest, i: number): string => `<tr>${testCell(t.name, t.file)}<td class="n">${duration(t.median_ms)}</td><td class="n">${duration(t.p95_ms)}</td><td>${t.trend ?? '–'}</td><td>${durationSparkline(`slow-${i}`, t.name, t.durations)}</td></tr>`;
  return `<section><h2>Slowest tests</h2><p class="note">The ${model.slowest.length} slowest of ${plural(model.tests, 'test')} by median duration (at most ${PAGE_LIMITS.slowest} are listed); each line is the test's duration in every run, scaled to its own slowest.</p>
<table><thead><tr><th>Test</th><th>Median</th><th>p95</th><th>Trend</th><th>Duration per run</th></tr></thead><tbody>${model.slowest.map(row).join('')}</tbody></table></section>`;
}

function flakiestSection(model: PageModel): string {
  if (model.flakiest.length === 0) return '<section><h2>Flakiest tests</h2><p class="note">No test changed between passing and failing, and none was flaky, in these runs.</p></section>';
  const row = (t: FlakyRow, i: number): string => `<tr>${testCell(t.name, t.file)}<td class="n">${t.flips}</td><td class="n">${t.flaky}</td><td class="n">${t.failures} of ${t.runs}</td><td>${outcomeStrip(`flaky-${i}`, t.name, t.outcomes)}</td></tr>`;
  return `<section><h2>Flakiest tests</h2><p class="note">${model.flakiest.length} of ${plural(model.unsteady, 'test')} whose outcome changed between runs or that were flaky, most flips first (at most ${PAGE_LIMITS.flakiest} are listed).</p>${legend(['passed', 'flaky', 'failed', 'skipped', 'none'])}
<table><thead><tr><th>Test</th><th>Flips</th><th>Flaky</th><th>Failed</th><th>Outcome per run</th></tr></thead><tbody>${model.flakiest.map(row).join('')}</tbody></table></section>`;
}

function failuresSection(model: PageModel): string {
  const { last } = model;
  if (last === null) return '<section><h2>Failures of the last run</h2><p class="note">No report of a last run.</p></section>';
  if (last.total === 0) return `<section><h2>Failures of the last run</h2><p class="note">The last run (${e(last.run_id ?? 'imported')}) had no failures: <span class="status ${statusClass(last.status)}">${e(last.status)}</span>.</p></section>`;
  const item = (f: LastFailure): string => `<div class="failure"><div class="name"><span class="status ${outcomeClass(f.status)}">${f.status}</span> ${e(f.name)}</div>${fileOf(f.file, f.line)}<pre>${e(f.message)}</pre></div>`;
  const shown = last.failures.length < last.total ? `${last.failures.length} of ${last.total} shown (at most ${PAGE_LIMITS.failures}; .run-tests/last-failures.json has them all)` : plural(last.total, 'failure');
  return `<section><h2>Failures of the last run</h2><p class="note">Run ${e(last.run_id ?? 'imported')}: ${shown}; messages cut at ${PAGE_LIMITS.message.toLocaleString('en-US')} characters.</p>${last.failures.map(item).join('')}</section>`;
}

function shardsSection(model: PageModel): string {
  if (model.partitions.length === 0) return '';
  const charts = model.partitions.map((p, i) => `<h3 class="note">Partition ${e(p.partition)}</h3>${shardsChart(`shards-${i}`, p)}`).join('');
  return `<section><h2>Shard balance</h2><p class="note">Each partition's parts (--shard i/n), newest partition first (at most ${PAGE_LIMITS.partitions}): how long each part's run took.</p>${charts}</section>`;
}
