/** Issue 31's --retries on rspec, minitest and rails (test/e2e/retries-support.ts). */
import { describeRetries } from './retries-support.js';

describeRetries([
  {
    runner: 'rspec',
    tools: ['ruby', 'bundle', 'rspec'],
    flakyFile: 'spec/flaky_spec.rb',
    flaky: ['Flaky fails on its first run only', 'spec/flaky_spec.rb', 16],
    failing: ['Broken always fails', 'spec/fails_spec.rb', 3, 'failed'],
  },
  {
    runner: 'minitest',
    tools: ['ruby', 'bundle', 'rake'],
    flakyFile: 'test/flaky_test.rb',
    flaky: ['FlakyTest#test_fails_on_its_first_run_only', 'test/flaky_test.rb', 16],
    failing: ['BrokenTest#test_always_fails', 'test/fails_test.rb', 5, 'failed'],
  },
  {
    runner: 'rails',
    tools: ['ruby', 'bundle'],
    flakyFile: 'test/models/flaky_test.rb',
    flaky: ['FlakyTest#test_fails_on_its_first_run_only', 'test/models/flaky_test.rb', 16],
    failing: ['BrokenTest#test_always_fails', 'test/models/fails_test.rb', 5, 'failed'],
  },
]);
