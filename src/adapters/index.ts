import { minitest } from './minitest.js';
import { rails } from './rails.js';
import { rspec } from './rspec.js';
import type { Adapter } from './types.js';

/** In detection order: the first adapter whose detect() gives a reason wins. */
export const ADAPTERS: readonly Adapter[] = [rails, rspec, minitest];

export const adapterById = (id: string): Adapter | undefined => ADAPTERS.find((a) => a.id === id);

/** Every file that marks a project root for some runner. */
export const ROOT_MARKERS: readonly string[] = [...new Set(ADAPTERS.flatMap((a) => a.markers))];
