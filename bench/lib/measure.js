import { runOnce, verify } from './command.js';
import { median } from './stats.js';

/**
 * Measures each command `runs` times, after one warm-up run each. Every round runs all
 * of them, starting one further along each time (for two: AB, BA, AB, …), so drift on a
 * noisy machine hits every side alike. `measure(cmd)` resolves with one sample; returns
 * one list of samples per command, in round order.
 */
export async function alternate(cmds, { runs, measure, describe = String, log = () => {} }) {
  for (const cmd of cmds) await measure(cmd);
  const samples = cmds.map(() => []);
  for (let round = 0; round < runs; round += 1) {
    for (let k = 0; k < cmds.length; k += 1) {
      const i = (round + k) % cmds.length;
      samples[i].push(await measure(cmds[i]));
    }
    log(`  ${round + 1}/${runs}: ${samples.map((s) => describe(s[round])).join(' vs ')}`);
  }
  return samples;
}

/** Median of A, median of B, the median of the per-round ratios A/B and of the per-round
 * differences A - B (steadier than the ratio or difference of the medians when the
 * machine's speed drifts during the runs). */
export function summarise(aValues, bValues) {
  const ratios = aValues.map((value, i) => value / bValues[i]);
  const added = median(aValues.map((value, i) => value - bValues[i]));
  return { a: { median: median(aValues) }, b: { median: median(bValues) }, ratio: median(ratios), added, runs: ratios.length };
}

const wallTime = async (cmd) => verify(cmd, await runOnce(cmd)).ms;

/** Wall times in ms of several commands, alternated; one list per command. */
export function wallTimes(cmds, { runs, log }) {
  return alternate(cmds, { runs, measure: wallTime, describe: (ms) => `${ms.toFixed(0)} ms`, log });
}

/** Wall times of A against B. */
export async function compareTimes(a, b, { runs, log }) {
  const [aTimes, bTimes] = await wallTimes([a, b], { runs, log });
  return summarise(aTimes, bTimes);
}
