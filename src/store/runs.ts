import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../model/report.js';
import type { ArtifactPaths } from './artifacts.js';
import { writeJsonAtomic } from './atomic.js';
import { ownerAlive, isOwner, type Owner } from './owner.js';

/** `20261201-164511.123-3f9a0c1d`: the UTC time to the millisecond, then 32 random bits.
 * Fixed width, so the names sort by time; within one millisecond of one process the
 * random part counts up, so ids made later here always sort later. */
const RUN_ID = /^\d{8}-\d{6}\.\d{3}-[0-9a-f]{8}$/;
export const RUNS_DIR = 'runs';
export const RUN_INFO = 'run.json';
export const RUN_REPORT = 'report.json';
export const RUN_LOG = 'test.log';

let last = { ms: 0, random: 0 };

export function newRunId(now = Date.now()): string {
  last = now > last.ms ? { ms: now, random: crypto.randomBytes(4).readUInt32BE() } : { ms: last.ms, random: last.random + 1 };
  if (last.random > 0xffffffff) last = { ms: last.ms + 1, random: 0 };
  const stamp = new Date(last.ms).toISOString().replace(/[-:]/g, '').replace('T', '-').replace('Z', '');
  return `${stamp}-${last.random.toString(16).padStart(8, '0')}`;
}

export const isRunId = (value: string): boolean => RUN_ID.test(value);

/** `.run-tests/runs/<id>/` of the project whose artifacts dir is `artifactsDir`. */
export const runDir = (artifactsDir: string, id: string): string => path.join(artifactsDir, RUNS_DIR, id);

/** What a run writes before its runner starts (`run.json`): who runs it and where its
 * files are. A run directory with it and no report.json is in progress, or abandoned
 * when its owner is gone. */
export interface RunInfo extends Owner {
  readonly run_id: string;
  readonly started_at: string;
  readonly project_root: string;
  readonly framework: string;
  readonly command: string;
  /** This run's log, absolute. */
  readonly log: string;
  /** The runner reports this run reads (ReportSource), absolute paths in the run directory. */
  readonly reports: readonly { readonly path: string; readonly parser: string; readonly hints?: Readonly<Record<string, string>> }[];
  /** The RUN_TESTS_RUN_ID its processes carry, where it is not run_id (a project of a run
   * whose projects ran at once). */
  readonly marker?: string;
}

/** Creates the run's directory with its run.json in it: built under a dot name, then
 * renamed, so a run directory never lacks its run.json. `runs/` exists already, checked
 * to be a directory of ours (ensureDir), so nothing here goes through a link. */
export function beginRun(artifacts: ArtifactPaths, info: RunInfo): void {
  const building = path.join(artifacts.dir, RUNS_DIR, `.${info.run_id}.new`);
  fs.mkdirSync(building);
  writeJsonAtomic(path.join(building, RUN_INFO), info);
  fs.renameSync(building, artifacts.runDir);
}

/** One stored run: its run.json and its report, each null when absent or unreadable. */
export interface StoredRun {
  readonly id: string;
  readonly dir: string;
  readonly info: RunInfo | null;
  readonly report: RunReport | null;
}

/** The ids of the runs stored in `.run-tests/`, newest first. */
export function runIds(artifactsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(artifactsDir, RUNS_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter(isRunId).sort().reverse();
}

export function readRun(artifactsDir: string, id: string): StoredRun {
  const dir = runDir(artifactsDir, id);
  const info = readJson(path.join(dir, RUN_INFO));
  return { id, dir, info: isOwner(info) ? (info as RunInfo) : null, report: readJson(path.join(dir, RUN_REPORT)) as RunReport | null };
}

/** The stored runs, newest first. */
export const listRuns = (artifactsDir: string): StoredRun[] => runIds(artifactsDir).map((id) => readRun(artifactsDir, id));

/** A run without a report whose owner still runs. */
export function inProgress(run: StoredRun): boolean {
  return run.report === null && run.info !== null && ownerAlive(run.info);
}

/** A run's run.json when it has no report yet, without reading any report; else null. */
function unfinished(artifactsDir: string, id: string): RunInfo | null {
  const dir = runDir(artifactsDir, id);
  if (fs.existsSync(path.join(dir, RUN_REPORT))) return null;
  const info = readJson(path.join(dir, RUN_INFO));
  return isOwner(info) ? (info as RunInfo) : null;
}

/** Whether a run has no report and its owner still runs. */
function ownedAndUnfinished(artifactsDir: string, id: string): boolean {
  const info = unfinished(artifactsDir, id);
  return info !== null && ownerAlive(info);
}

/** A run that recorded its start, never its end, and whose owner is gone (by pid and
 * start time): run-tests died in it. */
export interface AbandonedRun {
  /** The run's directory, where its report.json goes. */
  readonly dir: string;
  readonly info: RunInfo;
}

/** The project's abandoned runs. One readdir when there are no runs. */
export function abandonedRuns(artifactsDir: string): AbandonedRun[] {
  return runIds(artifactsDir).flatMap((id) => {
    const info = unfinished(artifactsDir, id);
    return info === null || ownerAlive(info) ? [] : [{ dir: runDir(artifactsDir, id), info }];
  });
}

/** Keeps the newest `keep` run directories, the current one among them, and never
 * removes a run in progress. Each goes by a rename first, so a half-removed directory
 * is never taken for a run. */
export function pruneRuns(artifactsDir: string, keep: number, current: string): void {
  const older = runIds(artifactsDir).filter((id) => id !== current).slice(Math.max(0, keep - 1));
  for (const id of older) {
    if (ownedAndUnfinished(artifactsDir, id)) continue;
    const doomed = path.join(artifactsDir, RUNS_DIR, `.${id}.old-${process.pid}`);
    try {
      fs.renameSync(runDir(artifactsDir, id), doomed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another run pruned it
      throw error;
    }
    fs.rmSync(doomed, { recursive: true, force: true });
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
