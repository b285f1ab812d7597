import path from 'node:path';
import { command } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { timeFigure } from '../lib/figure.js';
import { GO_WORK_BODY, goSuite, JEST_WORK_BODY, jestSuite } from '../lib/fixtures.js';
import { summarise, wallTimes } from '../lib/measure.js';
import { plannedRunner } from '../lib/planned-runner.js';
import { LONG_SUITE, TRIVIAL_SUITE } from '../lib/targets.js';

/** run-tests against the runner run by hand, for the Go and jest adapters: one figure
 * per suite, each the median of per-round ratios, split like the minitest figures into
 * the runner side (the command run-tests plans, timed without run-tests: for go the
 * same command as by hand, so that row shows the noise) and the node side. */
function cases() {
  return [
    ...goCases('5 packages, 1,000 tests', goSuite(5, 200), 1000, TRIVIAL_SUITE),
    // The same module ten times larger: the ratio must hold as a suite grows.
    ...goCases('5 packages, 10,000 tests', goSuite(5, 2000), 10000, LONG_SUITE),
    ...goCases('5 packages, 1,000 tests of ~1 ms work', goSuite(5, 200, GO_WORK_BODY), 1000, LONG_SUITE),
    // jest's own start makes even 500 trivial tests a suite of more than 2 seconds.
    ...jestCases('20 files, 500 tests', jestSuite(20, 25), LONG_SUITE),
    ...jestCases('20 files, 500 tests of ~1 ms work', jestSuite(20, 25, JEST_WORK_BODY), LONG_SUITE),
  ];
}

function goCases(what, go, tests, target) {
  // By hand, the last line is the pass of the package that finished last, in any order.
  return [
    {
      benchmark: 'go',
      title: `go overhead: ${what}`,
      target,
      ours: runTests(['--cwd', go], { cwd: go, label: 'run-tests', shown: 'bin/run-tests.js --cwd <generated go module>', expectOutput: new RegExp(`\\b${tests} passed, 0 failed, 0 errors, 0 skipped\\b`) }),
      theirs: command({ label: 'go test -json', argv: ['go', 'test', '-json', '-count=1', './...'], cwd: go, shown: 'go test -json -count=1 ./...', expectOutput: /"Action":"pass","Package":"example.com\/bench\/p\d","Elapsed"/ }),
      dir: go,
      planned: { label: 'planned go test', expectOutput: /"Action":"pass","Package":"example.com\/bench\/p\d","Elapsed"/ },
    },
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
  title: 'run-tests against go test and jest by hand',
  async run({ runs, log }) {
    // run-tests uses go's test cache, which would answer every round after the first:
    // each go command here (run-tests, by hand, planned) runs its tests afresh.
    process.env.GOFLAGS = '-count=1';
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
