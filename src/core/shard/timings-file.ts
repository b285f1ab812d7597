import fs from 'node:fs';
import path from 'node:path';
import { parseJunit } from '../../parsers/junit.js';
import { usageError } from '../../model/errors.js';
import type { TestResult } from '../../model/results.js';
import { addDuration, type Durations } from './timings.js';

/** The unit a test belongs to (ShardSupport.unitOf, or its file). */
export type UnitOf = (test: Pick<TestResult, 'id' | 'name' | 'file' | 'suite'>) => string | null;

/** `--timings <file>`: the durations in a run-tests JSON report (its `unit_durations`)
 * or a JUnit file (its testcases' times summed per unit). Anything else, or a file that
 * cannot be read, is a usage error (exit 2) naming why. */
export function readTimingsFile(file: string, root: string, unitOf: UnitOf): Durations {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`--timings ${file} could not be read: ${(error as Error).message}`);
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return reportDurations(file, start);
  if (start.startsWith('<')) return junitDurations(file, start, root, unitOf);
  throw usageError(`--timings ${file} is neither a run-tests JSON report nor JUnit XML (it starts with neither "{" nor "<")`);
}

type Report = { project_root?: unknown; unit_durations?: unknown; projects?: unknown };

/** A report's unit_durations, keyed relative to its project_root; the projects of a
 * report of several add theirs under their path relative to that root (both absolute
 * paths of the one machine the report was written on, so their relation holds). */
function reportDurations(file: string, text: string): Durations {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch (error) {
    throw usageError(`--timings ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isReport(report)) throw usageError(`--timings ${file} is JSON but not a run-tests report (no schema_version, status and project_root)`);
  const durations = new Map<string, number>();
  addAll(durations, report.unit_durations, '');
  const projects = Array.isArray(report.projects) ? (report.projects as Report[]) : [];
  for (const project of projects) {
    if (typeof project?.project_root !== 'string') continue;
    const prefix = path.relative(report.project_root as string, project.project_root).split(path.sep).join('/');
    // A project outside the report's root has no relative place in it.
    if (!prefix.startsWith('..')) addAll(durations, project.unit_durations, prefix);
  }
  return durations;
}

function isReport(value: unknown): value is Report {
  if (typeof value !== 'object' || value === null) return false;
  const report = value as Record<string, unknown>;
  return report['schema_version'] !== undefined && typeof report['status'] === 'string' && typeof report['project_root'] === 'string';
}

/** Keys already set win: the report's own combined entries before its projects'. */
function addAll(into: Map<string, number>, entries: unknown, prefix: string): void {
  if (typeof entries !== 'object' || entries === null) return;
  for (const [key, ms] of Object.entries(entries)) {
    const name = prefix === '' ? key : `${prefix}/${key}`;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && !into.has(name)) into.set(name, ms);
  }
}

/** A JUnit file's testcase times, summed per unit (a test without a time adds nothing). */
function junitDurations(file: string, text: string, root: string, unitOf: UnitOf): Durations {
  // The classname is the suite: go's package, cargo's target, which their unitOf read.
  const parsed = parseJunit(text, { root, hints: { suite: 'classname' } });
  const not = parsed.warnings.find((w) => w.startsWith('not a JUnit report'));
  if (not !== undefined) throw usageError(`--timings ${file} is neither a run-tests JSON report nor JUnit XML: ${not}`);
  if (parsed.tests.length === 0) throw usageError(`--timings ${file} holds no JUnit testcases to take durations from`);
  const durations = new Map<string, number>();
  for (const test of parsed.tests) {
    const unit = test.durationMs === undefined ? null : unitOf(test);
    if (unit !== null && test.durationMs !== undefined) addDuration(durations, unit, test.durationMs);
  }
  return durations;
}
