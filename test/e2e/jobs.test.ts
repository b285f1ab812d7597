/** --all-projects and --jobs: the projects of a monorepo found and run at once, merged
 * as one after another; one live count, readable --stream output, every log apart, and
 * Ctrl-C that ends every project's processes. */
import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, processGone, runCli, runJson, waitFor } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake', 'rspec') ? describe : describe.skip;

const tempRoot = async (name: string): Promise<string> => fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), `run-tests-${name}-`)));

/** A repository root with no project of its own, holding three Ruby subprojects (as monorepo.test.ts). */
async function monorepo(): Promise<string> {
  const root = await tempRoot('jobs');
  await copyFixture('minitest-mixed', path.join(root, 'packages/widgets'));
  await copyFixture('minitest-plain', path.join(root, 'services/calc'));
  await copyFixture('rspec-mixed', path.join(root, 'services/shop'));
  return root;
}

const PROJECTS = ['packages/widgets', 'services/calc', 'services/shop'];

/** The three projects' failures, files from the monorepo root, sorted. */
const ALL_FAILURES = [
  ['ArithmeticTest#test_subtracts_wrongly', 'services/calc/test/arithmetic_test.rb', 13, 'failed'],
  ['Calculator doubles 2 (loop)', 'services/shop/spec/mixed_spec.rb', 42, 'failed'],
  ['Calculator loads config via a helper', 'services/shop/spec/mixed_spec.rb', 12, 'error'],
  ['Calculator pending work is pending but passes', 'services/shop/spec/mixed_spec.rb', 21, 'failed'],
  ['Calculator subtracts numbers', 'services/shop/spec/mixed_spec.rb', 8, 'failed'],
  ['Second file misses a mocked call', 'services/shop/spec/second_spec.rb', 12, 'failed'],
  ['Second file raises a plain error', 'services/shop/spec/second_spec.rb', 7, 'error'],
  ['WidgetTest#test_explodes', 'packages/widgets/test/widget_test.rb', 13, 'error'],
  ['WidgetTest#test_size_is_wrong', 'packages/widgets/test/widget_test.rb', 9, 'failed'],
];

const sorted = <T>(values: T[]): T[] => [...values].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** What must be the same however many projects ran at once. */
const merged = (root: string, { report, exitCode }: { report: RunReport; exitCode: number | null }) => ({
  exitCode,
  status: report.status,
  framework: report.framework,
  summary: report.summary,
  // minitest orders a project's tests at random; the projects' failures come in their order.
  failures: sorted(failures(report)),
  failingProjects: report.failed_tests.map((t) => PROJECTS.find((p) => t.file?.startsWith(`${p}/`))),
  projects: report.projects.map((p) => [path.relative(root, p.project_root), p.framework, p.status, p.summary]),
  next: report.next,
});

/** Live processes whose environment carries a marker that starts with the run id. */
function carryingRun(runId: string): number[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((v) => v.startsWith(`RUN_TESTS_RUN_ID=${runId}`));
    } catch {
      return false;
    }
  }).map(Number);
}

