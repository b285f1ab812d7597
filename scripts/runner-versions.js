// The runner versions of the e2e version matrix (test/fixtures/runner-versions.json) and
// where each set is installed: a cache outside the repository, keyed by the set's exact
// packages, so a set is installed once per machine and reused by every run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TABLE = new URL('../test/fixtures/runner-versions.json', import.meta.url);
/** Written last into a set's directory: a set without it is not (fully) installed. */
const MARKER = 'run-tests-installed';

/** id ("mocha-12") -> { runner, packages: { name: exact version } }. */
export const RUNNER_VERSIONS = Object.fromEntries(
  Object.entries(JSON.parse(fs.readFileSync(TABLE, 'utf8'))).filter(([id]) => id !== '//'),
);

export const cacheRoot = () =>
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'run-tests-fixtures');

/** The set's directory: its id and a hash of its packages, so a changed pin is a new set. */
export function versionDir(id) {
  const { packages } = RUNNER_VERSIONS[id];
  const spec = Object.keys(packages).sort().map((name) => `${name}@${packages[name]}`).join(' ');
  const hash = crypto.createHash('sha256').update(spec).digest('hex').slice(0, 12);
  return path.join(cacheRoot(), `${id}-${hash}`);
}

export const isInstalled = (id) => fs.existsSync(path.join(versionDir(id), MARKER));

export const markInstalled = (dir) => fs.writeFileSync(path.join(dir, MARKER), `${new Date().toISOString()}\n`);
