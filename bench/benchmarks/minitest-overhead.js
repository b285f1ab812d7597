import { handRake, runTests } from '../lib/commands.js';
import { timeFigure } from '../lib/figure.js';
import { copyFixture, generatedSuite, WORK_BODY } from '../lib/fixtures.js';
import { summarise, wallTimes } from '../lib/measure.js';
import { plannedRunner } from '../lib/planned-runner.js';
import { LONG_SUITE, TRIVIAL_SUITE } from '../lib/targets.js';

const GENERATED_SIZES = [1000, 10000];

/** The suites compared, each with the summary lines that prove every side ran all of it. */
function suites() {
  const mixed = {
    title: 'minitest-mixed',
    cwd: copyFixture('minitest-mixed'),
    where: '<copy of test/fixtures/projects/minitest-mixed>',
    target: TRIVIAL_SUITE,
    // The fixture has a failure and an error: every command exits 1 by design.
    ours: { expectCode: 1, expectOutput: /\b5 passed, 1 failed, 1 errors, 1 skipped\b/ },
    theirs: { expectCode: 1, expectOutput: /\b8 runs, \d+ assertions, 1 failures, 1 errors, 1 skips\b/ },
  };
  const generated = GENERATED_SIZES.map((n) => ({
    title: `${n.toLocaleString('en')} generated tests`,
    cwd: generatedSuite(n),
    where: `<generated suite of ${n} tests>`,
    target: TRIVIAL_SUITE,
    ours: { expectOutput: new RegExp(`\\b${n} passed, 0 failed, 0 errors, 0 skipped\\b`) },
    theirs: { expectOutput: new RegExp(`\\b${n} runs, ${n} assertions, 0 failures, 0 errors, 0 skips\\b`) },
  }));
  // A suite whose tests do work, as real ones do: the fixed cost of starting node is
  // amortised as it would be on a real project.
  const working = {
    title: '2,000 tests of ~1 ms work',
    cwd: generatedSuite(2000, 10, WORK_BODY),
    where: '<generated suite of 2000 tests doing ~1 ms of work each>',
    target: LONG_SUITE,
    ours: { expectOutput: /\b2000 passed, 0 failed, 0 errors, 0 skipped\b/ },
    theirs: { expectOutput: /\b2000 runs, 2000 assertions, 0 failures, 0 errors, 0 skips\b/ },
  };
  return [mixed, ...generated, working];
}

/** Times run-tests (A), rake by hand (B) and, to split A/B into its Ruby and its node
 * parts, the rake command run-tests plans (C): through its bundler launcher, which
 * saves the second Ruby that `bundle exec` starts for Debian's rake, with the reporter. */
async function measureSuite(suite, { runs, log }) {
  const ours = runTests(['--cwd', suite.cwd], { cwd: suite.cwd, label: 'run-tests', shown: `bin/run-tests.js --cwd ${suite.where}`, ...suite.ours });
  const theirs = handRake(suite.cwd, suite.theirs);
  const planned = await plannedRunner(suite.cwd, { label: 'planned rake', ...suite.theirs });
  log(`minitest overhead: ${suite.title} (run-tests vs rake by hand vs the planned rake command)`);
  const [a, b, c] = await wallTimes([ours, theirs, planned], { runs, log });
  const figure = (title, x, y, xs, ys, target = {}) => timeFigure({ benchmark: 'minitest', title, a: x, b: y, comparison: summarise(xs, ys), ...target });
  return [
    figure(`minitest overhead: ${suite.title}`, ours, theirs, a, b, suite.target),
    figure(`${suite.title}, Ruby side (launcher, reporter)`, planned, theirs, c, b),
    figure(`${suite.title}, node side`, ours, planned, a, c),
  ];
}

export const minitestOverhead = {
  name: 'minitest',
  title: 'run-tests against `bundle exec rake test` by hand',
  async run({ runs, log }) {
    const figures = [];
    for (const suite of suites()) figures.push(...(await measureSuite(suite, { runs, log })));
    return figures;
  },
};