suite('--all-projects and --jobs', () => {
  it('runs every project below the directory with the exact merged counts and failures, each log in its own run directory', async () => {
    const root = await monorepo();
    const run = await runJson(['--cwd', root, '--all-projects', '--jobs', '3']);
    const { report } = run;
    expect([run.exitCode, report.status, report.framework, report.project_root]).toEqual([1, 'failed', 'minitest+rspec', root]);
    expect(report.summary).toEqual({ run: 24, passed: 11, failures: 6, errors: 3, skips: 4 });
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.status, p.summary.run])).toEqual([
      ['packages/widgets', 'failed', 8], ['services/calc', 'failed', 3], ['services/shop', 'failed', 13],
    ]);
    expect(sorted(failures(report))).toEqual(ALL_FAILURES);
    expect(report.reason).toBe(`--all-projects: each project found below ${root} ran in its own root`);
    expect(report.warnings).toEqual([]);
    expect(fs.existsSync(path.join(root, '.run-tests'))).toBe(false);
    // One run id; each project's log and run.json in its own run directory, with its own marker.
    const markers = report.projects.map((p, index) => {
      const dir = path.join(p.project_root, '.run-tests/runs', report.run_id ?? '');
      expect([p.run_id, p.artifact]).toEqual([report.run_id, path.join(dir, 'test.log')]);
      const log = fs.readFileSync(path.join(dir, 'test.log'), 'utf8');
      const own = ['WidgetTest#test_size_is_wrong', 'ArithmeticTest#test_subtracts_wrongly', 'Calculator subtracts numbers'];
      expect(own.map((name) => log.includes(name))).toEqual(own.map((_, i) => i === index));
      return (fs.readJsonSync(path.join(dir, 'run.json')) as { marker?: string }).marker;
    });
    expect(markers).toEqual([1, 2, 3].map((n) => `${report.run_id}.${n}`));
  });

  it('gives the same merged report with --jobs 2 as with --jobs 1, in the same project order', async () => {
    const root = await monorepo();
    const serial = await runJson(['--cwd', root, '--all-projects', '--jobs', '1']);
    const parallel = await runJson(['--cwd', root, '--all-projects', '--jobs', '2']);
    expect(merged(root, parallel)).toEqual(merged(root, serial));
    expect(merged(root, serial).projects.map(([dir]) => dir)).toEqual(PROJECTS);
    // One after another, the processes carry the run id itself, as before --jobs.
    const serialRun = path.join(root, 'services/calc/.run-tests/runs', serial.report.run_id ?? '', 'run.json');
    expect(fs.readJsonSync(serialRun)).not.toHaveProperty('marker');
    // Files from several projects run at once too.
    const files = await runJson(['--cwd', root, '--jobs', '2', 'services/calc/test/arithmetic_test.rb', 'packages/widgets/test/widget_test.rb']);
    expect([files.report.summary, files.report.projects.map((p) => path.relative(root, p.project_root))])
      .toEqual([{ run: 9, passed: 5, failures: 2, errors: 1, skips: 1 }, ['services/calc', 'packages/widgets']]);
  });

  it('counts every project on one live line in CI, each failure named from the root as it happens', async () => {
    const root = await monorepo();
    const { exitCode, stderr } = await runCli(['--cwd', root, '--all-projects', '--jobs', '3'], { env: { CI: 'true' } });
    expect(exitCode).toBe(1);
    const lines = stderr.split('\n');
    const live = lines.filter((l) => /^(FAIL|ERROR) {2}/.test(l)).map((l) => /^\S+ {2}(.*) {2}(\S+):(\d+)$/.exec(l)?.slice(1, 3));
    expect(sorted(live)).toEqual(ALL_FAILURES.map(([name, file]) => [name, file]));
    // The last counts are all three projects' (minitest announces no total: a count alone).
    expect(lines.filter((l) => /^\d+ tests · /.test(l)).at(-1)).toMatch(/^24 tests · 9 failed · 4 skipped · \d+s$/);
  });

  it('prefixes each --stream line with its project when projects run at once', async () => {
    const root = await monorepo();
    const { exitCode, stderr } = await runCli(['--cwd', root, '--all-projects', '--jobs', '3', '--stream']);
    expect(exitCode).toBe(1);
    const lines = stderr.split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !/^\[(packages\/widgets|services\/calc|services\/shop)\] /.test(l))).toEqual([]);
    expect(lines).toContain('[services/calc] 3 runs, 3 assertions, 1 failures, 0 errors, 0 skips');
    expect(new Set(lines.map((l) => /^\[([^\]]+)\]/.exec(l)?.[1]))).toEqual(new Set(PROJECTS));
  });

  it('runs the directory itself when it is a project, beside the projects below it, and warns of none', async () => {
    const root = await tempRoot('jobs-self');
    await copyFixture('minitest-plain', root);
    await copyFixture('rspec-mixed', path.join(root, 'engines/shop'));
    const plain = await runJson(['--cwd', root]);
    expect(plain.report.warnings).toContainEqual(expect.stringMatching(/^not run: a project of its own below this directory/));
    const { report } = await runJson(['--cwd', root, '--all-projects']);
    expect(report.projects.map((p) => [path.relative(root, p.project_root) || '.', p.framework, p.summary.run])).toEqual([['.', 'minitest', 3], ['engines/shop', 'rspec', 13]]);
    expect(report.summary.run).toBe(16);
    expect(report.warnings).toEqual([]);
  });

  it("never takes a running project's processes for the leftovers of one that ended", async () => {
    const root = await tempRoot('jobs-apart');
    await copyFixture('minitest-plain', path.join(root, 'a'));
    await copyFixture('node-test-hang', path.join(root, 'b'));
    // a ends while b hangs until its timeout: b's processes are no leftovers of a's.
    const { exitCode, report } = await runJson(['--cwd', root, '--all-projects', '--jobs', '2', '--timeout', '4', '--kill-grace', '1'], { env: { HANG_PID_FILE: undefined } });
    expect([exitCode, report.status]).toEqual([124, 'timed_out']);
    // The signal reaches node --test and the file's process at once: node sometimes still
    // reports the file's death before it exits itself, and then that file is an error too
    // (as in node-test.test.ts); b's processes are never a's leftovers either way.
    const cutOff = report.projects[1]?.failed_tests.map((t) => [t.test_name, t.status]) ?? [];
    expect([[], [['test/hang.test.js', 'error']]]).toContainEqual(cutOff);
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.status, p.summary.run, p.summary.passed, p.warnings.filter((w) => w.startsWith('leaked'))]))
      .toEqual([['a', 'failed', 3, 2, []], ['b', 'timed_out', 1 + cutOff.length, 1, []]]);
    expect(fs.readFileSync(report.projects[1]?.artifact ?? '', 'utf8')).toMatch(/run-tests: timed out after 4s/);
  });

  it('stops the projects already running when planning another one fails, and exits 2', async () => {
    const root = await tempRoot('jobs-usage');
    await copyFixture('node-test-hang', path.join(root, 'a'));
    await copyFixture('minitest-plain', path.join(root, 'b'));
    // node:test takes the argument, minitest through rake takes none.
    const { exitCode, stdout, stderr } = await runCli(['--cwd', root, '--all-projects', '--jobs', '2', '--kill-grace', '1', '--json', '--', '--test-concurrency=1'], { env: { HANG_PID_FILE: undefined } });
    expect([exitCode, stdout, stderr]).toEqual([2, '', 'run-tests: minitest takes no arguments after --: run-tests cannot pass them on to it\n']);
    // a ran or not; what it started is gone, and a run of it is recorded as interrupted.
    const runs = path.join(root, 'a/.run-tests/runs');
    for (const id of fs.existsSync(runs) ? fs.readdirSync(runs) : []) {
      expect([id, (fs.readJsonSync(path.join(runs, id, 'report.json')) as RunReport).status]).toEqual([id, 'interrupted']);
      expect(carryingRun(id)).toEqual([]);
    }
  });

  it('refuses what it cannot do with exit 2 before anything runs', async () => {
    const root = await monorepo();
    for (const [args, message] of [
      [['--jobs', '0'], '--jobs must be a whole number from 1 to 1024, got 0'],
      [['--jobs', 'two'], '--jobs must be a whole number, got "two"'],
      [['--jobs', '1.5'], '--jobs must be a whole number, got "1.5"'],
      [['--all-projects', 'services/calc'], `--all-projects runs every project below ${root}; it cannot be combined with files: give the projects' directories as files instead`],
      [['--all-projects', '--command', 'true', '--report', 'tap:-'], `--all-projects runs every project below ${root}; it cannot be combined with --command`],
    ] as const) {
      const { exitCode, stdout, stderr } = await runCli(['--cwd', root, ...args]);
      expect([args, exitCode, stdout, stderr]).toEqual([args, 2, '', `run-tests: ${message}\n`]);
    }
    expect(fs.readdirSync(path.join(root, 'services/calc'))).not.toContain('.run-tests');
  });
});

