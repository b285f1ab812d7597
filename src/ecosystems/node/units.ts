/** --shard's units for jest and vitest: the test files the runner itself lists for the
 * run's arguments and selection (jest's --listTests, vitest's list --filesOnly), through
 * the launcher the run goes through (`--list`, which writes them as listed-units.ts
 * reads them). A part runs exactly its files: the launcher selects a path as that file,
 * not as a pattern that other files' paths also match. */
import { usageError } from '../../model/errors.js';
import { listedUnits, reportersDir } from '../listed-units.js';
import type { ShardSupport, UnitsRequest } from '../../runners/types.js';
import { launcherCommand, packageJson, testScript, type LauncherSpec } from './project.js';
import { supportedPackage } from './versions.js';

export function launcherShard(spec: LauncherSpec): ShardSupport {
  return {
    selects: 'files',
    async units(request) {
      supportedPackage(request.facts, spec.runner);
      refuseOwnShard(request, spec.runner);
      const argv = launcherCommand({ ...request, reportersDir: reportersDir(request) }, spec, ['--list'])({ files: request.files, name: null });
      return listedUnits(request.root, { argv, cwd: request.root, env: scriptEnv(request, spec.runner), what: `${spec.runner}'s test files` });
    },
  };
}

/** The environment the run gets: run-tests' own, and the script's assignments when the
 * script runs this runner. */
export function scriptEnv(request: UnitsRequest, runner: string): NodeJS.ProcessEnv {
  const script = testScript(packageJson(request.facts) ?? {});
  return { ...request.env, ...(script.runner === runner ? script.env : {}) };
}

/** The runner's own --shard (in the script or after `--`) would split each part again,
 * by its own hash of the part's files: some tests would run in no shard. */
function refuseOwnShard(request: UnitsRequest, runner: string): void {
  const script = testScript(packageJson(request.facts) ?? {});
  const args = [...(script.runner === runner ? script.args : []), ...(request.runnerArgs ?? [])];
  const own = args.find((arg) => arg === '--shard' || arg.startsWith('--shard='));
  if (own !== undefined) throw usageError(`--shard: ${runner}'s own ${own} (in scripts.test or after --) would split each part again; run-tests deals the files out itself, run it without`);
}
