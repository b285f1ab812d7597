import path from 'node:path';
import { command } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { timeFigure } from '../lib/figure.js';
import { JEST_WORK_BODY, jestSuite } from '../lib/fixtures.js';
import { summarise, wallTimes } from '../lib/measure.js';
import { plannedRunner } from '../lib/planned-runner.js';
import { LONG_SUITE } from '../lib/targets.js';

/** run-tests against the runner run by hand, for the jest adapter (go's are in go.js):
 * one figure per suite, each the median of per-round ratios, split like the minitest
 * figures into the runner side (the command run-tests plans, timed without run-tests)
 * and the node side. */
function cases() {
  return [
    // jest's own start makes even 500 trivial tests a suite of more than 2 seconds.
    ...jestCases('20 files, 500 tests', jestSuite(20, 25), LONG_SUITE),
    ...jestCases('20 files, 500 tests of ~1 ms work', jestSuite(20, 25, JEST_WORK_BODY), LONG_SUITE),
  ];
}

function jestCases(what, jest, target) {
  return [
    {
      benchmark: 'jest',
      title: `jest overhead: ${what}`,
      target,
      ours: runTests(['--cwd', jest], { cwd: jest, label: 'run-tests', shown: 'bin/run-tests.js --cwd <generated jest project>', expectOutput: /\b500 passed, 0 failed, 0 errors, 0 skipped\b/ }),
      theirs: command({ label: 'jest', argv: [path.join(jest, 'node_modules/.bin/jest')], cwd: jest, shown: 'node_modules/.bin/jest', expectOutput: null }),
      dir: jest,
      planned: { label: 'planned jest launcher', expectOutput: null },
    },
  ];
}

export const runnerOverhead = {
  name: 'runners',
  title: 'run-tests against jest by hand',
  async run({ runs, log }) {
    const figures = [];
    for (const c of cases()) {
      log(`${c.title} (run-tests vs by hand vs the planned command)`);
      const planned = await plannedRunner(c.dir, c.planned);
      const [a, b, p] = await wallTimes([c.ours, c.theirs, planned], { runs, log });
      const figure = (title, x, y, xs, ys, target = {}) => timeFigure({ benchmark: c.benchmark, title, a: x, b: y, comparison: summarise(xs, ys), ...target });
      figures.push(
        figure(c.title, c.ours, c.theirs, a, b, c.target),
        figure(`${c.title}, runner side (the planned command)`, planned, c.theirs, p, b),
        figure(`${c.title}, node side`, c.ours, planned, a, p),
      );
    }
    return figures;
  },
};
