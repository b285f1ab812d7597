import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { command } from './command.js';
import { tempDir } from './fixtures.js';

const bin = new URL('../../bin/run-tests.js', import.meta.url).pathname;

/**
 * The runner command as run-tests plans it for `root` (argv and environment, its
 * reporter included), taken from `run-tests detect --json` so the bench never copies
 * an adapter's knowledge. Timed without run-tests around it, it shows what the
 * reporter costs. Its report goes to a scratch file, never to the project's .run-tests/.
 */
export async function plannedRunner(root, spec) {
  const plan = JSON.parse(execFileSync(process.execPath, [bin, 'detect', '--json', '--cwd', root], { encoding: 'utf8' }));
  const scratch = tempDir('reporter-out');
  fs.mkdirSync(scratch, { recursive: true });
  const env = { ...process.env, ...plan.env.set };
  for (const key of plan.env.unset) delete env[key];
  for (const key of Object.keys(env)) {
    if (key.startsWith('RUN_TESTS_') && key.endsWith('_REPORT')) env[key] = `${scratch}/report`;
  }
  // A report named on the command line (the jest launcher's --report) goes there too.
  const artifacts = `${plan.project_root}/.run-tests/`;
  const argv = plan.argv.map((arg) => (arg.startsWith(artifacts) ? `${scratch}/${arg.slice(artifacts.length)}` : arg));
  // Such a report is in the run's own directory (runs/<id>/), which run-tests makes.
  for (const arg of argv) if (arg.startsWith(`${scratch}/`)) fs.mkdirSync(path.dirname(arg), { recursive: true });
  return command({ ...spec, argv, cwd: root, env, shown: `${plan.argv.join(' ')}, with run-tests' reporter env` });
}
