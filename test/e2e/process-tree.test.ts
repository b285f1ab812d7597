import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, hasTools, processGone, runCli, runJson, validateReport, waitFor } from './helpers.js';

const suite = hasTools('node', 'setsid', 'sleep') ? describe : describe.skip;

/** A copy of node-test-escape, and the env that makes its test start processes that leave
 * the runner's process group (`setsid sleep 300`, and a double fork into a new session). */
async function escapeFixture(mode: 'hang' | 'leave'): Promise<{ dir: string; pids: string; env: NodeJS.ProcessEnv }> {
  const dir = await copyFixture('node-test-escape');
  const pids = path.join(dir, 'pids');
  await fs.mkdir(pids);
  return { dir, pids, env: { ESCAPE_MODE: mode, ESCAPE_PID_DIR: pids } };
}

const pidOf = (pids: string, name: string): number => Number(fs.readFileSync(path.join(pids, `${name}.pid`), 'utf8'));
const escaped = (pids: string): number[] => [pidOf(pids, 'setsid'), pidOf(pids, 'double-fork')];
/** The runner (node --test), the test file's process and both escaped sleeps. */
const everyPid = (pids: string): number[] => [pidOf(pids, 'runner'), pidOf(pids, 'test'), ...escaped(pids)];
const started = (pids: string) => () => fs.existsSync(path.join(pids, 'started'));

suite('no process a run started outlives it', () => {
  it('kills a setsid grandchild and a double-forked one at --timeout', async () => {
    const { dir, pids, env } = await escapeFixture('hang');
    const { exitCode, report } = await runJson(['--cwd', dir, '--timeout', '5', '--kill-grace', '1'], { env });
    expect([exitCode, report.status, report.summary.passed]).toEqual([124, 'timed_out', 1]);
    for (const pid of everyPid(pids)) await waitFor(`process ${pid} to die`, () => processGone(pid));
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toMatch(/run-tests: timed out after 5s; sent SIGTERM to process group \d+ and 2 processes carrying RUN_TESTS_RUN_ID outside it\n/);
  });

  it('kills what a passing run leaves running, and names it in a warning', async () => {
    const { dir, pids, env } = await escapeFixture('leave');
    const { exitCode, report } = await runJson(['--cwd', dir, '--kill-grace', '1'], { env });
    expect([exitCode, report.status, report.summary]).toEqual([0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }]);
    const leaked = escaped(pids).sort((a, b) => a - b).map((pid) => `${pid} sleep 300`).join(', ');
    expect(report.warnings).toEqual([`leaked processes: ${leaked}; run-tests killed them`]);
    for (const pid of escaped(pids)) expect(processGone(pid)).toBe(true);
  });

  it('takes SIGHUP (the terminal closed) as SIGTERM: interrupted, and the whole tree gone', async () => {
    const { dir, pids, env } = await escapeFixture('hang');
    let cli = 0;
    const running = runJson(['--cwd', dir, '--kill-grace', '1'], { env, onSpawn: (pid) => { cli = pid; } });
    await waitFor('the test to start its processes', started(pids));
    process.kill(cli, 'SIGHUP');
    const { exitCode, report } = await running;
    expect([exitCode, report.status, report.summary.passed]).toEqual([130, 'interrupted', 1]);
    for (const pid of everyPid(pids)) await waitFor(`process ${pid} to die`, () => processGone(pid));
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    expect(log).toMatch(/run-tests: interrupted; sent SIGTERM to process group \d+ and 2 processes carrying RUN_TESTS_RUN_ID outside it\n/);
  });

  it('after run-tests was SIGKILLed, the next run kills what it left and records the run abandoned', async () => {
    const { dir, pids, env } = await escapeFixture('hang');
    let cli = 0;
    const killed = runCli(['--cwd', dir, '--json'], { env, onSpawn: (pid) => { cli = pid; } });
    await waitFor('the test to start its processes', started(pids));
    process.kill(cli, 'SIGKILL');
    expect((await killed).exitCode).toBe(null);
    // Nothing ended the run: its runner, its test and their escaped children keep running.
    for (const pid of everyPid(pids)) expect(processGone(pid)).toBe(false);
    const [runId = ''] = await fs.readdir(path.join(dir, '.run-tests/runs'));
    const runDir = path.join(dir, '.run-tests/runs', runId);
    // Begun and never ended: the run's files, and no report.json.
    expect((await fs.readdir(runDir)).sort()).toEqual(['node-test-events.jsonl', 'run.json', 'test.log']);

    const next = await runJson(['--cwd', dir, '--kill-grace', '1'], { env: { ESCAPE_PID_DIR: pids } });
    expect([next.exitCode, next.report.status, next.report.summary.passed]).toEqual([0, 'passed', 2]);
    const recorded = path.join(runDir, 'report.json');
    expect(next.report.warnings).toEqual([expect.stringMatching(new RegExp(
      `^run ${runId} \\(started \\d{4}-[^)]+\\) was abandoned: run-tests died before it ended; killed 4 processes still running it; its report: ${recorded}$`))]);
    for (const pid of everyPid(pids)) await waitFor(`process ${pid} to die`, () => processGone(pid));

    const abandoned = await fs.readJson(recorded) as RunReport & { run_id: string; started_at: string };
    expect(validateReport(abandoned)).toBe(true);
    expect(abandoned).toMatchObject({
      status: 'abandoned',
      exit_code: 3,
      run_id: runId,
      framework: 'node-test',
      project_root: dir,
      artifact: path.join(runDir, 'test.log'),
      summary: { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 },
      failed_tests: [],
    });
    expect(abandoned.command).toContain('--test');
    expect(abandoned.warnings.slice(0, 2)).toEqual([
      `run-tests (pid ${cli}) died before the run ended; the 1 result its reports held is kept`,
      "a later run-tests killed 4 processes still carrying the run's marker",
    ]);
    // The next invocation finds nothing more to recover.
    const third = await runJson(['--cwd', dir], { env: { ESCAPE_PID_DIR: pids } });
    expect(third.report.warnings).toEqual([]);
  });
});
