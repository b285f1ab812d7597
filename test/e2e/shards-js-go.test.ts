/** Issue 23's definition of done on jest, vitest and go (test/e2e/shards-check.ts). */
import { describeShards } from './shards-check.js';

describeShards(['jest', 'vitest', 'go']);
