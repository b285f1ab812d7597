import { usageError } from '../model/errors.js';
import type { CustomCommand, ShardSpec, TestLocation } from '../model/request.js';
import { resolveExistingFile } from './options.js';

/** The most shards a partition is dealt into: more parts than any CI gives machines. */
export const MAX_SHARDS = 1000;

/** `--shard <i>/<n>`: whole numbers, 1 <= i <= n <= MAX_SHARDS. */
export function parseShard(value: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const why = 'write <index>/<count>, e.g. 2/4, with 1 <= index <= count';
  if (match === null) throw usageError(`--shard must be <index>/<count>, got ${JSON.stringify(value)}; ${why}`);
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (count < 1 || count > MAX_SHARDS) throw usageError(`--shard ${value}: the count must be from 1 to ${MAX_SHARDS}, got ${match[2]}`);
  if (index < 1 || index > count) throw usageError(`--shard ${value}: the index must be from 1 to the count (${count}), got ${match[1]}`);
  return { index, count };
}

export interface ShardOptions {
  readonly shard?: string;
  readonly timings?: string;
  readonly id?: readonly string[];
}

/** --shard and --timings as a request holds them, refused where they cannot be honoured:
 * a --command's tests are unknown units; `file:line` and --id already name exact tests. */
export function shardRequest(cwd: string, options: ShardOptions, locations: readonly TestLocation[], custom: CustomCommand | null): { shard: ShardSpec | null; timings: string | null } {
  if (options.shard === undefined) {
    if (options.timings !== undefined) throw usageError('--timings balances the parts of --shard; give --shard <index>/<count> with it');
    return { shard: null, timings: null };
  }
  const shard = parseShard(options.shard);
  const other = custom ? '--command' : locations.length > 0 ? locations[0]?.operand : (options.id ?? []).length > 0 ? '--id' : null;
  if (other) throw usageError(`--shard splits a suite into parts by its units; it cannot be combined with ${other}, which selects exact tests`);
  return { shard, timings: options.timings === undefined ? null : timingsFile(cwd, options.timings) };
}

function timingsFile(cwd: string, file: string): string {
  try {
    return resolveExistingFile(cwd, file);
  } catch (error) {
    throw usageError(`--timings: ${(error as Error).message}`);
  }
}
