// Installs every set of the runner version matrix (scripts/runner-versions.js) that the
// cache does not hold yet, with npm, two at a time; .ci/run calls it before jest, so the
// installs never count against a test's timeout. A set is installed into a temporary
// directory and renamed into place: an interrupted install leaves no half set behind.
//   node scripts/install-runner-versions.js [id...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isInstalled, markInstalled, RUNNER_VERSIONS, versionDir } from './runner-versions.js';

const CONCURRENCY = 2;

function npmInstall(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm install in ${cwd} ended with ${signal ?? `exit ${code}`}`))));
  });
}

async function install(id) {
  const dir = versionDir(id);
  const started = Date.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const { packages } = RUNNER_VERSIONS[id];
  fs.writeFileSync(`${tmp}/package.json`, `${JSON.stringify({ name: `run-tests-${id}`, private: true, dependencies: packages }, null, 2)}\n`);
  await npmInstall(tmp);
  markInstalled(tmp);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  removeOlder(id, dir);
  console.log(`runner versions: ${id} installed in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})`);
}

/** The set's installs under pins it no longer has: nothing reads them again. */
function removeOlder(id, dir) {
  const root = path.dirname(dir);
  const older = new RegExp(`^${id}-[0-9a-f]{12}$`);
  for (const name of fs.readdirSync(root)) {
    if (older.test(name) && path.join(root, name) !== dir) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

const asked = process.argv.slice(2);
const unknown = asked.filter((id) => !(id in RUNNER_VERSIONS));
if (unknown.length > 0) {
  console.error(`unknown runner version set: ${unknown.join(', ')} (known: ${Object.keys(RUNNER_VERSIONS).join(', ')})`);
  process.exit(2);
}
const missing = (asked.length > 0 ? asked : Object.keys(RUNNER_VERSIONS)).filter((id) => !isInstalled(id));
const queue = [...missing];
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) await install(id);
}));
console.log(`runner versions: ${missing.length === 0 ? 'all cached' : `${missing.length} installed`}`);
