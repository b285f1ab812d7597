import { VITEST_NAME_SEPARATOR } from './events.js';
import { chooseNodeRunner, launcherInvocation, NODE_INSTALL_HINT, nodeDetectionMiss, type LauncherSpec } from '../../ecosystems/node/project.js';
import { launcherShard } from '../../ecosystems/node/units.js';
import { supportedPackage } from '../../ecosystems/node/versions.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { jsTestsAt } from '../../ecosystems/node/defined-tests.js';
import { testId } from '../../ecosystems/node/jest-vitest-events.js';
import { refusedOption } from '../../project/runner-args.js';
import { launcherChanges } from '../../ecosystems/node/runner-graph.js';

/** Options that replace the reporter run-tests reads, or after which vitest never ends or runs no test. */
const REFUSED: Readonly<Record<string, string>> = {
  '--reporter': 'it replaces the reporter run-tests reads the results from',
  '--watch': 'it never ends',
  '-w': 'it is --watch, which never ends',
  '--ui': 'it serves a UI and never ends',
  '--standalone': 'it starts without running tests and never ends',
  '--help': 'it prints help and runs no test',
  '-h': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
  '-v': 'it prints the version and runs no test',
};

const LAUNCHER: LauncherSpec = { runner: 'vitest', launcher: 'launch.mjs', nameSeparator: VITEST_NAME_SEPARATOR, parser: 'vitest', bin: 'vitest.mjs' };

export const vitest: Runner = {
  id: 'vitest',
  parsers: { vitest: { load: async () => (await import('./events.js')).createVitestParser } },
  markers: ['package.json'],
  lookingFor: 'vitest in package.json (dependencies or scripts.test) or a vitest.config.* file',
  installHint: NODE_INSTALL_HINT,

  detect(facts) {
    const choice = chooseNodeRunner(facts);
    return choice?.id === 'vitest' ? `${choice.reason}: the project's own vitest (\`vitest run\`), through run-tests' launcher` : null;
  },

  unmatched: nodeDetectionMiss,

  /** The project's vitest from the nearest node_modules, started by
   * reporters/vitest/launch.mjs as `vitest run` with scripts.test's node flags,
   * environment and vitest arguments, plus our reporter. */
  plan(request: PlanRequest): Invocation {
    supportedPackage(request.facts, 'vitest');
    return launcherInvocation(request, LAUNCHER);
  },

  refusedArgument: (args) => refusedOption('vitest', args, REFUSED),

  /** The tests defined at the line, run by their exact full names in their file. */
  testsAt(file, at, facts) {
    const tests = jsTestsAt('vitest', file, at, facts.read(file)).map((chain) => chain.map((block) => block.name).join(VITEST_NAME_SEPARATOR));
    return { tests: tests.map((name) => ({ id: testId(file, name), test_name: name, file, line: null, status: 'failed' as const, message: '' })) };
  },

  /** --shard: test files, as vitest list --filesOnly lists them (docs/runners/vitest.md). */
  shard: launcherShard(LAUNCHER),
  /** run-tests plan: the module graph with vitest related (docs/runners/vitest.md). */
  changes: launcherChanges(LAUNCHER),
};
