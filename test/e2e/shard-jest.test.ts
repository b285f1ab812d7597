/** --shard on jest: the shards together run the full run's tests, each once.
 * The fixture gets more test files in its temp copy, named so that one path is a part
 * of another's: a shard given one must not run the other. */
import { describe, expect, it } from '@jest/globals';
import { expectShardsMatchFullRun, fixture } from './shard-check.js';

describe('--shard on jest', () => {
  it('runs the full run\'s tests, each in one shard, for 2 and 3 shards, a.test.js not with data.test.js', async () => {
    const dir = await fixture('jest-mixed', {
      'test/a.test.js': "test('a', () => {});\n",
      'test/data.test.js': "test('data', () => {});\ntest('data fails', () => { throw new Error('no data'); });\n",
    });
    const { units, parts } = await expectShardsMatchFullRun(dir, [2, 3]);
    expect(units).toEqual(['test/a.test.js', 'test/broken.test.js', 'test/data.test.js', 'test/math.test.js', 'test/second.test.js']);
    // jest reads a path as a pattern: some shard was given a.test.js without data.test.js.
    expect(parts.some((part) => part.includes('test/a.test.js') && !part.includes('test/data.test.js'))).toBe(true);
  });
});
