/** The registry: every runner run-tests knows, by id. `--runner`, `--help`, the "no
 * runner" message and the README's runner table (kept in step by a test) come from it. */
import { cargo } from './cargo/runner.js';
import { go } from './go/runner.js';
import { jest } from './jest/runner.js';
import { minitest } from './minitest/runner.js';
import { mocha } from './mocha/runner.js';
import { nodeTest } from './node-test/runner.js';
import { pytest } from './pytest/runner.js';
import { rails } from './rails/runner.js';
import { rspec } from './rspec/runner.js';
import { unittest } from './unittest/runner.js';
import { vitest } from './vitest/runner.js';
import type { Runner } from './types.js';
import { RUNNER_IDS, type RunnerId } from './ids.js';

/** Each runner by id; ./ids.ts holds the ids in detection order. */
const REGISTRY = {
  rails,
  rspec,
  vitest,
  jest,
  mocha,
  'node-test': nodeTest,
  go,
  cargo,
  unittest,
  pytest,
  minitest,
} satisfies Record<RunnerId, Runner>;

export { RUNNER_IDS, type RunnerId };

/** The runners in detection order. */
export const RUNNERS: readonly Runner[] = RUNNER_IDS.map((id) => REGISTRY[id]);

export const runnerById = (id: string): Runner | undefined => (Object.hasOwn(REGISTRY, id) ? REGISTRY[id as RunnerId] : undefined);

/** `--command`: a command run-tests does not know, read through the report it names. */
export { customRunner } from './custom/runner.js';

/** Every file that marks a project root for some runner. */
export const ROOT_MARKERS: readonly string[] = [...new Set(RUNNERS.flatMap((r) => r.markers))];
