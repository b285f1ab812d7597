/** --shard's units for jest and vitest: the test files the runner itself lists for the
 * run's arguments and selection (jest's --listTests, vitest's list --filesOnly), through
 * the launcher the run goes through (`--list`, which writes them as listed-units.ts
 * reads them). A part runs exactly its files: the launcher selects a path as that file,
 * not as a pattern that other files' paths also match. */
import { listedUnits, reportersDir } from '../listed-units.js';
import type { ShardSupport, UnitsRequest } from '../../runners/types.js';
import { launcherCommand, packageJson, testScript, type LauncherSpec } from './project.js';
import { supportedPackage } from './versions.js';

export function launcherShard(spec: LauncherSpec): ShardSupport {
  return {
    selects: 'files',
    async units(request) {
      supportedPackage(request.facts, spec.runner);
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
