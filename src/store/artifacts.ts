import fs from 'node:fs';
import path from 'node:path';
import { RUN_LOG, RUN_REPORT, runDir } from './runs.js';

export const ARTIFACTS_DIR = '.run-tests';

/** Where one run's files live (`.run-tests/runs/<id>/`), and the project's files that
 * every run shares. Nothing a run reads was written by another run. */
export interface ArtifactPaths {
  readonly dir: string;
  readonly runId: string;
  readonly runDir: string;
  /** This run's log. */
  readonly log: string;
  /** This run's final report. */
  readonly report: string;
  /** A copy of the latest completed run's log and report, for tools that read them after the fact. */
  readonly lastLog: string;
  readonly lastReport: string;
  readonly lastFailures: string;
  /** Held while a run updates the shared files above. */
  readonly lock: string;
  /** A file name inside this run's directory, for runner reports. */
  file(name: string): string;
}

/** What `run-tests detect` shows in place of a run id: it plans a run, it starts none. */
export const PLACEHOLDER_RUN_ID = '<id>';

export function artifactPaths(projectRoot: string, runId: string): ArtifactPaths {
  const dir = path.join(projectRoot, ARTIFACTS_DIR);
  const run = runDir(dir, runId);
  return {
    dir,
    runId,
    runDir: run,
    log: path.join(run, RUN_LOG),
    report: path.join(run, RUN_REPORT),
    lastLog: path.join(dir, 'last-test.log'),
    lastReport: path.join(dir, 'last-report.json'),
    lastFailures: path.join(dir, 'last-failures.json'),
    lock: path.join(dir, 'lock'),
    file: (name) => path.join(run, name),
  };
}

/** Creates the directory with a `.gitignore` of `*`, so it never shows up in git status.
 * Synchronous: it stands between the user and the runner's start. */
export function ensureArtifactsDir(paths: ArtifactPaths): void {
  fs.mkdirSync(paths.dir, { recursive: true });
  try {
    // 'wx': create it once, and leave a .gitignore the user edited alone.
    fs.writeFileSync(path.join(paths.dir, '.gitignore'), '*\n', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
