import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { hasTools, runJson } from './helpers.js';
import { project, runSuggested } from './suggested.js';

/** Each failure's `rerun_argv`, run as given (with the built bin for `run-tests`), reruns
 * exactly that test, for every runner, by its `--id`. */

const DEBIAN = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` };
const shared: NodeJS.ProcessEnv = {};

interface Case {
  readonly fixture: string;
  readonly tools: readonly string[];
  /** Symlink run-tests' own node_modules (its jest, vitest and mocha) into the copy. */
  readonly modules?: boolean;
  readonly env?: () => NodeJS.ProcessEnv;
  /** Failures whose rerun runs more tests than themselves, and how many (a documented limit). */
  readonly wider?: Readonly<Record<string, number>>;
}

const CASES: Record<string, Case> = {
  rails: { fixture: 'rails-app', tools: ['ruby', 'bundle'] },
  rspec: { fixture: 'rspec-mixed', tools: ['ruby', 'bundle', 'rspec'] },
  minitest: { fixture: 'minitest-mixed', tools: ['ruby', 'bundle'] },
  jest: { fixture: 'jest-mixed', tools: ['node'], modules: true },
  vitest: { fixture: 'vitest-mixed', tools: ['node'], modules: true },
  mocha: { fixture: 'mocha-mixed', tools: ['node'], modules: true },
  // node 20 selects a subtest by its outermost test: its sibling runs too (docs/runners/node-test.md).
  'node-test': { fixture: 'node-test-mixed', tools: ['node'], wider: { 'with subtests > second fails': 2 } },
  go: { fixture: 'go-mixed', tools: ['go'], env: () => ({ GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' }) },
  cargo: { fixture: 'cargo-mixed', tools: ['cargo'], env: () => ({ CARGO_TARGET_DIR: shared['CARGO_TARGET_DIR'], RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' }) },
  unittest: { fixture: 'unittest-mixed', tools: ['python3'], env: () => DEBIAN },
  pytest: { fixture: 'pytest-mixed', tools: ['python3', 'pytest-3'], env: () => DEBIAN },
};

beforeAll(async () => {
  shared['CARGO_TARGET_DIR'] = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-target-argv-'));
});
afterAll(async () => {
  await Promise.all([shared['CARGO_TARGET_DIR']].map((dir) => (dir ? fs.remove(dir) : undefined)));
});

describe.each(Object.entries(CASES))('rerun_argv of %s', (runner, c) => {
  (hasTools(...c.tools) ? it : it.skip)('reruns each failure alone, checked by name and file, from another directory', async () => {
    const dir = await project(c.fixture, c.modules);
    const env = c.env?.() ?? {};
    const first = await runJson(['--cwd', dir], { env });
    expect([first.exitCode, first.report.framework]).toEqual([1, runner]);
    const tests = first.report.failed_tests.filter((t) => t.id !== t.file);
    expect(tests.length).toBeGreaterThan(0);
    for (const test of tests) {
      expect(test.rerun_argv).toEqual(['run-tests', '--cwd', dir, `--id=${test.id}`]);
      const { exitCode, report } = await runSuggested(test.rerun_argv, { env });
      const ran: Pick<RunReport, 'status' | 'framework' | 'rerun'> & { run: number | null; failed: unknown } = {
        status: report.status, framework: report.framework, rerun: report.rerun, run: report.summary.run,
        failed: report.failed_tests.map((t) => [t.test_name, t.file, t.id, t.rerun_argv]),
      };
      expect([exitCode, ran]).toEqual([1, {
        status: 'failed', framework: runner, rerun: { selected: 1, not_run: [] }, run: c.wider?.[test.test_name] ?? 1,
        failed: [[test.test_name, test.file, test.id, test.rerun_argv]],
      }]);
      // A narrower run keeps the other recorded failures: --failed-only still has them all.
      expect(report.next).toBe(`run-tests --cwd ${dir} --failed-only`);
    }
  }, 240_000);
});
