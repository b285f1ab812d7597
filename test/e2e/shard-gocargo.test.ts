/** --shard on go (1.19 and 1.23) and cargo: for n = 1 and 4 (go; test/e2e/shards-check.ts
 * takes go through every n from 1 to 4) and 1..4 (cargo) the parts' `tests` together are
 * exactly the tests of the whole run (as its JUnit lists them: suite, file, name,
 * outcome), none in two parts, and their counts add up to the whole run's summary. Every
 * shard reads the whole run's report as --timings, so all the parts of a partition are
 * dealt from the same durations, as on CI machines that share the previous report. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, hasTools, runJson } from './helpers.js';

const COUNTS = ['run', 'passed', 'failures', 'errors', 'skips'] as const;
const GO_123_BIN = '/usr/lib/go-1.23/bin';

/** A test as both sides name it: its suite (go's package, cargo's target), file, name, outcome. */
const keyOf = (suite: string, file: string | null, name: string, status: string): string => `${suite} | ${file ?? '-'} | ${name} | ${status}`;

async function junitKeys(file: string): Promise<string[]> {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) })
    .parse(await fs.readFile(file, 'utf8')) as { testsuites: { testsuite?: { testcase?: Record<string, unknown>[] }[] } };
  const status = (c: Record<string, unknown>): string => ('failure' in c ? 'failed' : 'error' in c ? 'error' : 'skipped' in c ? 'skipped' : 'passed');
  return (doc.testsuites.testsuite ?? []).flatMap((s) => s.testcase ?? [])
    .map((c) => keyOf(String(c['classname']), typeof c['file'] === 'string' ? c['file'] : null, String(c['name']), status(c))).sort();
}

/** --failed-only --shard i/2 for i = 1, 2 after the whole run: the failures' units are
 * dealt out, and each failure is rerun by exactly one shard. */
async function expectFailuresDealtOnce(dir: string, env: NodeJS.ProcessEnv): Promise<{ units: string[][]; rerun: string[] }> {
  const last = await fs.readJson(path.join(dir, '.run-tests/last-failures.json')) as { failed_tests: { id: string }[] };
  const reports: RunReport[] = [];
  for (const i of [1, 2]) reports.push((await runJson(['--cwd', dir, '--failed-only', '--shard', `${i}/2`, '--timings', `${dir}-whole.json`], { env })).report);
  const rerun = reports.flatMap((r) => r.failed_tests.map((t) => t.id)).sort();
  expect(rerun).toEqual(last.failed_tests.map((t) => t.id).sort());
  for (const report of reports) expect(report.rerun?.not_run ?? []).toEqual([]);
  return { units: reports.map((r) => [...(r.shard?.units ?? [])]), rerun };
}

const sorted = (units: readonly string[]): string[] => [...units].sort();

const counts = (reports: readonly RunReport[]): Record<string, number> =>
  Object.fromEntries(COUNTS.map((k) => [k, reports.reduce((sum, r) => sum + (r.summary[k] ?? 0), 0)]));

/** The whole run, its report kept as the shards' --timings; then n shards for each of
 * `counts` checked against it. Returns each n's parts. */
async function expectShardsAreTheWholeRun(dir: string, env: NodeJS.ProcessEnv, framework: string, timed: readonly string[], shardCounts: readonly number[] = [1, 4]): Promise<string[][][]> {
  const timings = `${dir}-whole.json`;
  const junit = `${dir}-whole.xml`;
  const whole = await runJson(['--cwd', dir, '--junit', junit], { env });
  expect(whole.report.framework).toBe(framework);
  await fs.writeJson(timings, whole.report);
  const wholeTests = await junitKeys(junit);
  expect(wholeTests.length).toBe(whole.report.summary.run);
  const partitions: string[][][] = [];
  for (const n of shardCounts) {
    const reports: RunReport[] = [];
    for (let i = 1; i <= n; i++) reports.push((await runJson(['--cwd', dir, '--shard', `${i}/${n}`, '--timings', timings], { env })).report);
    expect(new Set(reports.map((r) => r.shard?.partition)).size).toBe(1);
    const parts = reports.map((r) => [...(r.shard?.units ?? [])]);
    const keys = reports.flatMap((r) => (r.tests ?? []).map((t) => keyOf(t.suite ?? t.file ?? framework, t.file, t.name, t.status)));
    expect(new Set(keys).size).toBe(keys.length); // no test in two parts
    expect(keys.sort()).toEqual(wholeTests);
    expect(counts(reports)).toEqual(counts([whole.report]));
    // What each part ran is its own units' tests: their durations are recorded under them.
    for (const [i, report] of reports.entries()) {
      for (const unit of Object.keys(report.unit_durations ?? {})) expect(parts[i]).toContain(unit);
    }
    partitions.push(parts);
  }
  // The whole run's durations, by unit: those whose tests gave one.
  expect(Object.keys(whole.report.unit_durations ?? {}).sort()).toEqual(timed);
  return partitions;
}

