import type { RunReport } from '../model/report.js';
import type { RunRequest } from '../model/request.js';
import type { TestResult } from '../model/results.js';
import type { ArtifactPaths } from '../store/artifacts.js';
import { DEFAULT_KEEP_HISTORY, historyDir, recordHistory } from '../store/history.js';
import { afterRun } from './run-record.js';

/** The run's entry in the history index, written under the project's lock once its report
 * is built (completeRecord's `build` with `shared`). A write that fails is the report's
 * warning: it must not hide what the run found. */
export function withHistory(artifacts: ArtifactPaths, report: RunReport, tests: readonly TestResult[], request: RunRequest): RunReport {
  const unwritten: string[] = [];
  afterRun(unwritten, historyDir(artifacts.dir), () => recordHistory(artifacts, report, tests, request.keepHistory ?? DEFAULT_KEEP_HISTORY));
  return unwritten.length === 0 ? report : { ...report, warnings: [...report.warnings, ...unwritten] };
}
