import { runOnce, verify } from './command.js';
import { median } from './stats.js';

/**
 * Times A against B: one warm-up run each, then `runs` pairs, alternating which goes
 * first, so drift on a noisy machine hits both sides. The ratio is the median of the
 * per-pair ratios A/B, which is steadier than the ratio of the medians.
 */
export async function compareTimes(a, b, { runs, log = () => {} }) {
  verify(a, await runOnce(a));
  verify(b, await runOnce(b));
  const times = { a: [], b: [] };
  const ratios = [];
  for (let i = 0; i < runs; i += 1) {
    const order = i % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    const pair = {};
    for (const side of order) pair[side] = verify(side === 'a' ? a : b, await runOnce(side === 'a' ? a : b)).ms;
    times.a.push(pair.a);
    times.b.push(pair.b);
    ratios.push(pair.a / pair.b);
    log(`  ${i + 1}/${runs}: ${pair.a.toFixed(0)} ms vs ${pair.b.toFixed(0)} ms (${(pair.a / pair.b).toFixed(2)}×)`);
  }
  return {
    a: { median: median(times.a), samples: times.a },
    b: { median: median(times.b), samples: times.b },
    ratio: median(ratios),
  };
}
