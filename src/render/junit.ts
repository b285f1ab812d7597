// PLACEHOLDER until --junit lands in this session.
import type { RunReport } from '../core/report.js';
import type { TestResult } from '../core/types.js';

export function renderJunit(_report: RunReport, _tests: readonly TestResult[]): string {
  throw new Error('--junit: not implemented yet');
}
