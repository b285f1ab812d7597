import os from 'node:os';

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
};
