import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { floodProject } from '../lib/fixtures.js';
import { alternate, summarise } from '../lib/measure.js';
import { peakRss } from '../lib/rss.js';
import { median } from '../lib/stats.js';

// Both above the default 64 MiB --max-log: the log keeps a bounded tail in memory once
// output passes half the cap, so memory must be flat from there on, whatever the size.
const SMALL_MB = 100;
const LARGE_MB = 300;
const MAX_SELF_MIB = 200;
/** Three times the output may cost a little more memory, never in proportion. */
const MAX_GROWTH = 1.25;

function floodRun(megabytes) {
  const cwd = floodProject(megabytes);
  return runTests(['--cwd', cwd], {
    cwd,
    label: `run-tests, ${megabytes} MB on stdout`,
    // Through node: peakRss preloads its RSS hook with node --import.
    throughNode: true,
    shown: `node bin/run-tests.js --cwd <project printing ${megabytes} MB>`,
    expectOutput: /\b1 passed, 0 failed, 0 errors, 0 skipped\b/,
  });
}

const side = (cmd, value) => ({ label: cmd.label, shown: cmd.shown, median: value, unit: 'MiB' });

/** One RSS measure (`key` of `peakRss`) of the large flood against the small one. */
function growthFigure(title, key, runs, maxRatio = null) {
  const { large, small } = runs;
  const summary = summarise(large.samples.map((s) => s[key]), small.samples.map((s) => s[key]));
  return figure({
    benchmark: 'flood',
    title,
    a: side(large.cmd, summary.a.median),
    b: side(small.cmd, summary.b.median),
    result: { value: summary.ratio, unit: '×' },
    target: maxRatio === null ? null : { max: maxRatio, unit: '×' },
    runs: summary.runs,
  });
}

export const floodMemory = {
  name: 'flood',
  title: `peak RSS while a test prints ${LARGE_MB} MB (and ${SMALL_MB} MB) to stdout`,
  async run({ runs, log }) {
    const large = floodRun(LARGE_MB);
    const small = floodRun(SMALL_MB);
    log(`flood: ${LARGE_MB} MB against ${SMALL_MB} MB`);
    const describe = (s) => `node ${s.self.toFixed(0)} MiB, largest ${s.largest.toFixed(0)} MiB, tree ${s.treeSum.toFixed(0)} MiB`;
    const [largeSamples, smallSamples] = await alternate([large, small], { runs, measure: peakRss, describe, log });
    const measured = { large: { cmd: large, samples: largeSamples }, small: { cmd: small, samples: smallSamples } };
    const selfPeak = median(largeSamples.map((s) => s.self));
    return [
      figure({
        benchmark: 'flood',
        title: `node peak RSS, ${LARGE_MB} MB flood`,
        a: side(large, selfPeak),
        result: { value: selfPeak, unit: 'MiB' },
        target: { max: MAX_SELF_MIB, unit: 'MiB' },
        runs: largeSamples.length,
      }),
      growthFigure(`node peak RSS growth, ${SMALL_MB} → ${LARGE_MB} MB`, 'self', measured, MAX_GROWTH),
      growthFigure('largest process in tree (time -v)', 'largest', measured),
      growthFigure('whole tree, summed (sampled /proc)', 'treeSum', measured),
    ];
  },
};
