/** --shard on vitest: the shards together run the full run's tests, each once.
 * The fixture gets more test files in its temp copy, named so that one path is a part
 * of another's: a shard given one must not run the other. */
import { describe, expect, it } from '@jest/globals';
import { expectShardsMatchFullRun, fixture } from './shard-check.js';

describe('--shard on vitest', () => {
  it('runs the full run\'s tests, each in one shard, for 2 and 4 shards; a shard given test/x/a.test.ts does not run test/xx/a.test.ts (vitest\'s own filter would)', async () => {
    const dir = await fixture('vitest-mixed', {
      'test/x/a.test.ts': "import { test } from 'vitest';\ntest('x a', () => {});\n",
      'test/xx/a.test.ts': "import { test, expect } from 'vitest';\ntest('xx a', () => {});\ntest('xx fails', () => expect(1).toBe(2));\n",
    });
    const { units, parts } = await expectShardsMatchFullRun(dir, [2, 4]);
    expect(units).toEqual(['test/broken.test.ts', 'test/math.test.ts', 'test/second.test.ts', 'test/x/a.test.ts', 'test/xx/a.test.ts']);
    // Some shard was given the one without the other (and ran only its own units' tests).
    expect(parts.some((part) => part.includes('test/x/a.test.ts') && !part.includes('test/xx/a.test.ts'))).toBe(true);
  });
});
