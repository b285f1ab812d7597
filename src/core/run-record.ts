import fs from 'node:fs';
import path from 'node:path';
import type { Invocation } from '../runners/types.js';
import { ensureDir, type ArtifactPaths } from '../store/artifacts.js';
import { removeFile, writeJsonAtomic } from '../store/atomic.js';
import { acquireLock } from '../store/lock.js';
import { selfOwner } from '../store/owner.js';
import { beginRun, pruneRuns } from '../store/runs.js';
import { HarnessError } from '../model/errors.js';
import { displayCommand } from './quote.js';
import type { RunReport } from '../model/report.js';

/** How many run directories a project keeps by default (--keep-runs). */
export const DEFAULT_KEEP_RUNS = 20;
/** How long a run waits for another run to finish updating the shared files (a few
 * milliseconds' work) before it gives up on them and keeps only its own report. */
const LOCK_WAIT_MS = 10_000;

/** Writes the run's run.json before its runner starts: who owns the run, and where its
 * log and reports are; the marker its processes carry where it is not the run id. */
export function beginRecord(artifacts: ArtifactPaths, invocation: Invocation | null, framework: string, startedAt: string, root: string, marker = artifacts.runId): void {
  // A `runs` that is a link would take every run's files elsewhere: refused.
  ensureDir(path.dirname(artifacts.runDir));
  beginRun(artifacts, {
    run_id: artifacts.runId,
    ...selfOwner(),
    started_at: startedAt,
    project_root: root,
    framework,
    // null: a run that starts no runner (an empty shard), recorded all the same.
    command: invocation === null ? '' : displayCommand(invocation),
    log: artifacts.log,
    reports: (invocation?.reports ?? []).map(({ path: file, parser, hints }) => ({ path: file, parser, ...(hints === undefined ? {} : { hints }) })),
    ...(marker === artifacts.runId ? {} : { marker }),
  });
}

/** Ends a run's record. Under the project's lock, `build` makes the report (updating
 * last-failures.json when `shared` is true: it holds the lock), and the report becomes
 * the run's report.json, last-report.json and, with the log, last-test.log. Runs finish
 * one at a time here, so the latest to finish is the one the last-* files show. Then
 * old run directories are pruned. */
export async function completeRecord(artifacts: ArtifactPaths, keepRuns: number, build: (shared: boolean) => RunReport): Promise<RunReport> {
  const lock = await acquireLock(artifacts.lock, LOCK_WAIT_MS);
  let report: RunReport;
  try {
    report = build(lock !== null);
    const unwritten: string[] = [];
    if (lock !== null) {
      afterRun(unwritten, artifacts.lastReport, () => writeJsonAtomic(artifacts.lastReport, report));
      afterRun(unwritten, artifacts.lastLog, () => publishLog(artifacts.log, artifacts.lastLog));
    }
    if (unwritten.length > 0) report = { ...report, warnings: [...report.warnings, ...unwritten] };
    // The run's own copy last: it is what the run prints, warnings included (`show`).
    writeJsonAtomic(artifacts.report, report);
  } finally {
    lock?.release();
  }
  pruneRuns(artifacts.dir, keepRuns, artifacts.runId);
  return report;
}

/** The warning of a run that could not take the lock. */
export const lockedOutWarning = (artifacts: ArtifactPaths): string =>
  `another run held ${artifacts.lock} for ${LOCK_WAIT_MS / 1000} s: this run's results are only in ${artifacts.report}, not in ${path.basename(artifacts.lastFailures)} or ${path.basename(artifacts.lastReport)}`;

/** Makes last-test.log this run's log: a hard link (no copy of a large log) under a
 * temporary name, renamed over the old one. */
function publishLog(log: string, last: string): void {
  const temp = `${last}.${process.pid}.tmp`;
  removeFile(temp);
  try {
    fs.linkSync(log, temp);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // the runner never started: no log
    fs.copyFileSync(log, temp); // a file system without hard links
  }
  fs.renameSync(temp, last);
}

/** A file that cannot be written once the runner is done (a full disk, a directory made
 * read-only during the run) is a warning: it must not hide what the run found. */
export function afterRun<T>(warnings: string[], file: string, write: () => T): T | undefined {
  try {
    return write();
  } catch (error) {
    // A failed system call, or a harness error of the store: anything else is a bug, not a warning.
    if (!(error instanceof HarnessError) && (error as NodeJS.ErrnoException).syscall === undefined) throw error;
    warnings.push(`could not write ${file}: ${(error as Error).message}`);
    return undefined;
  }
}
