import type { ShardPart } from './merge-read.js';

/** How many units or tests found in two shards are named; the rest are counted. */
const NAMED = 5;

/** What keeps shard reports from making one whole run: parts of another partition or
 * shard count, a shard missing or given twice, a unit or a test in two shards. Every
 * problem is named, not only the first. `parts` are the ones of the partition the merge
 * is of (the others are named among the problems); one per index, in index order. */
export function checkParts(all: readonly ShardPart[]): { problems: string[]; parts: ShardPart[] } {
  const reference = commonPartition(all);
  const problems: string[] = [];
  const own: ShardPart[] = [];
  for (const part of all) {
    const foreign = foreignProblem(part, reference);
    if (foreign === null) own.push(part);
    else problems.push(foreign);
  }
  const byIndex = new Map<number, ShardPart[]>();
  for (const part of own) byIndex.set(part.report.shard.index, [...(byIndex.get(part.report.shard.index) ?? []), part]);
  for (let index = 1; index <= reference.count; index += 1) {
    const given = byIndex.get(index) ?? [];
    if (given.length === 0) problems.push(`missing shard ${index} of ${reference.count}`);
    if (given.length > 1) problems.push(`shard ${index} of ${reference.count} given ${given.length === 2 ? 'twice' : `${given.length} times`}: ${given.map((p) => p.path).join(', ')}`);
  }
  // A doubled shard is named once above; its copies are not compared with each other.
  const parts = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, given]) => given[0] as ShardPart);
  problems.push(...inTwoShards('unit', parts, (part, visit) => {
    for (const unit of part.report.shard.units) visit('', unit);
  }));
  problems.push(...inTwoShards('test', parts, (part, visit) => {
    // A test without a file is told apart by its suite: go's passing tests of the same
    // name in two packages are two tests.
    for (const t of part.tests) visit(t.file ?? t.suite ?? '', t.name);
  }));
  const total = parts[0]?.report.shard.total_units;
  const held = parts.reduce((sum, p) => sum + p.report.shard.units.length, 0);
  // Only a whole set of shards is expected to hold every unit.
  if (problems.length === 0 && total !== undefined && held !== total) problems.push(`the shards hold ${held} units, but their partition has ${total}`);
  return { problems, parts };
}

interface Partition {
  readonly partition: string;
  readonly count: number;
  /** A file of it, to name. */
  readonly path: string;
}

/** The partition most files are of (the first file's on a tie): the others are foreign. */
function commonPartition(parts: readonly ShardPart[]): Partition {
  const tally = new Map<string, { partition: Partition; files: number }>();
  for (const { path, report: { shard } } of parts) {
    const key = `${shard.count}\u0000${shard.partition}`;
    const entry = tally.get(key) ?? { partition: { partition: shard.partition, count: shard.count, path }, files: 0 };
    entry.files += 1;
    tally.set(key, entry);
  }
  let best: { partition: Partition; files: number } | null = null;
  for (const entry of tally.values()) if (best === null || entry.files > best.files) best = entry;
  return (best as { partition: Partition }).partition;
}

function foreignProblem({ path, report: { shard } }: ShardPart, reference: Partition): string | null {
  if (shard.count !== reference.count) {
    return `${path} is shard ${shard.index} of ${shard.count}, not of the ${reference.count} shards of ${reference.path}: a shard of another partition`;
  }
  if (shard.partition !== reference.partition) {
    return `${path} is of partition ${shard.partition}, not ${reference.partition} as ${reference.path}: a shard of another partition (other units, timings or options)`;
  }
  return null;
}

type Visit = (file: string, name: string) => void;

/** The items (units, tests) that two shards both hold, by where (file or suite) and name, which `items`
 * gives to `visit`: keyed by file, then name, so no key is made of the two (a large merge
 * has 400,000 tests). */
function inTwoShards(kind: 'unit' | 'test', parts: readonly ShardPart[], items: (part: ShardPart, visit: Visit) => void): string[] {
  const seen = new Map<string, Map<string, ShardPart>>();
  const found: string[] = [];
  let more = 0;
  for (const part of parts) {
    items(part, (file, name) => {
      let names = seen.get(file);
      if (names === undefined) seen.set(file, (names = new Map()));
      const first = names.get(name);
      if (first === undefined) names.set(name, part);
      else if (first !== part) {
        const item = kind === 'unit' ? name : `${JSON.stringify(name)}${file === '' ? '' : ` (${file})`}`;
        if (found.length < NAMED) found.push(`${kind} ${item} is in shard ${first.report.shard.index} (${first.path}) and shard ${part.report.shard.index} (${part.path})`);
        else more += 1;
      }
    });
  }
  return more === 0 ? found : [...found, `${more} more ${kind}s are in two shards`];
}
