/** --retries beyond one plain run: a load error is never retried; shards retry their own
 * failures and `merge` combines their flaky tests; --all-projects; MCP's `retries`. */
import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { surefireErrors } from '../support/surefire-schema.js';
import { failures, hasTools, REPO, runCli, runJson, validateReport } from './helpers.js';
import { flakyOf, flakyProject, flakyRuns, flakyWarning, junitChildren, retryRuns } from './retries-support.js';

const JEST = { runner: 'jest', nodeModules: true } as const;
const FAILED_PASSED = ['failed', 'passed'];

describe('--retries never retries a load error as a test', () => {
  it('jest: a file that throws at load stays one error without attempts, and no retry runs it', async () => {
    const dir = await flakyProject(JEST);
    await fs.writeFile(path.join(dir, 'test/broken.test.js'), "throw new Error('broken at load');\n");
    const { exitCode, report } = await runJson(['--cwd', dir, '--retries', '2']);
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 4, passed: 1, failures: 1, errors: 1, skips: 0, flaky: 1 });
    expect(failures(report)).toEqual([['always fails', 'test/fails.test.js', 2, 'failed'], ['load error: test/broken.test.js', 'test/broken.test.js', 1, 'error']]);
    expect(report.failed_tests.map((t) => t.attempts?.length ?? null)).toEqual([3, null]);
    // Attempt 2 reran the two failing tests, attempt 3 the one still failing: never the file.
    expect(retryRuns(report)).toEqual([[2, 2, 'failed'], [3, 1, 'failed']]);
    for (const run of report.retries?.runs ?? []) expect(await fs.readFile(run.log, 'utf8')).not.toContain('broken');
    expect(await fs.readFile(report.artifact ?? '', 'utf8')).toContain('broken at load');
  });
});

/** The shards of a two-file fixture, each in its own checkout, and their merge. */
const SHARDED = [
  { ...JEST, tools: [] as string[], flaky: ['fails on its first run only', 'test/flaky.test.js', 16], failing: ['always fails', 'test/fails.test.js', 2, 'failed'] },
  { runner: 'pytest', nodeModules: false, tools: ['python3', 'pytest-3'], flaky: ['tests/test_flaky.py::test_fails_on_its_first_run_only', 'tests/test_flaky.py', 16], failing: ['tests/test_fails.py::test_always_fails', 'tests/test_fails.py', 2, 'failed'] },
] as const;

describe.each(SHARDED)('--retries with --shard on $runner, and merge', (c) => {
  if (!hasTools(...c.tools)) return void it.skip(`needs ${c.tools.join(', ')}`, () => undefined);

  it('each shard retries its own failures; the merge lists the flaky test and the failure with their attempts, counts combined', async () => {
    const out = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), `run-tests-retries-shards-${c.runner}-`)));
    try {
      const shards = await Promise.all([1, 2].map(async (k) => {
        const { report } = await runJson(['--cwd', await flakyProject(c), '--retries', '2', '--shard', `${k}/2`]);
        const file = path.join(out, `shard-${k}.json`);
        await fs.writeJson(file, report);
        return { file, report };
      }));
      // One file each: the flaky one's shard passes with a warning, the other fails.
      const byUnit = new Map(shards.map((s) => [s.report.shard?.units.join(','), s.report]));
      const flakyShard = byUnit.get(c.flaky[1]);
      const failingShard = byUnit.get(c.failing[1]);
      expect([flakyShard?.status, flakyShard?.summary.flaky, flakyOf(flakyShard as RunReport).length]).toEqual(['passed', 1, 1]);
      expect([failingShard?.status, failingShard?.summary.flaky, failingShard?.flaky_tests]).toEqual(['failed', 0, []]);
      const junit = path.join(out, 'merged.xml');
      const { exitCode, report } = await runJson(['merge', ...shards.map((s) => s.file), '--junit', junit], { cwd: out });
      expect([exitCode, report.source, report.status]).toEqual([1, 'merged', 'failed']);
      expect(report.summary).toEqual({ run: 3, passed: 1, failures: 1, errors: 0, skips: 0, flaky: 1 });
      expect(flakyOf(report)).toEqual([[...c.flaky, FAILED_PASSED]]);
      expect(failures(report)).toEqual([c.failing]);
      expect(report.failed_tests[0]?.attempts?.map((a) => a.status)).toEqual(['failed', 'failed', 'failed']);
      // The merge's JUnit shows the attempts as each shard's own does.
      const xml = await fs.readFile(junit, 'utf8');
      expect(await surefireErrors(xml)).toEqual([]);
      expect(new Map(junitChildren(xml)).get(c.failing[0])).toEqual(['failure', 'rerunFailure', 'rerunFailure']);
      expect(new Map(junitChildren(xml)).get(c.flaky[0])).toEqual(['flakyFailure']);
    } finally {
      await fs.remove(out);
    }
  });
});

