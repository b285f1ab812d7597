/** Tests are TypeScript transformed by @swc/jest and run as ESM
 * (NODE_OPTIONS=--experimental-vm-modules, set by the npm scripts). */
export default {
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
