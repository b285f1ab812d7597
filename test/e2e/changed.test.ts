/** `run-tests plan` and `--changed` where the runner's graph is not asked: no change, a
 * deleted file, several projects, and every refusal (nothing is run then). Each runner's
 * graph is tested in changed-<ecosystem>.test.ts. */
import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, REPO, runCli, runJson } from './helpers.js';
import { git, gitFixture, planJson } from './changed-support.js';
import { validatePlan } from '../support/schemas.js';

const NO_CHANGE = 'no change affects this project';
const DELETED = 'notes.txt was deleted: what loaded it cannot be told from the tree as it is';

describe('run-tests plan and --changed, for what no graph decides', () => {
  it('a clean tree: every project has nothing to run, exit 0, and --changed starts no runner', async () => {
    const dir = await gitFixture('changed-core');
    const planned = await planJson(dir, ['--all-projects']);
    expect(planned.exitCode).toBe(0);
    expect(planned.projects.map((p) => [path.relative(dir, p.project_root), p.framework, p.plan?.changed, p.plan?.units, p.plan?.whole_suite])).toEqual([
      ['app', 'node-test', [], [], null],
      ['lib', 'node-test', [], [], null],
    ]);
    expect(planned.projects[0]?.plan?.base).toBe(git(dir, 'rev-parse', 'HEAD').trim());
    const text = await runCli(['plan', '--all-projects'], { cwd: dir });
    expect([text.exitCode, text.stdout.split('\n').filter((l) => l.includes('nothing to run')).length]).toEqual([0, 2]);

    const { exitCode, report } = await runJson(['--changed', '--all-projects'], { cwd: dir });
    expect([exitCode, report.status, report.exit_code, report.summary.run]).toEqual([0, 'no_tests', 0, 0]);
    expect(report.projects.map((p) => [p.status, p.exit_code, p.command, p.warnings, p.plan?.units, p.plan?.whole_suite])).toEqual([
      ['no_tests', 0, null, [NO_CHANGE], [], null],
      ['no_tests', 0, null, [NO_CHANGE], [], null],
    ]);
  });

  it('a deleted file is its project\'s whole suite, said why; the project it is not in runs nothing and decides nothing', async () => {
    const dir = await gitFixture('changed-core');
    await fs.remove(path.join(dir, 'app/notes.txt'));
    const planned = await planJson(dir, ['--all-projects']);
    expect(validatePlan({ schema_version: 1, projects: planned.projects })).toBe(true);
    expect(planned.projects.map((p) => [p.plan?.changed, p.plan?.units, p.plan?.whole_suite])).toEqual([
      [[{ file: 'notes.txt', change: 'deleted' }], [], { reason: DELETED }],
      [[], [], null],
    ]);
    const text = await runCli(['plan', 'app'], { cwd: dir });
    expect(text.stdout).toContain(`runs the whole suite: ${DELETED}`);

    const { exitCode, report } = await runJson(['--changed', '--all-projects'], { cwd: dir });
    expect([exitCode, report.status, report.summary.run, report.summary.passed]).toEqual([0, 'passed', 2, 2]);
    expect(report.projects.map((p) => [p.status, p.summary.run, p.plan?.whole_suite?.reason ?? null])).toEqual([['passed', 2, DELETED], ['no_tests', 0, null]]);
    // Only a whole-suite run of the project is the whole truth: it still records its failures.
    expect(report.projects[0]?.failures_file).toBe(path.join(dir, 'app/.run-tests/last-failures.json'));
  });

  it('a file operand limits the change to itself: the other project, and the rest of this one, are not planned', async () => {
    const dir = await gitFixture('changed-core');
    await fs.remove(path.join(dir, 'app/notes.txt'));
    await fs.remove(path.join(dir, 'lib/test/lib.test.js'));
    const planned = await planJson(dir, ['lib/package.json']);
    expect(planned.projects.map((p) => [path.relative(dir, p.project_root), p.plan?.changed, p.plan?.whole_suite])).toEqual([['lib', [], null]]);
  });

  it('refuses with exit 2, naming the cause, and runs nothing: no git, a ref that names no commit, one that reads as an option, a file taken for the ref, a shallow clone without the merge base, --failed-only', async () => {
    const plain = await copyFixture('changed-core');
    const dir = await gitFixture('changed-core');
    const refusals: [string, string[], string, string][] = [
      [plain, ['plan', '--all-projects'], plain, 'is not in a git work tree, so there is no change to read'],
      [plain, ['--changed', '--all-projects'], plain, 'is not in a git work tree, so there is no change to read'],
      [dir, ['plan', '--changed', 'no-such-branch', '--all-projects'], dir, '"no-such-branch" names no commit'],
      [dir, ['--changed=-o', '--all-projects'], dir, '--changed "-o": give a git ref'],
      [path.join(dir, 'app'), ['--changed', 'test/one.test.js'], dir, 'test/one.test.js is a file: give files before --changed, or the ref as --changed=<ref>'],
      [path.join(dir, 'app'), ['--changed', '--failed-only'], dir, '--changed runs what the change needs; it cannot be combined with --failed-only'],
    ];
    for (const [cwd, args, , message] of refusals) {
      const { exitCode, stdout, stderr } = await runCli(args, { cwd });
      expect([args.join(' '), exitCode, stdout, stderr.includes(message) ? message : stderr]).toEqual([args.join(' '), 2, '', message]);
    }
    for (const root of [plain, dir]) for (const project of ['app', 'lib']) expect(fs.existsSync(path.join(root, project, '.run-tests'))).toBe(false);

    git(dir, 'checkout', '-q', '-b', 'topic');
    for (const n of [1, 2]) {
      fs.appendFileSync(path.join(dir, 'app/notes.txt'), `${n}\n`);
      git(dir, 'commit', '-q', '-am', `topic ${n}`);
    }
    const clone = path.join(path.dirname(dir), `${path.basename(dir)}-shallow`);
    git(path.dirname(dir), 'clone', '-q', '--depth', '1', '--branch', 'topic', `file://${dir}`, clone);
    git(clone, 'fetch', '-q', '--depth', '1', 'origin', 'main:main');
    const shallow = await runCli(['--changed', 'main', '--all-projects'], { cwd: clone });
    expect([shallow.exitCode, shallow.stderr]).toEqual([2, expect.stringContaining('this is a shallow clone, and main and HEAD have no merge base in the history it holds')]);
  });

  it('MCP: plan_tests gives the plan, and run_tests with changed runs it', async () => {
    const dir = await gitFixture('changed-core');
    await fs.remove(path.join(dir, 'app/notes.txt'));
    const client = new Client({ name: 'run-tests-e2e', version: '1.0.0' });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, 'bin/run-tests.js'), 'mcp'], env: { ...env, FORCE_COLOR: '0' }, stderr: 'pipe' }));
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as CallToolResult).structuredContent as Record<string, unknown>;
      const app = path.join(dir, 'app');
      const plan = await call('plan_tests', { cwd: app });
      expect(plan).toEqual({
        schema_version: 1,
        projects: [expect.objectContaining({ project_root: app, framework: 'node-test', whole_suite: { reason: DELETED }, changed_files: 1, units_planned: 0, error: null })],
        units: [],
        changed: [{ project_root: app, file: 'notes.txt', change: 'deleted' }],
      });
      const lib = await call('run_tests', { cwd: path.join(dir, 'lib'), changed: true });
      expect([lib['status'], lib['exit_code'], (lib['plan'] as { units: unknown[] }).units]).toEqual(['no_tests', 0, []]);
      const ran = await call('run_tests', { cwd: app, changed: true });
      expect([ran['status'], (ran['summary'] as { run: number }).run, (ran['plan'] as { whole_suite: unknown }).whole_suite]).toEqual(['passed', 2, { reason: DELETED }]);
    } finally {
      await client.close();
    }
  });
});
