import { scaleBand, scaleLinear } from 'd3-scale';
import { stack } from 'd3-shape';
import { escapeHtml } from './escape.js';
import type { RunBar } from './model.js';
import { chart, px, rect, statusClass, text, when } from './svg.js';

const WIDTH = 960;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 46, left: 56 };
/** The row of run statuses under the bars: a failed run shows even when its bar is all green. */
const STATUS_ROW = 8;
const KEYS = ['passed', 'flaky', 'failed', 'skipped'] as const;
const X_LABELS = 6;

/** The outcome of each run over time: its tests stacked by outcome, oldest run first,
 * and under each bar the run's status. */
export function runsChart(runs: readonly RunBar[]): string {
  const x = scaleBand<number>().domain(runs.map((_, i) => i)).range([MARGIN.left, WIDTH - MARGIN.right]).paddingInner(runs.length > 60 ? 0 : 0.15);
  const most = Math.max(1, ...runs.map((r) => r.passed + r.flaky + r.failed + r.skipped));
  const y = scaleLinear().domain([0, most]).nice().range([HEIGHT - MARGIN.bottom - STATUS_ROW - 4, MARGIN.top]);
  const series = stack<RunBar, (typeof KEYS)[number]>().keys(KEYS)(runs as RunBar[]);
  const columns = runs.map((run, i) => {
    const bars = series.map((s) => {
      const [low, high] = s[i] ?? [0, 0];
      return high > low ? rect(x(i) ?? 0, y(high), x.bandwidth(), y(low) - y(high), `o-${s.key}`) : '';
    }).join('');
    const status = rect(x(i) ?? 0, HEIGHT - MARGIN.bottom - STATUS_ROW, x.bandwidth(), STATUS_ROW, statusClass(run.status));
    return `<g><title>${escapeHtml(describe(run, i))}</title>${bars}${status}</g>`;
  });
  const passed = runs.filter((r) => r.status === 'passed').length;
  return chart({
    id: 'runs', width: WIDTH, height: HEIGHT,
    title: 'Outcome of each run',
    desc: `${runs.length} runs, oldest first; ${passed} passed. Each bar stacks the run's tests by outcome; the strip below it is the run's status.`,
  }, `${yAxis(y)}${xLabels(runs, x)}${columns.join('')}`);
}

const describe = (run: RunBar, i: number): string =>
  `${when(run.started_at, i)} (${run.run_id}): ${run.status}; ${run.passed} passed, ${run.failed} failed, ${run.flaky} flaky, ${run.skipped} skipped`;

function yAxis(y: ReturnType<typeof scaleLinear<number, number>>): string {
  return y.ticks(5).map((tick) => `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${px(y(tick))}" y2="${px(y(tick))}"/>`
    + text(MARGIN.left - 6, y(tick) + 4, y.tickFormat(5)(tick), 'label', 'end')).join('');
}

/** A few runs' dates under the axis, evenly spaced: every run's would overlap. */
function xLabels(runs: readonly RunBar[], x: ReturnType<typeof scaleBand<number>>): string {
  const step = Math.max(1, Math.ceil(runs.length / X_LABELS));
  const lastIndex = runs.length - 1;
  // The newest run's label always, and no other within a step of it: they would overlap.
  const shown = [...runs.keys()].filter((i) => (i % step === 0 && i <= lastIndex - step) || i === lastIndex);
  // The first and last labels align with the chart's edges, so neither is cut off.
  const at = (i: number): [number, 'start' | 'middle' | 'end'] => i === 0 ? [x(i) ?? 0, 'start']
    : i === lastIndex ? [(x(i) ?? 0) + x.bandwidth(), 'end'] : [(x(i) ?? 0) + x.bandwidth() / 2, 'middle'];
  return shown.map((i) => {
    const [left, anchor] = at(i);
    return text(left, HEIGHT - MARGIN.bottom + 18, when(runs[i]?.started_at ?? null, i), 'label', anchor);
  }).join('');
}
