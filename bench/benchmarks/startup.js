import os from 'node:os';
import { bareNode, runTests } from '../lib/commands.js';
import { describeProfile, profileCommand } from '../lib/cpu-profile.js';
import { timeFigure } from '../lib/figure.js';
import { copyFixture } from '../lib/fixtures.js';
import { compareTimes } from '../lib/measure.js';

const MAX_RATIO = 1.6;
/** A start-up takes a tenth of a second, so more pairs cost little and steady the median. */
const PAIRS_PER_RUN = 3;

export const startup = {
  name: 'startup',
  title: 'start-up against `node -e 0`',
  async run({ runs, log }) {
    const project = copyFixture('minitest-mixed');
    const outside = os.tmpdir(); // started outside the project, so --cwd has to do its job
    const node = bareNode(outside);
    const version = runTests(['--version'], { cwd: outside, label: 'run-tests --version', expectOutput: /^\d+\.\d+\.\d+/ });
    const detect = runTests(['detect', '--cwd', project], {
      cwd: outside,
      label: 'run-tests detect',
      shown: 'bin/run-tests.js detect --cwd <copy of minitest-mixed>',
      expectOutput: /^runner: +minitest$/m,
    });
    const figures = [];
    for (const [title, subject, maxRatio] of [
      ['start-up: --version', version, MAX_RATIO],
      ['start-up: detect (minitest)', detect, MAX_RATIO],
    ]) {
      log(`${title}`);
      const comparison = await compareTimes(subject, node, { runs: runs * PAIRS_PER_RUN, log });
      const result = timeFigure({ benchmark: 'startup', title, a: subject, b: node, comparison, maxRatio });
      // On a miss, say where the time goes rather than leave only a number.
      figures.push(result.pass !== false ? result : { ...result, note: `node --cpu-prof: ${describeProfile(await profileCommand(subject))}` });
    }
    return figures;
  },
};