describe('--retries with --all-projects', () => {
  if (!hasTools('python3', 'pytest-3')) return void it.skip('needs python3, pytest-3', () => undefined);

  it('retries in each project: both flaky tests listed with paths from the invocation directory, counts summed', async () => {
    const parent = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-retries-projects-')));
    const [web, py] = [path.join(parent, 'web'), path.join(parent, 'py')];
    await Promise.all([flakyProject({ runner: 'node-test' }, web), flakyProject({ runner: 'pytest' }, py)]);
    const { exitCode, report } = await runJson(['--all-projects', '--retries', '2'], { cwd: parent });
    expect([exitCode, report.status]).toEqual([1, 'failed']);
    expect(report.summary).toEqual({ run: 6, passed: 2, failures: 2, errors: 0, skips: 0, flaky: 2 });
    expect(flakyOf(report)).toEqual([
      ['tests/test_flaky.py::test_fails_on_its_first_run_only', 'py/tests/test_flaky.py', 16, FAILED_PASSED],
      ['flaky > fails on its first run only', 'web/test/flaky.test.js', 19, FAILED_PASSED],
    ]);
    expect(failures(report)).toEqual([
      ['tests/test_fails.py::test_always_fails', 'py/tests/test_fails.py', 2, 'failed'],
      ['broken > always fails', 'web/test/fails.test.js', 6, 'failed'],
    ]);
    expect(report.projects.map((p) => [path.basename(p.project_root), retryRuns(p)])).toEqual([
      ['py', [[2, 2, 'failed'], [3, 1, 'failed']]], ['web', [[2, 2, 'failed'], [3, 1, 'failed']]],
    ]);
    expect(await Promise.all([py, web].map(flakyRuns))).toEqual([2, 2]);
    expect(report.warnings).toEqual([
      `py: ${flakyWarning('tests/test_flaky.py::test_fails_on_its_first_run_only')}`,
      `web: ${flakyWarning('flaky > fails on its first run only')}`,
    ]);
  });
});

describe('MCP run_tests with retries', () => {
  it('gives the flaky test and the failure with their attempts, as the CLI does', async () => {
    const dir = await flakyProject({ runner: 'node-test' });
    const client = new Client({ name: 'run-tests-e2e', version: '1.0.0' });
    const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, 'bin/run-tests.js'), 'mcp'], env: { ...inherited, FORCE_COLOR: '0' }, stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'run_tests', arguments: { cwd: dir, retries: 2 } }, undefined, { timeout: 120_000 }) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const report = result.structuredContent as unknown as RunReport;
      expect(validateReport(report)).toBe(true);
      expect([report.status, report.exit_code, report.summary]).toEqual(['failed', 1, { run: 3, passed: 1, failures: 1, errors: 0, skips: 0, flaky: 1 }]);
      expect(flakyOf(report)).toEqual([['flaky > fails on its first run only', 'test/flaky.test.js', 19, FAILED_PASSED]]);
      expect(report.failed_tests.map((t) => [t.test_name, t.attempts?.length])).toEqual([['broken > always fails', 3]]);
      expect([report.retries?.max, retryRuns(report)]).toEqual([2, [[2, 2, 'failed'], [3, 1, 'failed']]]);
    } finally {
      await client.close();
    }
  });
});

describe('--retries under GitHub Actions', () => {
  it("vitest: its own ::error of the flaky test's first attempt is dropped, its repeated ones of the failure given once; ours warn of the flaky test", async () => {
    const dir = await flakyProject({ runner: 'vitest', nodeModules: true });
    const summary = path.join(os.tmpdir(), `${path.basename(dir)}-summary.md`);
    await fs.writeFile(summary, '');
    try {
      const { exitCode, stdout } = await runCli(['--cwd', dir, '--retries', '2'], { env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_STEP_SUMMARY: summary } });
      expect(exitCode).toBe(1);
      // Each command as [name, file, title]: vitest's paths are absolute, ours relative to the workspace.
      const commands = stdout.split('\n').filter((l) => l.startsWith('::')).map((l) => {
        const [, name = '', props = ''] = /^::(\w+) ?([^:]*)::/.exec(l) ?? [];
        const prop = (key: string) => new RegExp(`(?:^|,)${key}=([^,]*)`).exec(props)?.[1] ?? null;
        return [name, prop('file'), prop('title')];
      });
      expect(commands).toEqual([
        ['error', `${dir}/test/fails.test.ts`, 'test/fails.test.ts > always fails'],
        ['warning', 'test/flaky.test.ts', 'flaky%3A fails on its first run only (failed%2C passed)'],
        ['warning', null, 'run-tests'],
      ]);
      const markdown = await fs.readFile(summary, 'utf8');
      expect(markdown).toContain('### Flaky (1): failed, then passed on a retry');
      expect(markdown).toContain('| fails on its first run only | failed, passed | test/flaky.test.ts:17 | expected 0 to be greater than 0 |');
    } finally {
      await fs.remove(summary);
    }
  });
});
