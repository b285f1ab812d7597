import { runOnce, verify } from './command.js';
import { median } from './stats.js';

/**
 * Measures A and B `runs` times each, after one warm-up run each, alternating which
 * goes first in each pair so that drift on a noisy machine hits both sides alike.
 * `measure(cmd)` resolves with one sample; returns the samples per side, pair by pair.
 */
export async function alternate(a, b, { runs, measure, describe = String, log = () => {} }) {
  await measure(a);
  await measure(b);
  const samples = { a: [], b: [] };
  for (let i = 0; i < runs; i += 1) {
    const order = i % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const side of order) samples[side].push(await measure(side === 'a' ? a : b));
    log(`  ${i + 1}/${runs}: ${describe(samples.a[i])} vs ${describe(samples.b[i])}`);
  }
  return samples;
}

/** Median of A, median of B and the median of the per-pair ratios A/B (steadier than
 * the ratio of the medians when the machine's speed drifts during the runs). */
export function summarise(aValues, bValues) {
  const ratios = aValues.map((value, i) => value / bValues[i]);
  return { a: { median: median(aValues) }, b: { median: median(bValues) }, ratio: median(ratios) };
}

const wallTime = async (cmd) => verify(cmd, await runOnce(cmd)).ms;

/** Wall times of A against B, in ms. */
export async function compareTimes(a, b, { runs, log }) {
  const samples = await alternate(a, b, { runs, measure: wallTime, describe: (ms) => `${ms.toFixed(0)} ms`, log });
  return summarise(samples.a, samples.b);
}