describe('Ctrl-C during a parallel run', () => {
  it('interrupts every running project and leaves no process behind', async () => {
    const root = await tempRoot('jobs-hang');
    const pidFiles = ['a', 'b'].map((dir) => path.join(root, dir, 'grandchild.pid'));
    for (const dir of ['a', 'b']) {
      await copyFixture('node-test-hang', path.join(root, dir));
    }
    let cliPid = 0;
    // Without HANG_PID_FILE, each hanging test writes grandchild.pid in its own project.
    const running = runJson(['--cwd', root, '--all-projects', '--jobs', '2', '--kill-grace', '1'], { env: { HANG_PID_FILE: undefined }, onSpawn: (pid) => { cliPid = pid; } });
    // Both hang at once (one after another, the second would never start), each after its
    // first test's result reached its own run directory.
    const passed = (dir: string): boolean => fs.readdirSync(path.join(root, dir, '.run-tests/runs'), { recursive: true, encoding: 'utf8' })
      .some((f) => f.endsWith('node-test-events.jsonl') && fs.readFileSync(path.join(root, dir, '.run-tests/runs', f), 'utf8').includes('passes first'));
    await waitFor('both hanging tests to start', () => pidFiles.every((f) => fs.existsSync(f) && fs.readFileSync(f, 'utf8') !== '') && ['a', 'b'].every(passed));
    process.kill(cliPid, 'SIGINT');
    const { exitCode, report } = await running;
    expect([exitCode, report.status, report.summary.passed]).toEqual([130, 'interrupted', 2]);
    expect(report.projects.map((p) => [path.relative(root, p.project_root), p.status])).toEqual([['a', 'interrupted'], ['b', 'interrupted']]);
    for (const file of pidFiles) {
      const pid = Number(fs.readFileSync(file, 'utf8'));
      await waitFor(`grandchild ${pid} to die`, () => processGone(pid));
    }
    for (const p of report.projects) expect(fs.readFileSync(p.artifact ?? '', 'utf8')).toMatch(/run-tests: interrupted/);
    expect(carryingRun(report.run_id ?? '(none)')).toEqual([]);
  });
});
