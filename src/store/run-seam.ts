/** PROVISIONAL, until the `runs` branch lands its run directories: the smallest writer
 * of the contract `runs` owns (`.run-tests/runs/<id>/run.json` before the runner starts,
 * `report.json` at its end), so the run's marker and abandoned-run recovery work before
 * it. `runs` replaces these two calls (in src/core/run-project.ts) and this file. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processStartTime } from '../process/index.js';
import { writeJsonAtomic } from './atomic.js';

export function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export const runDir = (artifactsDir: string, runId: string): string => path.join(artifactsDir, 'runs', runId);

export interface RunStart {
  readonly projectRoot: string;
  readonly framework: string;
  readonly command: string;
  readonly log: string;
  readonly reports: readonly { readonly path: string; readonly parser: string; readonly hints?: Readonly<Record<string, string>> }[];
}

export function recordRunStart(artifactsDir: string, runId: string, start: RunStart): void {
  const dir = runDir(artifactsDir, runId);
  fs.mkdirSync(dir, { recursive: true });
  writeJsonAtomic(path.join(dir, 'run.json'), {
    run_id: runId,
    pid: process.pid,
    pid_start: processStartTime(process.pid),
    started_at: new Date().toISOString(),
    project_root: start.projectRoot,
    framework: start.framework,
    command: start.command,
    log: start.log,
    reports: start.reports.map((r) => ({ path: r.path, parser: r.parser, hints: r.hints ?? null })),
  });
}

/** The run's final report, where it has a directory (one that never started has none). */
export function recordRunEnd(artifactsDir: string, runId: string, report: unknown): void {
  const dir = runDir(artifactsDir, runId);
  if (fs.existsSync(path.join(dir, 'run.json'))) writeJsonAtomic(path.join(dir, 'report.json'), report);
}
