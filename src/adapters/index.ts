import { cargo } from './cargo.js';
import { go } from './go.js';
import { jest } from './jest.js';
import { minitest } from './minitest.js';
import { mocha } from './mocha.js';
import { nodeTest } from './node-test.js';
import { pytest } from './pytest.js';
import { rails } from './rails.js';
import { rspec } from './rspec.js';
import { vitest } from './vitest.js';
import type { Adapter } from './types.js';

/** In detection order: the first adapter whose detect() gives a reason wins. The
 * JavaScript runners choose among themselves in node.ts (dependency, config file,
 * scripts.test), and only claim a project with such evidence; minitest's Gemfile or
 * Rakefile is the weakest sign, so it comes last. */
export const ADAPTERS: readonly Adapter[] = [rails, rspec, vitest, jest, mocha, nodeTest, go, cargo, pytest, minitest];

export const adapterById = (id: string): Adapter | undefined => ADAPTERS.find((a) => a.id === id);

/** Every file that marks a project root for some runner. */
export const ROOT_MARKERS: readonly string[] = [...new Set(ADAPTERS.flatMap((a) => a.markers))];
