import type { RunReport } from '../../model/report.js';
import type { Detection } from '../../detect/detect.js';
import { ensureArtifactsDir } from '../../store/artifacts.js';
import { emptyShardReport, type Context } from '../build-report.js';
import { beginRecord, completeRecord, DEFAULT_KEEP_RUNS } from '../run-record.js';
import type { ShardSelection } from './select.js';

/** A shard with no units: `no_tests`, and no runner started (given no files it would run
 * the whole suite). Recorded as a run is, so `runs` and `show` list it; last-failures.json
 * is left as it was, since nothing ran. */
export async function recordEmptyShard(run: Context & { detection: Detection }, shard: ShardSelection): Promise<RunReport> {
  return recordUnstarted(run, () => emptyShardReport(run, shard.info, shard.warnings));
}

/** A run that decided to start no runner (an empty shard, a change that needs no test),
 * recorded as a run is; last-failures.json is left as it was. */
export async function recordUnstarted(run: Context & { detection: Detection }, report: () => RunReport): Promise<RunReport> {
  const { artifacts } = run;
  ensureArtifactsDir(artifacts);
  beginRecord(artifacts, null, run.detection.adapter.id, run.startedAt, run.root);
  return completeRecord(artifacts, run.request.keepRuns ?? DEFAULT_KEEP_RUNS, report);
}
