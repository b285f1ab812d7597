import { runTests } from '../lib/commands.js';
import { figure } from '../lib/figure.js';
import { floodProject } from '../lib/fixtures.js';
import { alternate, summarise } from '../lib/measure.js';
import { peakRss } from '../lib/rss.js';

const SMALL_MB = 30;
const LARGE_MB = 300;
const MAX_SELF_MB = 200;
/** Ten times the output may cost a little more memory, never in proportion. */
const MAX_GROWTH = 1.25;

function floodRun(megabytes) {
  const cwd = floodProject(megabytes);
  return runTests(['--cwd', cwd], {
    cwd,
    label: `run-tests, ${megabytes} MB on stdout`,
    shown: `node bin/run-tests.js --cwd <project printing ${megabytes} MB>`,
    expectOutput: /\b1 passed, 0 failed, 0 errors, 0 skipped\b/,
  });
}

const side = (cmd, median) => ({ label: cmd.label, shown: cmd.shown, median, unit: 'MiB' });

/** A figure comparing one RSS measure of the large flood against the small one. */
function growthFigure(title, key, large, small, samples, maxRatio = null) {
  const summary = summarise(samples.a.map((s) => s[key]), samples.b.map((s) => s[key]));
  return figure({
    benchmark: 'flood',
    title,
    a: side(large, summary.a.median),
    b: side(small, summary.b.median),
    result: { value: summary.ratio, unit: '×' },
    target: maxRatio === null ? null : { max: maxRatio, unit: '×' },
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
    const samples = { a: largeSamples, b: smallSamples };
    const selfLarge = summarise(samples.a.map((s) => s.self), samples.b.map((s) => s.self));
    return [
      figure({
        benchmark: 'flood',
        title: `node peak RSS, ${LARGE_MB} MB flood`,
        a: side(large, selfLarge.a.median),
        result: { value: selfLarge.a.median, unit: 'MiB' },
        target: { max: MAX_SELF_MB, unit: 'MiB' },
      }),
      growthFigure(`node peak RSS growth, ${SMALL_MB} → ${LARGE_MB} MB`, 'self', large, small, samples, MAX_GROWTH),
      growthFigure('largest process in tree (time -v)', 'largest', large, small, samples),
      growthFigure('whole tree, summed (sampled /proc)', 'treeSum', large, small, samples),
    ];
  },
};
