/** `run-tests plan` for node:test: the module graph of the test files and of what node
 * loads before them (the script's --require, --import, --loader, and NODE_OPTIONS'),
 * docs/runners/node-test.md. */
import { nodeChanges } from '../../ecosystems/node/changes.js';
import { packageJson, testScript } from '../../ecosystems/node/project.js';
import { preloadedFiles } from '../../ecosystems/node/preloads.js';
import { scriptEnv } from '../../ecosystems/node/units.js';

export const nodeTestChanges = nodeChanges({
  runner: 'node-test',
  resolvesAliases: false,
  async facts(request) {
    const script = testScript(packageJson(request.facts) ?? {});
    return { setup: preloadedFiles(request.root, script.runner === 'node-test' ? script.nodeArgs : [], scriptEnv(request, 'node-test')), related: null };
  },
});
