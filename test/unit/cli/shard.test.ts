import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_SHARDS, parseShard, shardRequest } from '../../../src/cli/shard.js';
import { usage } from '../support/usage.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-shard-cli-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('parseShard', () => {
  it('takes <index>/<count>, 1 <= index <= count <= MAX_SHARDS', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard(`${MAX_SHARDS}/${MAX_SHARDS}`)).toEqual({ index: MAX_SHARDS, count: MAX_SHARDS });
  });

  it('refuses anything else, saying what it takes', () => {
    expect(usage(() => parseShard('2'))).toBe('--shard must be <index>/<count>, got "2"; write <index>/<count>, e.g. 2/4, with 1 <= index <= count');
    for (const bad of ['', '1/', '/4', '1.5/4', '-1/4', ' 1/4', '1/4 ', '0x1/4', '1/4/8', 'a/b']) expect(usage(() => parseShard(bad))).toMatch(/^--shard must be <index>\/<count>/);
    expect(usage(() => parseShard('0/4'))).toBe('--shard 0/4: the index must be from 1 to the count (4), got 0');
    expect(usage(() => parseShard('5/4'))).toBe('--shard 5/4: the index must be from 1 to the count (4), got 5');
    expect(usage(() => parseShard('1/0'))).toBe(`--shard 1/0: the count must be from 1 to ${MAX_SHARDS}, got 0`);
    expect(usage(() => parseShard(`1/${MAX_SHARDS + 1}`))).toMatch(/the count must be from 1 to 1000, got 1001$/);
  });
});

describe('shardRequest', () => {
  const report = path.join(tmp, 'report.json');
  fs.writeFileSync(report, '{}');

  it('reads --shard and --timings as absolute paths, anywhere', () => {
    expect(shardRequest(tmp, {}, [], null)).toEqual({ shard: null, timings: null });
    expect(shardRequest(path.join(tmp), { shard: '1/2', timings: 'report.json' }, [], null)).toEqual({ shard: { index: 1, count: 2 }, timings: report });
    expect(shardRequest('/', { shard: '1/2', timings: report }, [], null).timings).toBe(report);
  });

  it('refuses what it cannot honour', () => {
    expect(usage(() => shardRequest(tmp, { timings: 'report.json' }, [], null))).toBe('--timings balances the parts of --shard; give --shard <index>/<count> with it');
    const custom = { argv: ['make', 'test'], report: { format: 'junit' as const, path: 'r.xml' } };
    expect(usage(() => shardRequest(tmp, { shard: '1/2' }, [], custom))).toBe('--shard splits a suite into parts by its units; it cannot be combined with --command, which selects exact tests');
    expect(usage(() => shardRequest(tmp, { shard: '1/2' }, [{ file: report, at: { line: 3 }, operand: 'a.js:3' }], null))).toMatch(/cannot be combined with a\.js:3, which/);
    expect(usage(() => shardRequest(tmp, { shard: '1/2', id: ['x'] }, [], null))).toMatch(/cannot be combined with --id/);
    expect(usage(() => shardRequest(tmp, { shard: '1/2', timings: 'absent.json' }, [], null))).toBe(`--timings: file "absent.json" does not exist (in ${tmp})`);
    expect(usage(() => shardRequest(tmp, { shard: '1/2', timings: '.' }, [], null))).toMatch(/^--timings: "\." is a directory, not a report file/);
  });
});
