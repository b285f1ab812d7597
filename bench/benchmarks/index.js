import { changedBench } from './changed.js';
import { floodMemory } from './flood-memory.js';
import { goBench } from './go.js';
import { historyBench } from './history.js';
import { jobsBench } from './jobs.js';
import { linearityBench } from './linearity.js';
import { mergeBench } from './merge.js';
import { minitestOverhead } from './minitest-overhead.js';
import { parsers } from './parsers.js';
import { processLimits } from './process.js';
import { reportPageBench } from './report-page.js';
import { runRecord } from './run-record.js';
import { runnerOverhead } from './runner-overhead.js';
import { shardBalance } from './shard-balance.js';
import { startup } from './startup.js';
import { treeBinding } from './tree-binding.js';

/** Every benchmark, in the order `npm run bench` runs them. */
export const benchmarks = [startup, minitestOverhead, goBench, runnerOverhead, parsers, linearityBench, floodMemory, processLimits, treeBinding, runRecord, jobsBench, mergeBench, shardBalance, changedBench, historyBench, reportPageBench];
