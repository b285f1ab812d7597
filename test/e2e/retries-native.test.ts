/** Issue 31's --retries on go, cargo, pytest and unittest (test/e2e/retries-support.ts). */
import { afterAll } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { describeRetries } from './retries-support.js';

/** One target directory for every cargo copy of this file, removed at its end. */
const CARGO_TARGET_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-retries-cargo-'));
afterAll(() => fs.remove(CARGO_TARGET_DIR));

describeRetries([
  {
    runner: 'go',
    tools: ['go'],
    env: { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' },
    flakyFile: 'flaky_test.go',
    flaky: ['TestFlaky', 'flaky_test.go', 29],
    failing: ['TestAlwaysFails', 'fails_test.go', 7, 'failed'],
  },
  {
    runner: 'cargo',
    tools: ['cargo'],
    env: { CARGO_TARGET_DIR, RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' },
    flakyFile: 'tests/flaky.rs',
    flaky: ['integration tests/flaky.rs: fails_on_its_first_run_only', 'tests/flaky.rs', 19],
    failing: ['integration tests/fails.rs: always_fails', 'tests/fails.rs', 3, 'failed'],
  },
  {
    runner: 'pytest',
    tools: ['python3', 'pytest-3'],
    flakyFile: 'tests/test_flaky.py',
    flaky: ['tests/test_flaky.py::test_fails_on_its_first_run_only', 'tests/test_flaky.py', 16],
    failing: ['tests/test_fails.py::test_always_fails', 'tests/test_fails.py', 2, 'failed'],
  },
  {
    runner: 'unittest',
    tools: ['python3'],
    flakyFile: 'tests/test_flaky.py',
    flaky: ['tests.test_flaky.FlakyTest.test_fails_on_its_first_run_only', 'tests/test_flaky.py', 17],
    failing: ['tests.test_fails.BrokenTest.test_always_fails', 'tests/test_fails.py', 6, 'failed'],
  },
]);

