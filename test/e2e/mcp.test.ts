/** `run-tests mcp` driven by the SDK's own client over stdio, as an agent's host drives it. */
import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, processGone, REPO, RUN_ID, validateReport, waitFor } from './helpers.js';

const BIN = path.join(REPO, 'bin/run-tests.js');
const suite = hasTools('node', 'setsid', 'sleep') ? describe : describe.skip;

async function connect(args: readonly string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'run-tests-e2e', version: '1.0.0' });
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: { ...inherited, FORCE_COLOR: '0', ...env }, stderr: 'pipe' }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>, options: Parameters<Client['callTool']>[2] = {}): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...options }) as CallToolResult;
}

/** A tool's structured content, after checking that its text is the same JSON. */
function structured(result: CallToolResult): Record<string, unknown> {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (result.isError) throw new Error(`tool error: ${text}`);
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

const errorText = (result: CallToolResult): [boolean, string] =>
  [result.isError === true, result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')];

const NODE_TEST_FAILURES = [
  ['math > adds wrongly', 'test/math.test.js', 11, 'failed'],
  ['math > explodes', 'test/math.test.js', 15, 'error'],
  ['with subtests > second fails', 'test/math.test.js', 36, 'failed'],
];

suite('run-tests mcp', () => {
  it('lists its tools, runs a failing suite, and gives its result, runs and log by run id', async () => {
    const dir = await copyFixture('node-test-mixed');
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['detect', 'get_log', 'get_result', 'list_runs', 'plan_tests', 'run_tests']);
      const runTests = tools.find((t) => t.name === 'run_tests');
      expect(Object.keys(runTests?.inputSchema.properties ?? {}).sort()).toEqual(['changed', 'cwd', 'failed_only', 'files', 'flaky_fails', 'ids', 'name', 'retries', 'timeout']);
      expect(runTests?.inputSchema).toMatchObject({ additionalProperties: false });

      const report = structured(await call(client, 'run_tests', { cwd: dir })) as unknown as RunReport;
      expect(validateReport(report)).toBe(true);
      expect([report.source, report.status, report.exit_code, report.framework]).toEqual(['run', 'failed', 1, 'node-test']);
      expect(report.summary).toEqual({ run: 11, passed: 6, failures: 2, errors: 1, skips: 2 });
      expect(failures(report)).toEqual(NODE_TEST_FAILURES);
      expect(report.run_id).toMatch(RUN_ID);
      const id = report.run_id ?? '';

      expect(structured(await call(client, 'get_result', { cwd: dir, run_id: id }))).toEqual(report);
      expect(structured(await call(client, 'get_result', { cwd: dir }))).toEqual(report);
      const { runs } = structured(await call(client, 'list_runs', { cwd: dir })) as { runs: Record<string, unknown>[] };
      expect(runs.map((r) => [r.run_id, r.status, r.summary])).toEqual([[id, 'failed', report.summary]]);

      const log = path.join(dir, '.run-tests/runs', id, 'test.log');
      const lines = (await fs.readFile(log, 'utf8')).replace(/\n$/, '').split('\n');
      const tail = structured(await call(client, 'get_log', { cwd: dir, run_id: id, tail: 3 }));
      expect(tail).toEqual({ run_id: id, log, tail: { lines: 3, text: lines.slice(-3).join('\n'), cut: false } });
      const found = structured(await call(client, 'get_log', { cwd: dir, run_id: id, search: '✖ adds wrongly' }));
      const expected = lines.flatMap((text, i) => (text.includes('✖ adds wrongly') ? [{ line: i + 1, text }] : []));
      expect(expected.length).toBeGreaterThan(0);
      expect(found).toEqual({ run_id: id, log, search: '✖ adds wrongly', total: expected.length, matches: expected });

      expect(structured(await call(client, 'detect', { cwd: dir }))).toMatchObject({ framework: 'node-test', project_root: dir });

      const rerun = structured(await call(client, 'run_tests', { cwd: dir, failed_only: true })) as unknown as RunReport;
      expect([rerun.status, rerun.summary, rerun.rerun]).toEqual(['failed', { run: 4, passed: 1, failures: 2, errors: 1, skips: 0 }, { selected: 3, not_run: [] }]);
      expect(failures(rerun)).toEqual(NODE_TEST_FAILURES);
      // ids are the CLI's --id: exactly those tests, checked by what ran.
      const ids = report.failed_tests.filter((t) => t.test_name.startsWith('math > ')).map((t) => t.id);
      const byId = structured(await call(client, 'run_tests', { cwd: dir, ids })) as unknown as RunReport;
      expect([byId.status, byId.summary, byId.rerun]).toEqual(['failed', { run: 2, passed: 0, failures: 1, errors: 1, skips: 0 }, { selected: 2, not_run: [] }]);
      expect(failures(byId)).toEqual(NODE_TEST_FAILURES.slice(0, 2));
      const named = structured(await call(client, 'run_tests', { cwd: dir, files: ['test/math.test.js'], name: '[brackets] (and', timeout: 60 })) as unknown as RunReport;
      expect([named.status, named.exit_code, named.summary]).toEqual(['passed', 0, { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }]);
      expect(named.command).toContain('test/math.test.js');
      const listed = structured(await call(client, 'list_runs', { cwd: dir, limit: 2 })) as { runs: { run_id: string }[] };
      expect(listed.runs.map((r) => r.run_id)).toEqual([named.run_id, byId.run_id]);
    } finally {
      await client.close();
    }
  });

  it('checks input as the CLI does, and rejects fields it does not know', async () => {
    const dir = await copyFixture('node-test-mixed');
    const client = await connect();
    try {
      expect(errorText(await call(client, 'run_tests', { cwd: dir, verbose: true }))).toEqual([true, expect.stringMatching(/Input validation error: .*Unrecognized key: "verbose"/s)]);
      expect(errorText(await call(client, 'get_log', { cwd: dir, run_id: '../../etc/passwd' }))).toEqual([true, expect.stringContaining('a run id from list_runs, or last')]);
      expect(errorText(await call(client, 'run_tests', { cwd: dir, files: ['../'] }))).toEqual([true, `file "../" lies outside ${dir}`]);
      expect(errorText(await call(client, 'run_tests', { cwd: dir, name: 'a\u0085b' }))).toEqual([true, '--name must not contain control characters']);
      expect(errorText(await call(client, 'get_result', { cwd: dir }))).toEqual([true, `no completed run in ${dir}/.run-tests: run the tests first`]);
      // Nothing ran: no run was recorded.
      expect(fs.existsSync(path.join(dir, '.run-tests/runs'))).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('cuts a response larger than --max-response, and says what was cut and where the whole is', async () => {
    const dir = await copyFixture('node-test-mixed');
    const limit = 1400;
    const client = await connect(['--max-response', String(limit)]);
    try {
      const result = await call(client, 'run_tests', { cwd: dir });
      const report = structured(result) as unknown as RunReport & { cut: { limit_bytes: number; dropped: { failed_tests: number }; full: string } };
      expect(Buffer.byteLength(JSON.stringify(report))).toBeLessThanOrEqual(limit);
      const full = path.join(dir, '.run-tests/runs', report.run_id ?? '', 'report.json');
      expect(report.cut).toEqual({ limit_bytes: limit, dropped: { failed_tests: 3 - report.failed_tests.length }, full });
      expect(report.cut.dropped.failed_tests).toBeGreaterThan(0);
      expect(failures(report)).toEqual(NODE_TEST_FAILURES.slice(0, report.failed_tests.length));
      expect(report.summary).toEqual({ run: 11, passed: 6, failures: 2, errors: 1, skips: 2 });
      expect(failures((await fs.readJson(full)) as RunReport)).toEqual(NODE_TEST_FAILURES);

      const log = structured(await call(client, 'get_log', { cwd: dir, run_id: report.run_id, tail: 10_000 })) as { tail: { lines: number; text: string; cut: boolean }; cut: unknown };
      expect(Buffer.byteLength(JSON.stringify(log))).toBeLessThanOrEqual(limit);
      const text = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
      expect(text.endsWith(`${log.tail.text}\n`)).toBe(true);
      expect(log.tail).toMatchObject({ cut: true, lines: log.tail.text.split('\n').length });
      expect(log.cut).toEqual({ limit_bytes: limit, dropped: { lines: 10_000 - log.tail.lines }, full: path.join(dir, '.run-tests/runs', report.run_id ?? '', 'test.log') });
    } finally {
      await client.close();
    }
  });

  it('reports progress, and cancelling a run kills its whole tree as Ctrl-C does', async () => {
    const dir = await copyFixture('node-test-escape');
    const pids = path.join(dir, 'pids');
    await fs.mkdir(pids);
    const client = await connect([], { ESCAPE_MODE: 'hang', ESCAPE_PID_DIR: pids });
    try {
      const progress: number[] = [];
      const cancel = new AbortController();
      const running = call(client, 'run_tests', { cwd: dir }, { signal: cancel.signal, onprogress: (p) => progress.push(p.progress) });
      running.catch(() => undefined);
      await waitFor('the test to start its processes and a finished test to be reported', () => fs.existsSync(path.join(pids, 'started')) && progress.length > 0);
      expect(progress).toEqual([1]);
      const pidOf = (name: string): number => Number(fs.readFileSync(path.join(pids, `${name}.pid`), 'utf8'));
      const tree = ['runner', 'test', 'setsid', 'double-fork'].map(pidOf);
      cancel.abort('enough');
      await expect(running).rejects.toThrow();
      for (const pid of tree) await waitFor(`process ${pid} to die`, () => processGone(pid));
      const last = path.join(dir, '.run-tests/last-report.json');
      await waitFor('the interrupted run to be recorded', () => fs.existsSync(last));
      const report = structured(await call(client, 'get_result', { cwd: dir })) as unknown as RunReport;
      expect([report.source, report.status, report.exit_code, report.summary.passed]).toEqual(['run', 'interrupted', 130, 1]);
    } finally {
      await client.close();
    }
  });

  it("counts the progress of every project of a monorepo run, not only the first's", async () => {
    const root = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-mcp-mono-')));
    await copyFixture('node-test-mixed', path.join(root, 'a'));
    await copyFixture('node-test-hang', path.join(root, 'b'));
    const client = await connect();
    try {
      const progress: number[] = [];
      const cancel = new AbortController();
      const running = call(client, 'run_tests', { cwd: root, files: ['a', 'b'] }, { signal: cancel.signal, onprogress: (p) => progress.push(p.progress) });
      running.catch(() => undefined);
      // a's 11 tests and the one b finishes before it hangs.
      await waitFor('both projects to be counted', () => progress.at(-1) === 12);
      const grandchild = path.join(root, 'b/grandchild.pid');
      await waitFor('the hanging test to start', () => fs.existsSync(grandchild) && fs.readFileSync(grandchild, 'utf8') !== '');
      cancel.abort('enough');
      await expect(running).rejects.toThrow();
      const pid = Number(fs.readFileSync(grandchild, 'utf8'));
      await waitFor(`process ${pid} to die`, () => processGone(pid));
      expect(Math.max(...progress)).toBe(12);
    } finally {
      await client.close();
    }
  });

  it('when the client goes away mid-run, the run is interrupted and its tree killed', async () => {
    const dir = await copyFixture('node-test-escape');
    const pids = path.join(dir, 'pids');
    await fs.mkdir(pids);
    const client = await connect([], { ESCAPE_MODE: 'hang', ESCAPE_PID_DIR: pids });
    const running = call(client, 'run_tests', { cwd: dir });
    running.catch(() => undefined);
    await waitFor('the test to start its processes', () => fs.existsSync(path.join(pids, 'started')));
    const tree = ['runner', 'test', 'setsid', 'double-fork'].map((name) => Number(fs.readFileSync(path.join(pids, `${name}.pid`), 'utf8')));
    await client.close();
    for (const pid of tree) await waitFor(`process ${pid} to die`, () => processGone(pid));
    const last = path.join(dir, '.run-tests/last-report.json');
    await waitFor('the interrupted run to be recorded', () => fs.existsSync(last));
    expect((await fs.readJson(last) as RunReport).status).toBe('interrupted');
  });

  it('leaves the SDK and zod unloaded in every other command', () => {
    const hook = 'const M = require("node:module"); const load = M._load; M._load = function (request, ...rest) { if (/^(zod|@modelcontextprotocol)/.test(request)) process.stderr.write(`loaded ${request}\\n`); return load.call(this, request, ...rest); };';
    const version = spawnSync(process.execPath, ['-e', `${hook} process.argv.splice(1, 0, ${JSON.stringify(BIN)}); require(${JSON.stringify(BIN)});`, '--', '--version'], { encoding: 'utf8' });
    expect([version.status, version.stdout.trim(), version.stderr]).toEqual([0, fs.readJsonSync(path.join(REPO, 'package.json')).version, '']);
  });
});
