import fs from 'node:fs';
import path from 'node:path';
import { mergeShards, type MergeInput, type Merged } from '../core/merge.js';
import { kindOf } from './options.js';

/** `run-tests merge <report.json>...`: the files read one at a time, each as given (its
 * path relative to `cwd`). A file that cannot be read is named in the merge's error
 * (exit 3) like any other part at fault, rather than a usage error: in CI it is a shard
 * whose report did not arrive. */
export function mergeFiles(cwd: string, files: readonly string[], options: { maxFailures: number | null; allowNoTests: boolean }): Merged {
  return mergeShards(readAll(cwd, files), { cwd, ...options });
}

function* readAll(cwd: string, files: readonly string[]): Generator<MergeInput> {
  for (const file of files) yield readInput(cwd, file);
}

function readInput(cwd: string, file: string): MergeInput {
  const absolute = path.resolve(cwd, file);
  try {
    // Only stat first: opening a named pipe to read it would wait for a writer.
    const stats = fs.statSync(absolute);
    if (!stats.isFile()) return { path: file, unreadable: `it is ${kindOf(stats)}, not a report file` };
    return { path: file, text: fs.readFileSync(absolute, 'utf8') };
  } catch (error) {
    return { path: file, unreadable: (error as Error).message };
  }
}