describe('--shard on go', () => {
  const toolchains = [
    { version: 'go1.19', bin: null as string | null },
    ...(fs.existsSync(path.join(GO_123_BIN, 'go')) || process.env['CI'] ? [{ version: 'go1.23', bin: GO_123_BIN }] : []),
  ];
  if (!hasTools('go')) return void it.skip('needs go', () => undefined);
  describe.each(toolchains)('$version', ({ version, bin }) => {
    // No network, no toolchain switching, no caller GOFLAGS; go's own build cache, which
    // keeps each toolchain's builds apart.
    const env: NodeJS.ProcessEnv = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', ...(bin === null ? {} : { PATH: `${bin}:${process.env['PATH'] ?? ''}` }) };
    // What run-tests asks of go is tested under one toolchain; how go lists and runs
    // packages under both.
    const once = (name: string, test: () => Promise<void>, timeout: number): void => {
      if (version === 'go1.19') it(name, test, timeout);
    };

    it('go-packages: each package in one part, run alone (./lib, not ./lib/...)', async () => {
      const dir = await copyFixture('go-packages');
      const partitions = await expectShardsAreTheWholeRun(dir, env, 'go', ['.', 'bad', 'lib', 'lib/deep']);
      expect(partitions[0]).toEqual([['.', 'bad', 'lib', 'lib/deep']]);
      for (const parts of partitions) expect(sorted(parts.flat())).toEqual(['.', 'bad', 'lib', 'lib/deep']);
      // A recorded failure (no suite, a file only where it failed) is placed in its package.
      expect(await expectFailuresDealtOnce(dir, env)).toEqual({ units: [['bad'], []], rerun: ['example.com/gopackages/bad TestBad'] });
    }, 300_000);

    once('go-build-error: a package that does not compile is reported by its part, one without test files too', async () => {
      const dir = await copyFixture('go-build-error');
      await fs.outputFile(path.join(dir, 'notest/notest.go'), 'package notest\n\nfunc F() int { return "x" }\n');
      const partitions = await expectShardsAreTheWholeRun(dir, env, 'go', ['good']);
      expect(partitions[0]).toEqual([['broken', 'good', 'notest']]);
    }, 300_000);

    once('go-nested: a module of one package, whose nested runs stay with it; the other parts run nothing', async () => {
      const dir = await copyFixture('go-nested');
      const partitions = await expectShardsAreTheWholeRun(dir, env, 'go', ['.']);
      expect(partitions.at(-1)?.filter((part) => part.length > 0)).toEqual([['.']]);
    }, 300_000);
  });
});

describe('--shard on cargo', () => {
  if (!hasTools('cargo')) return void it.skip('needs cargo', () => undefined);
  let env: NodeJS.ProcessEnv = {};
  beforeAll(async () => {
    env = { CARGO_TARGET_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-shard-cargo-target-')), RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };
  });
  afterAll(async () => {
    if (env['CARGO_TARGET_DIR']) await fs.remove(env['CARGO_TARGET_DIR']);
  });

  it('cargo-mixed: the library, its doc tests and an integration test, each a unit', async () => {
    const dir = await copyFixture('cargo-mixed');
    const partitions = await expectShardsAreTheWholeRun(dir, env, 'cargo', ['src/lib.rs', 'src/lib.rs#doc', 'tests/api.rs'], [1, 2, 3, 4]);
    expect(partitions[0]).toEqual([['src/lib.rs', 'src/lib.rs#doc', 'tests/api.rs']]);
    const { units } = await expectFailuresDealtOnce(dir, env);
    expect(sorted(units.flat())).toEqual(['src/lib.rs', 'src/lib.rs#doc', 'tests/api.rs']);
  }, 600_000);

  it('cargo-targets: binaries (src/main.rs apart from src/bin/), a tested example, an integration test in a directory', async () => {
    const dir = await copyFixture('cargo-targets');
    const units = ['examples/demo.rs', 'src/bin/tool.rs', 'src/lib.rs', 'src/lib.rs#doc', 'src/main.rs', 'tests/api.rs', 'tests/multi/main.rs'];
    const partitions = await expectShardsAreTheWholeRun(dir, env, 'cargo', units);
    expect(partitions[0]).toEqual([['examples/demo.rs', 'src/bin/tool.rs', 'src/lib.rs', 'src/lib.rs#doc', 'src/main.rs', 'tests/api.rs', 'tests/multi/main.rs']]);
  }, 600_000);

  it('cargo-workspace: the members\' targets, named from the workspace root', async () => {
    const dir = await copyFixture('cargo-workspace');
    // Neither library has a doc test: their doc units run none, and take no time.
    const partitions = await expectShardsAreTheWholeRun(dir, env, 'cargo', ['alpha/src/lib.rs', 'beta/src/lib.rs', 'beta/tests/edge.rs']);
    expect(partitions[0]).toEqual([['alpha/src/lib.rs', 'alpha/src/lib.rs#doc', 'beta/src/lib.rs', 'beta/src/lib.rs#doc', 'beta/tests/edge.rs']]);
  }, 600_000);
});
