import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** The interpreter behind a version manager's `python3` shim, its directory put first on
 * PATH for the whole suite (the workers inherit it): pyenv's shim costs ~0.35 s of CPU at
 * each of the suite's hundreds of Python starts, and no test is about the shim. */
function withoutPythonShim() {
  const ran = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const dir = ran.status === 0 ? path.dirname(ran.stdout.trim()) : null;
  if (dir !== null && !(process.env.PATH ?? '').startsWith(`${dir}:`)) process.env.PATH = `${dir}:${process.env.PATH ?? ''}`;
}
withoutPythonShim();

/** The suite runs offline, so no node it starts needs an extra CA bundle; where the
 * machine sets one (NODE_EXTRA_CA_CERTS), node 20 reads and parses it at every start,
 * ~45 ms of CPU each, over the suite's thousands of node starts. */
delete process.env.NODE_EXTRA_CA_CERTS;

/** No fixture uses a pytest plugin installed beside pytest, and importing those a Python
 * carries can cost more than the tests: pyenv's here (hypothesis, pytest-benchmark) add
 * ~0.75 s of CPU to each of the suite's hundreds of pytest starts. One test in
 * test/e2e/pytest.test.ts runs with them, as users do. */
process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD = '1';

/** Tests are TypeScript transformed by @swc/jest and run as ESM
 * (NODE_OPTIONS=--experimental-vm-modules, set by the npm scripts). */
export default {
  // End-to-end tests mostly wait for the runners they start, which use the CPUs: two
  // workers on a 2-CPU machine took the suite from 10m13s to 6m12s (jest's default there is one).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Fixture projects hold other runners' tests; they run only through run-tests.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/fixtures/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    }],
  },
  testTimeout: 120000,
  // The JSON Schemas' validators, compiled once for every test file (test/support/schemas.ts).
  globalSetup: '<rootDir>/test/support/compile-schemas.js',
};
