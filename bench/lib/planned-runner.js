import fs from 'node:fs';
import { command } from './command.js';
import { tempDir } from './fixtures.js';

const dist = (file) => import(new URL(`../../dist/${file}`, import.meta.url).href);
const reportersDir = new URL('../../reporters', import.meta.url).pathname;

/**
 * The runner command as run-tests plans it for `root` (argv and environment, its
 * reporter included), taken from the built adapter so the bench never copies its
 * knowledge. Timed without run-tests around it, it shows what the reporter costs.
 * Its report goes to a scratch directory, never to the project's .run-tests/.
 */
export async function plannedRunner(root, spec) {
  const [{ readProjectFacts }, { detectRunner }, { artifactPaths }] = await Promise.all([
    dist('detect/facts.js'),
    dist('detect/detect.js'),
    dist('store/artifacts.js'),
  ]);
  const facts = readProjectFacts(root);
  const { adapter } = detectRunner(facts, null);
  const artifacts = artifactPaths(tempDir('reporter-out'));
  fs.mkdirSync(artifacts.dir, { recursive: true });
  const plan = adapter.plan({ root, facts, files: [], name: null, rerun: null, artifacts, env: process.env, reportersDir });
  return command({ ...spec, argv: plan.argv, cwd: plan.cwd, env: plan.env, shown: `${plan.argv.join(' ')}, with run-tests' reporter env` });
}
