import { readRun, runIds } from '../../store/runs.js';
import type { Durations } from './timings.js';

/** The durations this project's own run records hold for `framework`'s units, newest
 * run first: a unit's latest recorded duration is the one that counts. Only runs of the
 * same runner (another runner's units are other things: a go package is no file), and
 * neither reruns (a few tests of a unit say little of the whole) nor shards: shards run
 * one after another here must all deal from the same durations, which a shard's own
 * record would change under the next one. */
export function recordedDurations(artifactsDir: string, framework: string): Durations {
  const durations = new Map<string, number>();
  for (const id of runIds(artifactsDir)) {
    const report = readRun(artifactsDir, id).report;
    if (report?.framework !== framework || report.source !== 'run' || !report.unit_durations) continue;
    if (report.rerun !== null || report.shard !== undefined) continue;
    for (const [unit, ms] of Object.entries(report.unit_durations)) {
      if (!durations.has(unit) && typeof ms === 'number' && Number.isFinite(ms)) durations.set(unit, ms);
    }
  }
  return durations;
}
