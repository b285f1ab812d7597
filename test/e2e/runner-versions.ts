import fs from 'fs-extra';
import path from 'node:path';
import { isInstalled, RUNNER_VERSIONS, versionDir, type RunnerVersion } from '../../scripts/runner-versions.js';
import { copyFixture } from './helpers.js';

/** The version matrix's sets of one runner ("jest-29", …) that are installed in the cache
 * (scripts/install-runner-versions.js, which .ci/run calls before jest). In CI a missing
 * set fails the suite; elsewhere its tests are skipped with a notice. */
export function installedSets(runner: RunnerVersion['runner']): string[] {
  const ids = Object.keys(RUNNER_VERSIONS).filter((id) => RUNNER_VERSIONS[id]?.runner === runner);
  const missing = ids.filter((id) => !isInstalled(id));
  const hint = `node scripts/install-runner-versions.js ${missing.join(' ')}`;
  if (missing.length > 0 && process.env.CI) throw new Error(`runner versions missing in CI: ${missing.join(', ')} (run ${hint})`);
  if (missing.length > 0) console.warn(`skipping runner versions ${missing.join(', ')}: not installed (run ${hint})`);
  return ids.filter((id) => !missing.includes(id));
}

/** A temp copy of a fixture project whose node_modules is the cached install of one set. */
export async function versionFixture(fixture: string, id: string): Promise<string> {
  const dir = await copyFixture(fixture);
  await fs.symlink(path.join(versionDir(id), 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** A set's pinned packages, each with the version its installed package.json says. */
export const installedPackages = (id: string): Record<string, string> =>
  Object.fromEntries(Object.keys(RUNNER_VERSIONS[id]?.packages ?? {}).map((name) => [
    name,
    (fs.readJsonSync(path.join(versionDir(id), 'node_modules', name, 'package.json')) as { version: string }).version,
  ]));

