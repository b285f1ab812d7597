import { scaleLinear } from 'd3-scale';
import type { Partition } from './model.js';
import { chart, duration, rect, text } from './svg.js';

const WIDTH = 640;
const ROW = 22;
const LABEL = 56;
const VALUE = 90;

/** One --shard partition: each part's run time as a bar, on one scale, so an unbalanced
 * part stands out; the title states the slowest part against the mean. */
export function shardsChart(id: string, partition: Partition): string {
  const { parts } = partition;
  const slowest = Math.max(1, ...parts.map((p) => p.duration_ms));
  const mean = parts.reduce((sum, p) => sum + p.duration_ms, 0) / Math.max(1, parts.length);
  const x = scaleLinear().domain([0, slowest]).range([0, WIDTH - LABEL - VALUE]);
  const rows = parts.map((p, i) => {
    const y = i * ROW;
    return text(LABEL - 8, y + 15, `${p.index}/${p.count}`, 'label', 'end')
      + rect(LABEL, y + 3, x(p.duration_ms), ROW - 6, 'shard', `part ${p.index} of ${p.count} (${p.run_id}): ${duration(p.duration_ms)}`)
      + text(LABEL + x(p.duration_ms) + 6, y + 15, duration(p.duration_ms));
  });
  const count = parts[0]?.count ?? parts.length;
  return chart({
    id, width: WIDTH, height: Math.max(1, parts.length) * ROW, cls: 'shards',
    title: `Partition ${partition.partition}: ${parts.length} of ${count} parts`,
    desc: `The slowest part took ${duration(slowest)}, ${mean > 0 ? (slowest / mean).toFixed(2) : '–'} times the mean of ${duration(mean)}.`,
  }, rows.join(''));
}
