import { VITEST_NAME_SEPARATOR } from './events.js';
import { chooseNodeRunner, launcherInvocation, NODE_INSTALL_HINT, nodeDetectionMiss } from '../../ecosystems/node/project.js';
import { supportedPackage } from '../../ecosystems/node/versions.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';

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
    return launcherInvocation(request, { runner: 'vitest', launcher: 'launch.mjs', nameSeparator: VITEST_NAME_SEPARATOR, parser: 'vitest', bin: 'vitest.mjs' });
  },
};
