import fs from 'node:fs';
import path from 'node:path';

export const ARTIFACTS_DIR = '.run-tests';

/** Where one project's run-tests files live. */
export interface ArtifactPaths {
  readonly dir: string;
  readonly log: string;
  readonly lastFailures: string;
  /** The last JSON report, for tools that read it after the fact. */
  readonly lastReport: string;
  /** A file name inside the artifacts dir, for runner reports. */
  file(name: string): string;
}

export function artifactPaths(projectRoot: string): ArtifactPaths {
  const dir = path.join(projectRoot, ARTIFACTS_DIR);
  return {
    dir,
    log: path.join(dir, 'last-test.log'),
    lastFailures: path.join(dir, 'last-failures.json'),
    lastReport: path.join(dir, 'last-report.json'),
    file: (name) => path.join(dir, name),
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
