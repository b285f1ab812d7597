/** Issue 23's definition of done on minitest, rspec and pytest (test/e2e/shards-check.ts). */
import { describeShards } from './shards-check.js';

describeShards(['minitest', 'rspec', 'pytest']);
