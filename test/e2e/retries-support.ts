/** Issue 31's definition of done for --retries on one runner's real fixture
 * (test/fixtures/projects/flaky-<runner>): a test that passes, one that fails on its
 * first run in a fresh copy and passes after (its run count in tmp/flaky-count), one that
 * always fails, in a file of its own. Every case runs in its own copy, so every count
 * starts at 0. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { RunReport } from '../../src/model/report.js';
import { surefireErrors } from '../support/surefire-schema.js';
import { copyFixture, failures, hasTools, REPO, runJson } from './helpers.js';

export interface RetriesCase {
  readonly runner: string;
  readonly tools: readonly string[];
  /** The runner comes from run-tests' own node_modules, linked into the copy. */
  readonly nodeModules?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** The file of the passing and the flaky test: the operand that leaves the always-failing one out. */
  readonly flakyFile: string;
  /** [name, file, line] of the flaky test, as flaky_tests lists it. */
  readonly flaky: readonly [string, string, number];
  /** [name, file, line, status] of the test that always fails. */
  readonly failing: readonly [string, string, number, string];
}

/** A fresh copy of the runner's flaky fixture. */
export async function flakyProject(c: Pick<RetriesCase, 'runner' | 'nodeModules'>, into?: string): Promise<string> {
  const dir = await copyFixture(`flaky-${c.runner}`, into);
  if (c.nodeModules === true) await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** How many times the flaky test ran in `dir`. */
export const flakyRuns = async (dir: string): Promise<number> => Number(await fs.readFile(path.join(dir, 'tmp/flaky-count'), 'utf8'));

/** flaky_tests as [name, file, line, attempts' statuses]. */
export const flakyOf = (report: RunReport): [string, string | null, number | null, string[]][] =>
  (report.flaky_tests ?? []).map((t) => [t.test_name, t.file, t.line, t.attempts.map((a) => a.status)]);

/** retries.runs as [attempt, tests, status]. */
export const retryRuns = (report: RunReport): [number, number, string][] =>
  (report.retries?.runs ?? []).map((r) => [r.attempt, r.tests, r.status]);

/** The warning a run whose flaky tests are named gives. */
export const flakyWarning = (name: string): string => `1 flaky test failed, then passed on a retry: "${name}"`;

type Node = Record<string, unknown>;

/** Each testcase of a JUnit file as [name, its children's tag names]. */
export function junitChildren(xml: string): [string, string[]][] {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true });
  const walk = (nodes: readonly Node[]): [string, string[]][] => nodes.flatMap((node) => {
    const tag = Object.keys(node).find((k) => k !== ':@') ?? '';
    const children = (node[tag] ?? []) as Node[];
    if (tag !== 'testcase') return Array.isArray(children) ? walk(children) : [];
    const name = String((node[':@'] as Record<string, string>).name);
    return [[name, children.map((c) => Object.keys(c).find((k) => k !== ':@') ?? '').filter((t) => t !== '#text')]];
  });
  return walk(parser.parse(xml) as Node[]);
}

/** The checks, for one runner. */
export const describeRetries = (cases: readonly RetriesCase[]): void => describe.each(cases)('--retries on $runner', (c) => {
  if (!hasTools(...c.tools)) return void it.skip(`needs ${c.tools.join(', ')}`, () => undefined);
  const [flakyName, flakyFile, flakyLine] = c.flaky;

  it('--retries 2: one flaky test with two attempts, one failure with three; failed, exit 1; JUnit valid against Surefire\'s schema', async () => {
    const dir = await flakyProject(c);
    const junit = path.join(os.tmpdir(), `${path.basename(dir)}.xml`);
    try {
      const { exitCode, report } = await runJson(['--cwd', dir, '--retries', '2', '--junit', junit], { env: c.env });
      expect([exitCode, report.status, report.exit_code]).toEqual([1, 'failed', 1]);
      expect(report.summary).toEqual({ run: 3, passed: 1, failures: 1, errors: 0, skips: 0, flaky: 1 });
      expect(flakyOf(report)).toEqual([[flakyName, flakyFile, flakyLine, ['failed', 'passed']]]);
      expect(failures(report)).toEqual([c.failing]);
      const [failed] = report.failed_tests;
      expect(failed?.attempts?.map((a) => [a.status, typeof a.message === 'string' && a.message !== ''])).toEqual([['failed', true], ['failed', true], ['failed', true]]);
      expect(report.flaky_tests?.[0]?.attempts.map((a) => a.message === null)).toEqual([false, true]);
      // Both failures rerun together once, the one still failing alone after; nothing
      // reruns a test that passed (the flaky one ran twice in all).
      expect([report.retries?.max, report.retries?.flaky_fails, retryRuns(report)]).toEqual([2, false, [[2, 2, 'failed'], [3, 1, 'failed']]]);
      expect(await flakyRuns(dir)).toBe(2);
      expect(report.warnings).toEqual([flakyWarning(flakyName)]);
      const xml = await fs.readFile(junit, 'utf8');
      expect(await surefireErrors(xml)).toEqual([]);
      const cases = new Map(junitChildren(xml));
      expect([cases.size, cases.get(flakyName), cases.get(c.failing[0])]).toEqual([3, ['flakyFailure'], ['failure', 'rerunFailure', 'rerunFailure']]);
    } finally {
      await fs.remove(junit);
    }
  });

  it('without the always-failing test: passed, exit 0, a warning naming the flaky test; --flaky-fails makes it failed, exit 1', async () => {
    const run = async (flakyFails: boolean) => {
      const dir = await flakyProject(c);
      return runJson(['--cwd', dir, '--retries', '2', ...(flakyFails ? ['--flaky-fails'] : []), c.flakyFile], { env: c.env });
    };
    const [plain, strict] = await Promise.all([run(false), run(true)]);
    for (const { report } of [plain, strict]) {
      expect(report.summary).toEqual({ run: 2, passed: 1, failures: 0, errors: 0, skips: 0, flaky: 1 });
      expect(flakyOf(report)).toEqual([[flakyName, flakyFile, flakyLine, ['failed', 'passed']]]);
      expect([report.failed_tests, retryRuns(report)]).toEqual([[], [[2, 1, 'passed']]]);
    }
    expect([plain.exitCode, plain.report.status, plain.report.retries?.flaky_fails]).toEqual([0, 'passed', false]);
    expect(plain.report.warnings).toEqual([`${flakyWarning(flakyName)}; the run passes (--flaky-fails would fail it)`]);
    expect([strict.exitCode, strict.report.status, strict.report.retries?.flaky_fails]).toEqual([1, 'failed', true]);
    expect(strict.report.warnings).toEqual([`${flakyWarning(flakyName)}; --flaky-fails: a flaky test fails the run`]);
  });
});
