import { handRake, runTests } from '../lib/commands.js';
import { timeFigure } from '../lib/figure.js';
import { copyFixture, generatedSuite } from '../lib/fixtures.js';
import { compareTimes } from '../lib/measure.js';

const MAX_RATIO = 1.1;
const GENERATED_SIZES = [1000, 10000];

/** The suites compared, each with the summary lines that prove both sides ran all of it. */
function suites() {
  const mixed = {
    title: 'minitest overhead: minitest-mixed',
    cwd: copyFixture('minitest-mixed'),
    where: '<copy of test/fixtures/projects/minitest-mixed>',
    // The fixture has a failure and an error: both commands exit 1 by design.
    ours: { expectCode: 1, expectOutput: /\b5 passed, 1 failed, 1 errors, 1 skipped\b/ },
    theirs: { expectCode: 1, expectOutput: /\b8 runs, \d+ assertions, 1 failures, 1 errors, 1 skips\b/ },
  };
  const generated = GENERATED_SIZES.map((n) => ({
    title: `minitest overhead: ${n.toLocaleString('en')} generated tests`,
    cwd: generatedSuite(n),
    where: `<generated suite of ${n} tests>`,
    ours: { expectOutput: new RegExp(`\\b${n} passed, 0 failed, 0 errors, 0 skipped\\b`) },
    theirs: { expectOutput: new RegExp(`\\b${n} runs, ${n} assertions, 0 failures, 0 errors, 0 skips\\b`) },
  }));
  return [mixed, ...generated];
}

export const minitestOverhead = {
  name: 'minitest',
  title: 'run-tests against `bundle exec rake test` by hand',
  async run({ runs, log }) {
    const figures = [];
    for (const suite of suites()) {
      log(suite.title);
      const ours = runTests(['--cwd', suite.cwd], {
        cwd: suite.cwd,
        label: 'run-tests',
        shown: `node bin/run-tests.js --cwd ${suite.where}`,
        ...suite.ours,
      });
      const theirs = handRake(suite.cwd, suite.theirs);
      const comparison = await compareTimes(ours, theirs, { runs, log });
      figures.push(timeFigure({ benchmark: 'minitest', title: suite.title, a: ours, b: theirs, comparison, maxRatio: MAX_RATIO }));
    }
    return figures;
  },
};
