import path from 'node:path';
import { findProjectRoot } from '../detect/roots.js';
import type { HistoryDocument } from '../model/history.js';
import { SCHEMA_VERSION } from '../model/report.js';
import { selectTests } from '../core/history/select.js';
import { testStats } from '../core/history/stats.js';
import { ARTIFACTS_DIR } from '../store/artifacts.js';
import { readHistory } from '../store/history.js';


export interface HistoryRequest {
  readonly cwd: string;
  readonly limit: number | undefined;
  /** --from, absolute. */
  readonly from: readonly string[];
  /** A name substring or a file (or directory) relative to the project. */
  readonly operand: string | null;
}

/** `run-tests history`: the history of the project enclosing `cwd`, with each test's stats. */
export function historyDocument(request: HistoryRequest): HistoryDocument {
  const root = findProjectRoot(request.cwd) ?? request.cwd;
  const history = readHistory(path.join(root, ARTIFACTS_DIR), { limit: request.limit, from: request.from });
  return { schema_version: SCHEMA_VERSION, project_root: root, runs: history.runs, tests: testStats(selectTests(history, request.operand)), warnings: history.warnings };
}
