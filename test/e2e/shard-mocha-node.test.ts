/** --shard on mocha and node:test: the shards together run the full run's tests, each
 * once.
 * The fixture gets more test files in its temp copy, named so that one path is a part
 * of another's: a shard given one must not run the other. */
import { describe, expect, it } from '@jest/globals';
import { expectShardsMatchFullRun, fixture } from './shard-check.js';

describe('--shard on mocha and node:test', () => {
  it('mocha: the full run\'s tests, each in one shard, for 1 to 4 shards, on the spec files mocha finds', async () => {
    const dir = await fixture('mocha-mixed', {
      'spec/a.spec.js': "it('a', () => {});\n",
      'spec/data.spec.js': "it('data', () => {});\nit('data fails', () => { throw new Error('no data'); });\n",
    });
    expect((await expectShardsMatchFullRun(dir)).units).toEqual(['spec/a.spec.js', 'spec/data.spec.js', 'spec/math.spec.js', 'spec/setup.spec.js']);
  });

  it('node:test: the full run\'s tests, each in one shard, for 1 to 4 shards, on the files node finds', async () => {
    const dir = await fixture('node-test-mixed', {
      'test/a.test.js': "const { test } = require('node:test');\ntest('a', () => {});\n",
      'lib/data.test.js': "const { test } = require('node:test');\ntest('data', () => {});\ntest('data fails', () => { throw new Error('no data'); });\n",
    });
    expect((await expectShardsMatchFullRun(dir)).units).toEqual(['lib/data.test.js', 'test/a.test.js', 'test/argv.test.js', 'test/math.test.js']);
  });
});
