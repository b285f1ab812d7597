import fs from 'node:fs';
import path from 'node:path';
import { testStats } from '../core/history/stats.js';
import { findProjectRoot } from '../detect/roots.js';
import { usageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';
import { pageModel } from '../render/report-page/model.js';
import { renderReportPage } from '../render/report-page/page.js';
import { artifactPaths, checkArtifactsDir, ensureArtifactsDir, ensureDir, PLACEHOLDER_RUN_ID } from '../store/artifacts.js';
import { openRead, writeFileAtomic } from '../store/atomic.js';
import { readHistory } from '../store/history.js';

/** The page's file in its directory: what a CI uploads and a browser opens. */
export const PAGE_FILE = 'index.html';
const DEFAULT_DIR = 'report';

export interface ReportPageRequest {
  /** The invocation directory (--cwd): its project's history and last run. */
  readonly cwd: string;
  /** --out, absolute; null: `.run-tests/report/`. */
  readonly out: string | null;
  readonly limit: number | null;
  readonly from: readonly string[];
}

/** `run-tests report`: the project's history and last run as one static page, written
 * atomically (never through a link) to `<out>/index.html`. Returns the file and what
 * could not be read. */
export function writeReportPage(request: ReportPageRequest, now = new Date()): { file: string; warnings: readonly string[] } {
  const root = findProjectRoot(request.cwd) ?? request.cwd;
  const paths = artifactPaths(root, PLACEHOLDER_RUN_ID);
  checkArtifactsDir(paths.dir);
  const history = readHistory(paths.dir, { ...(request.limit === null ? {} : { limit: request.limit }), from: request.from, cwd: request.cwd });
  const last = lastReport(paths.lastReport);
  const page = renderReportPage(pageModel(history, testStats(history), last.report, root, now.toISOString()));
  const file = path.join(outDir(request, paths), PAGE_FILE);
  writeFileAtomic(file, page);
  return { file, warnings: [...history.warnings, ...last.warnings] };
}

/** `.run-tests/report/` by default, made as run-tests makes its own directories (a link
 * there is refused); a directory given with --out is the user's, created if missing. */
function outDir(request: ReportPageRequest, paths: ReturnType<typeof artifactPaths>): string {
  if (request.out === null) {
    ensureArtifactsDir(paths);
    const dir = path.join(paths.dir, DEFAULT_DIR);
    ensureDir(dir);
    return dir;
  }
  const dir = request.out;
  const stats = fs.statSync(dir, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isDirectory()) throw usageError(`--out ${JSON.stringify(request.out)}: ${dir} is not a directory; the page is written as ${PAGE_FILE} in a directory`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The last run's report, never read through a link; none yet is no failures to list. */
function lastReport(file: string): { report: RunReport | null; warnings: string[] } {
  let text: string;
  try {
    const fd = openRead(file);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { report: null, warnings: [] };
    return { report: null, warnings: [`${file}: cannot be read (${(error as Error).message}); the page lists no last run`] };
  }
  try {
    const report = JSON.parse(text) as RunReport;
    if (!Array.isArray(report.failed_tests)) throw new Error('no failed_tests list');
    return { report, warnings: [] };
  } catch (error) {
    return { report: null, warnings: [`${file}: not a run-tests report (${(error as Error).message}); the page lists no last run`] };
  }
}
