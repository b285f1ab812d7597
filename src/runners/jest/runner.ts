import { JEST_NAME_SEPARATOR } from './events.js';
import { chooseNodeRunner, launcherInvocation, NODE_INSTALL_HINT, nodeDetectionMiss, type LauncherSpec } from '../../ecosystems/node/project.js';
import { launcherShard } from '../../ecosystems/node/units.js';
import { supportedPackage } from '../../ecosystems/node/versions.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { jsTestsAt } from '../../ecosystems/node/defined-tests.js';
import { testId } from '../../ecosystems/node/jest-vitest-events.js';
import { refusedOption } from '../../project/runner-args.js';
import { launcherChanges } from '../../ecosystems/node/runner-graph.js';

/** Options that replace the reporter run-tests reads, or after which jest runs no test. */
const REFUSED: Readonly<Record<string, string>> = {
  '--reporters': 'it replaces the reporter run-tests reads the results from',
  '--watch': 'it never ends',
  '--watchAll': 'it never ends',
  '--listTests': 'it lists the test files and runs none',
  '--showConfig': 'it prints the configuration and runs no test',
  '--clearCache': 'it clears the cache and runs no test',
  '--help': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
};

const LAUNCHER: LauncherSpec = { runner: 'jest', launcher: 'launch.cjs', nameSeparator: JEST_NAME_SEPARATOR, parser: 'jest', bin: 'bin/jest.js' };

export const jest: Runner = {
  id: 'jest',
  parsers: {
    jest: { load: async () => (await import('./events.js')).createJestParser },
    'jest-json': { load: async () => (await import('./json.js')).createJestJsonParser },
  },
  markers: ['package.json'],
  lookingFor: 'jest in package.json (dependencies, a "jest" section or scripts.test) or a jest.config.* file',
  installHint: NODE_INSTALL_HINT,

  detect(facts) {
    const choice = chooseNodeRunner(facts);
    return choice?.id === 'jest' ? `${choice.reason}: the project's own jest, through run-tests' launcher` : null;
  },

  unmatched: nodeDetectionMiss,

  /** The project's jest from the nearest node_modules, started by reporters/jest/launch.cjs
   * with scripts.test's node flags, environment and jest arguments, plus our reporter. */
  plan(request: PlanRequest): Invocation {
    supportedPackage(request.facts, 'jest');
    return launcherInvocation(request, LAUNCHER);
  },

  refusedArgument: (args) => refusedOption('jest', args, REFUSED),

  /** The tests defined at the line, run by their exact full names in their file. */
  testsAt(file, at, facts) {
    const tests = jsTestsAt('jest', file, at, facts.read(file)).map((chain) => chain.map((block) => block.name).join(JEST_NAME_SEPARATOR));
    return { tests: tests.map((name) => ({ id: testId(file, name), test_name: name, file, line: null, status: 'failed' as const, message: '' })) };
  },

  /** --shard: test files, as jest --listTests lists them (docs/runners/jest.md). */
  shard: launcherShard(LAUNCHER),
  /** run-tests plan: the module graph with jest --findRelatedTests (docs/runners/jest.md). */
  changes: launcherChanges(LAUNCHER),
};
