import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, RUN_ID, runCli, runFile, validateReport } from './helpers.js';

/** A run's --json output as printed (for byte comparisons) and as parsed, checked against the schema. */
async function runText(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ exitCode: number | null; text: string; report: RunReport }> {
  const { exitCode, stdout, stderr } = await runCli([...args, '--json'], { env });
  let report: RunReport;
  try {
    report = JSON.parse(stdout) as RunReport;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${exitCode}):\n${stdout}\nstderr:\n${stderr}`);
  }
  if (!validateReport(report)) throw new Error(`report does not match the schema: ${JSON.stringify(validateReport.errors)}`);
  return { exitCode, text: stdout, report };
}

type Run = Awaited<ReturnType<typeof runText>>;

/** The run's own directory holds exactly what it printed; last-report.json is the later of two to finish. */
async function expectRecorded(dir: string, runs: readonly Run[]): Promise<void> {
  for (const run of runs) {
    expect(run.report.run_id).toMatch(RUN_ID);
    expect(await fs.readFile(runFile(dir, 'report.json', run.report.run_id), 'utf8')).toBe(run.text);
    expect(run.report.artifact).toBe(runFile(dir, 'test.log', run.report.run_id));
    expect(Date.parse(run.report.finished_at ?? '')).toBeGreaterThanOrEqual(Date.parse(run.report.started_at ?? ''));
  }
  const last = await fs.readFile(path.join(dir, '.run-tests/last-report.json'), 'utf8');
  const [latest, other] = runs.find((r) => r.text === last) === runs[0] ? [runs[0], runs[1]] : [runs[1], runs[0]];
  expect(last).toBe(latest?.text);
  expect((latest?.report.finished_at ?? '') >= (other?.report.finished_at ?? '')).toBe(true);
  // last-test.log is the latest run's log.
  expect(await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8')).toBe(await fs.readFile(latest?.report.artifact ?? '', 'utf8'));
}

const MINITEST_FAILURES = [
  ['WidgetTest#test_explodes', 'test/widget_test.rb', 13, 'error'],
  ['WidgetTest#test_size_is_wrong', 'test/widget_test.rb', 9, 'failed'],
];
const ruby = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

ruby('runs at once in one minitest project', () => {
  it('each report is exactly its own filter\'s, in ten pairs of a full run beside a --name run', async () => {
    const dir = await copyFixture('minitest-mixed');
    const ids = new Set<string>();
    for (let pair = 0; pair < 10; pair += 1) {
      const name = pair % 2 === 0 ? '[brackets] (and' : '/^test_(upcase|reverse)$/';
      const [full, filtered] = await Promise.all([runText(['--cwd', dir]), runText(['--cwd', dir, '--name', name])]);
      expect([full.exitCode, full.report.status, full.report.summary]).toEqual([1, 'failed', { run: 8, passed: 5, failures: 1, errors: 1, skips: 1 }]);
      expect(failures(full.report).sort()).toEqual(MINITEST_FAILURES);
      const expected = pair % 2 === 0 ? { run: 1, passed: 1 } : { run: 2, passed: 2 };
      expect([filtered.exitCode, filtered.report.status, filtered.report.summary]).toEqual([0, 'passed', { ...expected, failures: 0, errors: 0, skips: 0 }]);
      await expectRecorded(dir, [full, filtered]);
      ids.add(full.report.run_id ?? '').add(filtered.report.run_id ?? '');
    }
    expect(ids.size).toBe(20);
    // The full runs' failures stay recorded whatever the filtered runs beside them did.
    const saved = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
    expect(saved.failed_tests.map((t: { id: string }) => t.id).sort()).toEqual(['WidgetTest#test_explodes', 'WidgetTest#test_size_is_wrong']);
    // Twenty runs: the default keeps the newest 20.
    expect((await fs.readdir(path.join(dir, '.run-tests/runs'))).sort()).toEqual([...ids].sort());
  });

  it('merges last-failures.json from two subset runs at once: neither is lost', async () => {
    for (let trial = 0; trial < 3; trial += 1) {
      const dir = await copyFixture('minitest-mixed');
      const [size, explodes] = await Promise.all([
        runText(['--cwd', dir, '--name', 'test_size_is_wrong']),
        runText(['--cwd', dir, '--name', 'test_explodes']),
      ]);
      expect(failures(size.report)).toEqual([MINITEST_FAILURES[1]]);
      expect(failures(explodes.report)).toEqual([MINITEST_FAILURES[0]]);
      const saved = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
      expect(saved.failed_tests.map((t: { id: string }) => t.id).sort()).toEqual(['WidgetTest#test_explodes', 'WidgetTest#test_size_is_wrong']);
      expect([size.report.failures_file, explodes.report.failures_file]).toEqual([path.join(dir, '.run-tests/last-failures.json'), path.join(dir, '.run-tests/last-failures.json')]);
      expect(fs.existsSync(path.join(dir, '.run-tests/lock'))).toBe(false);
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = await copyFixture('minitest-mixed');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(gone.stdout);
    expect(pid).toBeGreaterThan(0);
    // A start time no process has: even a reused pid is not taken for the owner.
    await fs.outputFile(path.join(dir, '.run-tests/lock'), JSON.stringify({ pid, pid_start: -1, token: 'stale' }));
    const { exitCode, report } = await runText(['--cwd', dir]);
    expect([exitCode, report.status, report.warnings, report.failures_file]).toEqual([1, 'failed', [], path.join(dir, '.run-tests/last-failures.json')]);
    expect(fs.existsSync(path.join(dir, '.run-tests/lock'))).toBe(false);
    expect(await fs.readFile(path.join(dir, '.run-tests/last-report.json'), 'utf8')).toBe(JSON.stringify(report, null, 2) + '\n');
  });

  it('shows a stored run as it was printed; lists runs newest first; keeps the newest --keep-runs', async () => {
    const dir = await copyFixture('minitest-mixed');
    const human = await runCli(['--cwd', dir, '--name', 'test_size_is_wrong'], { env: { FORCE_COLOR: '0' } });
    const first = (await fs.readdir(path.join(dir, '.run-tests/runs')))[0] ?? '';
    const second = await runText(['--cwd', dir, '--name', '/^test_(upcase|reverse)$/']);
    const third = await runText(['--cwd', dir, '--keep-runs', '2']);
    // The oldest of three went; the current run counts among the two kept.
    expect((await fs.readdir(path.join(dir, '.run-tests/runs'))).sort()).toEqual([second.report.run_id, third.report.run_id]);
    expect(first < (second.report.run_id ?? '')).toBe(true);

    const last = await runCli(['show', '--json', '--cwd', dir]);
    expect([last.exitCode, last.stdout]).toEqual([0, third.text]);
    const lastNamed = await runCli(['show', 'last', '--json', '--cwd', dir]);
    expect(lastNamed.stdout).toBe(third.text);
    const byId = await runCli(['show', second.report.run_id ?? '', '--json', '--cwd', dir]);
    expect([byId.exitCode, byId.stdout]).toEqual([0, second.text]);

    const unknown = await runCli(['show', first, '--cwd', dir]);
    expect([unknown.exitCode, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toBe(`run-tests: no run "${first}" in ${dir}/.run-tests; runs, newest first: ${third.report.run_id}, ${second.report.run_id}\n`);

    // A human run, shown again the same way.
    const again = await runText(['--cwd', dir, '--name', 'test_size_is_wrong', '--keep-runs', '5']);
    const humanAgain = await runCli(['--cwd', dir, '--name', 'test_size_is_wrong'], { env: { FORCE_COLOR: '0' } });
    const humanId = (await fs.readdir(path.join(dir, '.run-tests/runs'))).sort().at(-1) ?? '';
    const shown = await runCli(['show', humanId, '--cwd', dir], { env: { FORCE_COLOR: '0' } });
    expect([humanAgain.exitCode, human.exitCode, shown.exitCode]).toEqual([1, 1, 0]);
    expect(shown.stdout).toBe(humanAgain.stdout);
    expect(shown.stdout).toContain(`log: ${runFile(dir, 'test.log', humanId)}\n`);

    const listed = await runCli(['runs', '--json', '--limit', '2', '--cwd', dir]);
    expect(listed.exitCode).toBe(0);
    const summary = (report: RunReport) => ({
      run_id: report.run_id, started_at: report.started_at, finished_at: report.finished_at, status: report.status,
      summary: report.summary, framework: report.framework, command: report.command, git: (report as { git?: unknown }).git ?? null,
    });
    const stored = await fs.readJson(runFile(dir, 'report.json', humanId)) as RunReport;
    expect(JSON.parse(listed.stdout)).toEqual({ runs: [summary(stored), summary(again.report)] });
    const all = await runCli(['runs', '--cwd', dir]);
    expect(all.stdout.split('\n').map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      `${humanId} failed`, `${again.report.run_id} failed`, `${third.report.run_id} failed`, `${second.report.run_id} passed`, '',
    ]);
  });

  it('never prunes a run in progress, and says a run without a report has none', async () => {
    const dir = await copyFixture('minitest-mixed');
    // An old run whose owner (this test's process) still runs, and one whose owner is gone.
    const live = '20000101-000000.000-00000001';
    const dead = '20000101-000000.000-00000002';
    const info = (id: string, pid: number) => ({ run_id: id, pid, pid_start: null, started_at: '2000-01-01T00:00:00.000Z', project_root: dir, framework: 'minitest', command: 'bundle exec rake test', log: runFile(dir, 'test.log', id), reports: [] });
    await fs.outputJson(runFile(dir, 'run.json', live), info(live, process.pid));
    const gone = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    await fs.outputJson(runFile(dir, 'run.json', dead), { ...info(dead, gone), pid_start: -1 });
    const listed = await runCli(['runs', '--json', '--cwd', dir]);
    expect(JSON.parse(listed.stdout).runs.map((r: { run_id: string; status: string }) => [r.run_id, r.status])).toEqual([[dead, 'abandoned'], [live, 'running']]);
    const inProgress = await runCli(['show', live, '--cwd', dir]);
    expect([inProgress.exitCode, inProgress.stderr]).toEqual([2, `run-tests: run ${live} has no report: it is still running (run-tests pid ${process.pid})\n`]);

    const { report } = await runText(['--cwd', dir, '--keep-runs', '1']);
    expect((await fs.readdir(path.join(dir, '.run-tests/runs'))).sort()).toEqual([live, report.run_id]);
  });
});

const go = hasTools('go') ? describe : describe.skip;

go('runs at once in one go project', () => {
  it('each report is exactly its own filter\'s: a full run beside a --name run, five pairs', async () => {
    const dir = await copyFixture('go-mixed');
    const env = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
    for (let pair = 0; pair < 5; pair += 1) {
      const [full, filtered] = await Promise.all([runText(['--cwd', dir], env), runText(['--cwd', dir, '--name', 'TestTable/wrong_[neg]'], env)]);
      expect([full.exitCode, full.report.summary]).toEqual([1, { run: 13, passed: 7, failures: 5, errors: 0, skips: 1 }]);
      expect(failures(full.report).map(([name]) => name).sort()).toEqual(['TestFatalInHelper', 'TestHalf', 'TestNested/outer/inner_(bad)', 'TestSubtractsWrongly', 'TestTable/wrong_[neg]']);
      expect([filtered.exitCode, filtered.report.summary.run, failures(filtered.report)]).toEqual([1, 1, [['TestTable/wrong_[neg]', 'mixed_test.go', 39, 'failed']]]);
      expect(filtered.report.warnings).toEqual([]);
      await expectRecorded(dir, [full, filtered]);
    }
  });
});

const pytest = hasTools('python3', 'pytest-3') ? describe : describe.skip;

pytest('runs at once in one pytest project', () => {
  it('each report is exactly its own filter\'s: a full run beside a --name run, three pairs', async () => {
    const dir = await copyFixture('pytest-mixed');
    const env = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` }; // Debian's pytest, as pytest.test.ts runs it
    for (let pair = 0; pair < 3; pair += 1) {
      const [full, filtered] = await Promise.all([runText(['--cwd', dir], env), runText(['--cwd', dir, '--name', '/test_(upcase|reverse)$/'], env)]);
      expect([full.exitCode, full.report.summary, failures(full.report).length]).toEqual([1, { run: 16, passed: 7, failures: 4, errors: 3, skips: 2 }, 7]);
      expect([filtered.exitCode, filtered.report.status, filtered.report.summary]).toEqual([0, 'passed', { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }]);
      await expectRecorded(dir, [full, filtered]);
    }
  });
});
