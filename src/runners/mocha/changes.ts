/** `run-tests plan` for mocha: the module graph of its spec files and of the files every
 * run loads first (--require, --file, node's own preloads), as mocha's CLI reads them from
 * its rc files and the script (docs/runners/mocha.md). */
import { nodeChanges } from '../../ecosystems/node/changes.js';
import { packageJson, testScript } from '../../ecosystems/node/project.js';
import { preloadedFiles } from '../../ecosystems/node/preloads.js';
import { listingAnswer } from '../../ecosystems/node/runner-graph.js';
import { scriptEnv } from '../../ecosystems/node/units.js';
import { reportersDir } from '../../ecosystems/listed-units.js';
import { mochaCommand, mochaFiles } from './command.js';
import path from 'node:path';

export const mochaChanges = nodeChanges({
  runner: 'mocha',
  resolvesAliases: false,
  async facts(request) {
    const script = testScript(packageJson(request.facts) ?? {});
    const env = scriptEnv(request, 'mocha');
    const argv = mochaCommand({ ...request, reportersDir: reportersDir(request) }, ['--list'])({ files: mochaFiles(request), grep: null });
    const answer = await listingAnswer(request, argv, env, "mocha's --require and --file files");
    const setup = (answer.setup ?? []).map((file) => path.relative(request.root, path.resolve(request.root, file)).split(path.sep).join('/'));
    return { setup: [...setup, ...preloadedFiles(request.root, script.runner === 'mocha' ? script.nodeArgs : [], env)], related: null };
  },
});
