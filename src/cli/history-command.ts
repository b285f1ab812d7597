import path from 'node:path';
import { findProjectRoot } from '../detect/roots.js';
import type { HistoryRun, TestStats } from '../model/history.js';
import { SCHEMA_VERSION } from '../model/report.js';
import { selectTests } from '../core/history/select.js';
import { testStats } from '../core/history/stats.js';
import { ARTIFACTS_DIR } from '../store/artifacts.js';
import { readHistory } from '../store/history.js';

/** What `run-tests history --json` prints (schema/report.schema.json's historyDocument). */
export interface HistoryDocument {
  readonly schema_version: typeof SCHEMA_VERSION;
  /** The project whose `.run-tests/history` was read. */
  readonly project_root: string;
  /** Oldest first. */
  readonly runs: readonly HistoryRun[];
  /** The tests the operand selects (all without one), in order of concern (docs/history.md). */
  readonly tests: readonly TestStats[];
  readonly warnings: readonly string[];
}

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
