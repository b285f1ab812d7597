import { describe, expect, it } from '@jest/globals';
import { partition, partitionDigest } from '../../../../src/core/shard/partition.js';
import { median, weigh } from '../../../../src/core/shard/timings.js';

const units = (weights: Record<string, number>) => Object.entries(weights).map(([name, weight]) => ({ name, weight }));
const maxLoad = (parts: readonly (readonly string[])[], weights: Record<string, number>) =>
  Math.max(...parts.map((part) => part.reduce((sum, name) => sum + (weights[name] ?? 0), 0)));

describe('partition', () => {
  it('packs the longest first into the lightest part, ties to the lowest index', () => {
    const weights = { 'a.js': 5, 'b.js': 4, 'c.js': 3, 'd.js': 3, 'e.js': 2, 'f.js': 1 };
    // a, b, c fill the three parts (5, 4, 3); d joins c (3), e joins b (4), f joins a (5).
    expect(partition(units(weights), 3).parts).toEqual([['a.js', 'f.js'], ['b.js', 'e.js'], ['c.js', 'd.js']]);
    // Equal weights: taken by name, each into the lowest lightest part.
    expect(partition(units({ z: 1, y: 1, x: 1, w: 1 }), 2).parts).toEqual([['w', 'y'], ['x', 'z']]);
  });

  it('comes close to the ideal where the runners\' hash sharding does not', () => {
    const weights: Record<string, number> = {};
    for (let i = 0; i < 40; i++) weights[`test/t${String(i).padStart(2, '0')}.test.js`] = 50 + ((i * 7919) % 40) * 50;
    const total = Object.values(weights).reduce((a, b) => a + b, 0);
    const { parts } = partition(units(weights), 4);
    expect(parts.flat().sort()).toEqual(Object.keys(weights).sort());
    expect(maxLoad(parts, weights)).toBeLessThanOrEqual(1.15 * total / 4);
  });

  it('deals units that weigh nothing round the parts, not all into the first', () => {
    // go records a test under its 10 ms step as 0 ms: equal loads go to the part with the fewest units.
    const parts = partition(units({ a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 }), 4).parts;
    expect(parts).toEqual([['a', 'e'], ['b', 'f'], ['c'], ['d']]);
  });

  it('depends on the units and weights only, never on the order they came in', () => {
    const list = units({ 'spec/a_spec.rb': 120, 'spec/b_spec.rb': 80, 'spec/c_spec.rb': 80, 'spec/d_spec.rb': 10, 'spec/e_spec.rb': 300 });
    const first = partition(list, 3);
    const reversed = partition([...list].reverse(), 3);
    expect(reversed).toEqual(first);
    expect(first.digest).toMatch(/^[0-9a-f]{16}$/);
  });

  it('leaves parts empty when there are fewer units than parts, and deals out every unit once', () => {
    const { parts } = partition(units({ a: 3, b: 2, c: 1 }), 4);
    expect(parts).toEqual([['a'], ['b'], ['c'], []]);
    expect(partition([], 2).parts).toEqual([[], []]);
  });

  it('digests every part, so shards of other partitions are told apart', () => {
    const a = partition(units({ a: 3, b: 2, c: 1 }), 2);
    const b = partition(units({ a: 1, b: 2, c: 3 }), 2);
    expect(a.parts).not.toEqual(b.parts);
    expect(a.digest).not.toBe(b.digest);
    expect(partition(units({ a: 3, b: 2, c: 1 }), 3).digest).not.toBe(a.digest);
    // The same parts in another order inside: the same digest.
    expect(partitionDigest([['b', 'a'], ['c']])).toBe(partitionDigest([['a', 'b'], ['c']]));
  });

  it('digests a canonical encoding: the count and every part\'s sorted names', () => {
    // sha256 of {"count":2,"parts":[["spec/a_spec.rb"],["spec/b_spec.rb"]]}, its first 16 hex digits.
    expect(partitionDigest([['spec/a_spec.rb'], ['spec/b_spec.rb']])).toBe('249ee8363bf84ab1');
  });

  it('refuses a count that is no whole positive number', () => {
    expect(() => partition([], 0)).toThrow(RangeError);
    expect(() => partition([], 1.5)).toThrow(RangeError);
  });
});

describe('weigh', () => {
  const listed = [{ name: 'a', bytes: 100 }, { name: 'b', bytes: 5000 }, { name: 'c', bytes: 10 }, { name: 'd', bytes: 1 }];

  it('gives a unit without a recorded duration the median of the recorded ones', () => {
    const durations = new Map([['a', 100], ['b', 300], ['c', 1000]]);
    expect(weigh(listed, (unit) => durations.get(unit))).toEqual({ units: [{ name: 'a', weight: 100 }, { name: 'b', weight: 300 }, { name: 'c', weight: 1000 }, { name: 'd', weight: 300 }], timed: 3 });
  });

  it('balances by bytes when no unit has a recorded duration', () => {
    expect(weigh(listed, () => undefined)).toEqual({ units: [{ name: 'a', weight: 100 }, { name: 'b', weight: 5000 }, { name: 'c', weight: 10 }, { name: 'd', weight: 1 }], timed: 0 });
    expect(partition(weigh(listed, () => undefined).units, 2).parts).toEqual([['b'], ['a', 'c', 'd']]);
  });

  it('takes the middle of an even count as the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
});
