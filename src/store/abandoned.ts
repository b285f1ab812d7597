import fs from 'node:fs';
import path from 'node:path';
import { isRunId } from '../process/index.js';
import { ownerAlive } from './owner.js';

/** What a run recorded in `.run-tests/runs/<id>/run.json` before its runner started. */
export interface RunRecord {
  readonly run_id: string;
  readonly pid: number;
  readonly pid_start: number | null;
  readonly started_at: string | null;
  readonly project_root: string;
  readonly framework: string | null;
  readonly command: string | null;
  readonly log: string | null;
  readonly reports: readonly { readonly path: string; readonly parser: unknown; readonly hints?: unknown }[];
}

export interface AbandonedRun {
  /** The run's directory, where its report.json goes. */
  readonly dir: string;
  readonly record: RunRecord;
}

/** Runs of this project that recorded their start but never their end, and whose owner
 * (the run-tests process, by pid and start time) is gone: run-tests died in them.
 * One readdir when there is nothing to find. */
export function findAbandonedRuns(artifactsDir: string): AbandonedRun[] {
  const runsDir = path.join(artifactsDir, 'runs');
  let entries: string[];
  try {
    entries = fs.readdirSync(runsDir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    // A dot name is a run directory being built or removed, not a run.
    if (entry.startsWith('.')) return [];
    const dir = path.join(runsDir, entry);
    if (fs.existsSync(path.join(dir, 'report.json'))) return [];
    const record = readRecord(path.join(dir, 'run.json'));
    if (record === null || ownerAlive(record)) return [];
    return [{ dir, record }];
  });
}

/** null when the file is missing, half-written or not a run record: nothing to act on. */
function readRecord(file: string): RunRecord | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  const { run_id: id, pid, pid_start: start, project_root: root, reports } = value;
  if (!isRunId(id) || !Number.isInteger(pid) || typeof root !== 'string') return null;
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    run_id: id,
    pid: pid as number,
    pid_start: Number.isSafeInteger(start) ? (start as number) : null,
    started_at: text(value['started_at']),
    project_root: root,
    framework: text(value['framework']),
    command: text(value['command']),
    log: text(value['log']),
    reports: Array.isArray(reports) ? reports.filter((r): r is RunRecord['reports'][number] => typeof r?.path === 'string') : [],
  };
}
