import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { Outcome } from '../../model/results.js';
import { chart, duration, outcomeClass, px, rect } from './svg.js';

const SPARK = { width: 360, height: 44, pad: 4 };
const STRIP = { width: 360, height: 16 };

/** One test's duration in each run as a line over the runs (a gap where it did not run),
 * scaled to its own slowest run, which the row states. */
export function durationSparkline(id: string, name: string, durations: readonly (number | null)[]): string {
  const x = scaleLinear().domain([0, Math.max(1, durations.length - 1)]).range([SPARK.pad, SPARK.width - SPARK.pad]);
  const most = Math.max(1, ...durations.map((d) => d ?? 0));
  const y = scaleLinear().domain([0, most]).range([SPARK.height - SPARK.pad, SPARK.pad]);
  const path = line<number | null>().defined((d) => d !== null).x((_, i) => x(i)).y((d) => y(d ?? 0)).digits(1)(durations as (number | null)[]) ?? '';
  const ran = durations.filter((d) => d !== null).length;
  return chart({ id, width: SPARK.width, height: SPARK.height, cls: 'spark', title: `Duration of ${name} across runs`, desc: `${ran} of ${durations.length} runs timed; the slowest took ${duration(most)}.` },
    `<line class="grid" x1="${SPARK.pad}" x2="${SPARK.width - SPARK.pad}" y1="${px(y(0))}" y2="${px(y(0))}"/><path class="duration" d="${path}"/>`);
}

/** One test's outcome in each run as a strip of cells, oldest run first; runs of the same
 * outcome are one cell, so a long history stays small. */
export function outcomeStrip(id: string, name: string, outcomes: readonly (Outcome | null)[]): string {
  const x = scaleBand<number>().domain(outcomes.map((_, i) => i)).range([0, STRIP.width]);
  const cells = spans(outcomes).map(({ from, to, outcome }) => {
    const left = x(from) ?? 0;
    const what = outcome ?? 'not run';
    return rect(left, 0, (x(to) ?? 0) + x.bandwidth() - left, STRIP.height, outcomeClass(outcome), from === to ? `run ${from + 1}: ${what}` : `runs ${from + 1}–${to + 1}: ${what}`);
  });
  const failed = outcomes.filter((o) => o === 'failed' || o === 'error').length;
  const flaky = outcomes.filter((o) => o === 'flaky').length;
  return chart({ id, width: STRIP.width, height: STRIP.height, cls: 'strip', title: `Outcomes of ${name}`, desc: `${outcomes.length} runs, oldest first: ${failed} failed, ${flaky} flaky.` }, cells.join(''));
}

/** Consecutive runs with the same outcome, as index ranges. */
export function spans(outcomes: readonly (Outcome | null)[]): { from: number; to: number; outcome: Outcome | null }[] {
  const out: { from: number; to: number; outcome: Outcome | null }[] = [];
  outcomes.forEach((outcome, i) => {
    const last = out.at(-1);
    if (last !== undefined && last.outcome === outcome) last.to = i;
    else out.push({ from: i, to: i, outcome });
  });
  return out;
}
