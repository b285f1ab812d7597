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

/** In detection order: the first runner whose detect() gives a reason wins. The
 * JavaScript runners choose among themselves (src/ecosystems/node/project.ts: dependency,
 * config file, scripts.test), and only claim a project with such evidence; minitest's
 * Gemfile or Rakefile is the weakest sign, so it comes last. */
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
} satisfies Record<string, Runner>;

export type RunnerId = keyof typeof REGISTRY;

/** The runners in detection order. */
export const RUNNERS: readonly Runner[] = Object.values(REGISTRY);

export const RUNNER_IDS = Object.keys(REGISTRY) as readonly RunnerId[];

export const runnerById = (id: string): Runner | undefined => (Object.hasOwn(REGISTRY, id) ? REGISTRY[id as RunnerId] : undefined);

/** `--command`: a command run-tests does not know, read through the report it names. */
export { customRunner } from './custom/runner.js';

/** Every file that marks a project root for some runner. */
export const ROOT_MARKERS: readonly string[] = [...new Set(RUNNERS.flatMap((r) => r.markers))];
