/** Issue 31's --retries on jest, vitest, mocha and node:test (test/e2e/retries-support.ts). */
import { describeRetries } from './retries-support.js';

describeRetries([
  {
    runner: 'jest',
    tools: [],
    nodeModules: true,
    flakyFile: 'test/flaky.test.js',
    flaky: ['fails on its first run only', 'test/flaky.test.js', 16],
    failing: ['always fails', 'test/fails.test.js', 2, 'failed'],
  },
  {
    runner: 'vitest',
    tools: [],
    nodeModules: true,
    flakyFile: 'test/flaky.test.ts',
    flaky: ['fails on its first run only', 'test/flaky.test.ts', 17],
    failing: ['always fails', 'test/fails.test.ts', 4, 'failed'],
  },
  {
    runner: 'mocha',
    tools: [],
    nodeModules: true,
    flakyFile: 'spec/flaky.spec.js',
    flaky: ['flaky fails on its first run only', 'spec/flaky.spec.js', 18],
    failing: ['broken always fails', 'spec/fails.spec.js', 5, 'failed'],
  },
  {
    runner: 'node-test',
    tools: ['node'],
    flakyFile: 'test/flaky.test.js',
    flaky: ['flaky > fails on its first run only', 'test/flaky.test.js', 19],
    failing: ['broken > always fails', 'test/fails.test.js', 6, 'failed'],
  },
]);
