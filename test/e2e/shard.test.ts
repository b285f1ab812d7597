import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { ReportedTest, RunReport } from '../../src/model/report.js';
import { copyFixture, failures, hasTools, junitTests, once, processGone, runCli, runJson, waitFor } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;
const NODE_UNITS = ['test/alpha.test.js', 'test/bravo.test.js', 'test/charlie.test.js', 'test/delta.test.js'];

const UNITS = ['spec/a_spec.rb', 'spec/b_spec.rb', 'spec/c_spec.rb', 'spec/d_spec.rb', 'spec/e_spec.rb'];
const FAILURES = [
  ['Alpha divides wrongly', 'spec/a_spec.rb', 12, 'failed'],
  ['Charlie misses a key', 'spec/c_spec.rb', 7, 'error'],
];
const key = (t: Pick<ReportedTest, 'file' | 'name'>): string => `${t.file} ${t.name}`;

/** The shards 1..n of one partition, run one after another in the same checkout. */
async function shards(dir: string, count: number, extra: readonly string[] = []): Promise<{ exitCode: number | null; report: RunReport }[]> {
  const runs = [];
  for (let index = 1; index <= count; index++) runs.push(await runJson(['--cwd', dir, '--shard', `${index}/${count}`, ...extra]));
  return runs;
}

/** One full run of a copy of `fixture` with --junit, and the JUnit file it wrote: one
 * test reads them and runs shards beside them, another balances by that file's times. */
const fullRun = (fixture: string) => once(async () => {
  const dir = await copyFixture(fixture);
  const junit = path.join(dir, 'full.xml');
  const full = await runJson(['--cwd', dir, '--junit', junit]);
  return { dir, junit, full, xml: await fs.readFile(junit, 'utf8') };
});
const rspecFull = fullRun('rspec-shards');
const nodeFull = fullRun('node-test-shards');

suite('--shard on rspec', () => {
  it('n shards together run the full run\'s tests, each exactly once, from one partition', async () => {
    const { dir, junit, full } = await rspecFull();
    expect(full.exitCode).toBe(1);
    expect(full.report.summary).toEqual({ run: 11, passed: 9, failures: 1, errors: 1, skips: 0 });
    // Every run says how long each unit took; a full run is no shard.
    expect(Object.keys(full.report.unit_durations ?? {})).toEqual(UNITS);
    expect(full.report.shard).toBeUndefined();
    expect(full.report.tests).toBeUndefined();
    const expected = (await junitTests(junit)).map(([file, name]) => `${file} ${name}`).sort();
    expect(expected).toHaveLength(11);
    for (const count of [1, 2, 3]) {
      const runs = await shards(dir, count);
      const ran = runs.flatMap((r) => (r.report.tests ?? []).map(key));
      expect([count, [...ran].sort()]).toEqual([count, expected]);
      expect(runs.flatMap((r) => r.report.shard?.units ?? []).sort()).toEqual(UNITS);
      expect(new Set(runs.map((r) => r.report.shard?.partition)).size).toBe(1);
      expect(runs.map((r) => [r.report.shard?.index, r.report.shard?.count, r.report.shard?.total_units, r.report.shard?.balanced_by]))
        .toEqual(runs.map((_, i) => [i + 1, count, 5, 'recorded runs']));
      expect(runs.flatMap((r) => failures(r.report))).toEqual(expect.arrayContaining(FAILURES));
      expect(runs.reduce((sum, r) => sum + (r.report.summary.run ?? 0), 0)).toBe(11);
      for (const { report } of runs) {
        // A shard's tests are those of its units, and what its command ran.
        expect(new Set(report.tests?.map((t) => t.file))).toEqual(new Set(report.shard?.units));
        expect(report.command).toBe(`bundle exec rspec ${report.shard?.units.join(' ')}`);
      }
    }
  });

  it('balances by file size with no recorded durations, the same parts on checkouts at different paths', async () => {
    const [one, two] = await Promise.all([copyFixture('rspec-shards'), copyFixture('rspec-shards')]);
    const a = await shards(one as string, 3);
    const b = await shards(two as string, 3);
    // By bytes (326, 222, 153, 96, 82): a alone; b, then e; c, then d.
    expect(a.map((r) => r.report.shard?.units)).toEqual([['spec/a_spec.rb'], ['spec/b_spec.rb', 'spec/e_spec.rb'], ['spec/c_spec.rb', 'spec/d_spec.rb']]);
    expect(a.map((r) => r.report.shard)).toEqual(b.map((r) => r.report.shard));
    expect(a[0]?.report.shard?.balanced_by).toBe('file sizes');
    const failing = a[2]?.report.tests?.find((t) => t.status === 'error');
    expect(failing).toMatchObject({ name: 'Charlie misses a key', file: 'spec/c_spec.rb', line: 7, id: './spec/c_spec.rb[1:2]' });
    expect(failing?.message).toMatch(/KeyError/);
    expect(typeof failing?.duration_ms).toBe('number');
    // Each shard ran a part of the suite: shard 3's results do not erase shard 1's failure.
    const last = await fs.readJson(path.join(one as string, '.run-tests/last-failures.json'));
    expect(last.failed_tests.map((t: { test_name: string }) => t.test_name)).toEqual(['Charlie misses a key', 'Alpha divides wrongly']);
  });

  it('starts no runner for a shard with no units: no_tests, recorded, and the suite is not run', async () => {
    const dir = await copyFixture('rspec-shards');
    const { exitCode, report } = await runJson(['--cwd', dir, '--shard', '6/6']);
    expect(exitCode).toBe(4);
    expect(report).toMatchObject({ status: 'no_tests', command: null, exit_status: null, artifact: null, tests: [], summary: { run: 0, passed: 0, failures: 0, errors: 0, skips: 0 } });
    expect(report.shard).toMatchObject({ index: 6, count: 6, units: [], total_units: 5 });
    expect(report.warnings).toEqual(['shard 6/6 has no units: 5 units among 6 shards']);
    expect(report.unit_durations).toBeUndefined();
    expect(fs.existsSync(path.join(dir, '.run-tests/last-failures.json'))).toBe(false);
    expect(await fs.readJson(path.join(dir, '.run-tests/runs', report.run_id ?? '', 'report.json'))).toEqual(report);
    expect((await runJson(['--cwd', dir, '--shard', '6/6', '--allow-no-tests'])).exitCode).toBe(0);
    const human = await runCli(['--cwd', dir, '--shard', '5/6']);
    expect(human.stdout).toContain('shard 5/6: 1 of 5 units, balanced by file sizes');
  });

  it('balances by --timings from a run-tests report, keyed from where it was run, never by its absolute root', async () => {
    const repo = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-shard-repo-')));
    await copyFixture('rspec-shards', path.join(repo, 'app'));
    const timings = path.join(repo, 'timings.json');
    // A report of several projects written on another machine; c_spec.rb gets the median (2005).
    await fs.writeJson(timings, {
      schema_version: 1, status: 'passed', project_root: '/ci/build/repo', unit_durations: { 'app/spec/e_spec.rb': 5000 },
      projects: [{ schema_version: 1, status: 'passed', project_root: '/ci/build/repo/app', unit_durations: { 'spec/d_spec.rb': 4000, 'spec/a_spec.rb': 10, 'spec/b_spec.rb': 10 } }],
    });
    const runs = [1, 2].map((i) => runJson(['--cwd', repo, 'app/spec', '--shard', `${i}/2`, '--timings', 'timings.json']));
    const [one, two] = await Promise.all(runs);
    // e 5000 and d 4000 open the parts; c (2005) joins d, a and b (10 each) join e.
    expect([one?.report.shard?.units, two?.report.shard?.units]).toEqual([['spec/a_spec.rb', 'spec/b_spec.rb', 'spec/e_spec.rb'], ['spec/c_spec.rb', 'spec/d_spec.rb']]);
    expect(one?.report.shard?.balanced_by).toBe('--timings timings.json');
    expect(two?.report.tests?.map((t) => t.name)).toEqual(['Charlie finds a key', 'Charlie misses a key', 'Delta sorts']);
  });

  it('balances by --timings from a JUnit file, its testcases\' times summed per file', async () => {
    const dir = await copyFixture('rspec-shards');
    const junit = path.join(dir, 'full.xml');
    // The JUnit file a full run wrote, with times set: d 9 s; c 2 x 4 s; the rest about nothing.
    const seconds: Record<string, string> = { 'spec/d_spec.rb': '9', 'spec/c_spec.rb': '4' };
    const xml = (await rspecFull()).xml.replace(/<testcase([^>]*?) time="[^"]*"([^>]*?) file="([^"]+)"/g,
      (_all, before: string, between: string, file: string) => `<testcase${before} time="${seconds[file] ?? '0.001'}"${between} file="${file}"`);
    expect(xml).toContain('time="9"');
    await fs.writeFile(junit, xml);
    const runs = await shards(dir, 2, ['--timings', junit]);
    expect(runs.map((r) => r.report.shard?.units)).toEqual([['spec/d_spec.rb'], ['spec/a_spec.rb', 'spec/b_spec.rb', 'spec/c_spec.rb', 'spec/e_spec.rb']]);
    // Given as an absolute path, inside the project: shown relative to it.
    expect(runs[0]?.report.shard?.balanced_by).toBe('--timings full.xml');
  });

  it('with --failed-only, deals out the failures\' units: each shard reruns its own, and keeps the others\' recorded', async () => {
    const dir = await copyFixture('rspec-shards');
    await runJson(['--cwd', dir]);
    const runs = await shards(dir, 2, ['--failed-only']);
    expect(runs.map((r) => r.report.shard?.total_units)).toEqual([2, 2]);
    expect(runs.map((r) => r.report.shard?.units.length)).toEqual([1, 1]);
    expect(runs.flatMap((r) => failures(r.report)).sort()).toEqual([...FAILURES].sort());
    expect(runs.map((r) => r.report.rerun)).toEqual([{ selected: 1, not_run: [] }, { selected: 1, not_run: [] }]);
    const last = await fs.readJson(path.join(dir, '.run-tests/last-failures.json'));
    expect(last.failed_tests.map((t: { test_name: string }) => t.test_name).sort()).toEqual(FAILURES.map((f) => f[0]).sort());
  });

  it('refuses what it cannot honour, with exit 2 and the reason', async () => {
    const repo = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-shard-refused-')));
    await Promise.all([copyFixture('rspec-shards', path.join(repo, 'one')), copyFixture('rspec-shards', path.join(repo, 'two'))]);
    await fs.writeFile(path.join(repo, 'junk.txt'), 'not a report');
    const refused = async (args: string[]): Promise<string> => {
      const result = await runCli(['--cwd', repo, ...args]);
      expect([args, result.exitCode, result.stdout]).toEqual([args, 2, '']);
      return result.stderr.trim();
    };
    expect(await refused(['one', '--shard', '0/2'])).toBe('run-tests: --shard 0/2: the index must be from 1 to the count (2), got 0');
    expect(await refused(['one', '--shard', '1/2', '--id', 'x'])).toMatch(/cannot be combined with --id/);
    expect(await refused(['one/spec/a_spec.rb:3', '--shard', '1/2'])).toMatch(/cannot be combined with one\/spec\/a_spec\.rb:3/);
    expect(await refused(['one', 'two', '--shard', '1/2'])).toBe("run-tests: --shard splits one project's suite, but the selection spans 2 projects (one, two): run each project's shards separately, with --cwd or its files");
    expect(await refused(['one', '--timings', 'junk.txt'])).toBe('run-tests: --timings balances the parts of --shard; give --shard <index>/<count> with it');
    expect(await refused(['one', '--shard', '1/2', '--timings', 'junk.txt'])).toMatch(/^run-tests: --timings .*junk\.txt is neither a run-tests JSON report nor JUnit XML/);
    expect(await refused(['one', '--shard', '1/2', '--timings', 'absent.json'])).toMatch(/^run-tests: --timings: file "absent.json" does not exist/);
    // Nothing ran: no run directory in either project.
    expect(fs.existsSync(path.join(repo, 'one/.run-tests/runs'))).toBe(false);
  });
});

describe('--shard on node:test', () => {
  it('n shards together run the full run\'s tests, each exactly once; an empty one runs nothing', async () => {
    const { dir, junit, full } = await nodeFull();
    expect([full.exitCode, full.report.summary]).toEqual([1, { run: 7, passed: 5, failures: 1, errors: 0, skips: 1 }]);
    expect(Object.keys(full.report.unit_durations ?? {})).toEqual(NODE_UNITS);
    const expected = (await junitTests(junit)).map(([file, name, outcome]) => `${file} ${name} ${outcome}`).sort();
    const outcome = (status: string): string => ({ failed: 'failure', error: 'error', skipped: 'skipped' })[status] ?? 'passed';
    for (const count of [1, 2, 3, 5]) {
      const runs = await shards(dir, count, ['--allow-no-tests']);
      const ran = runs.flatMap((r) => (r.report.tests ?? []).map((t) => `${key(t)} ${outcome(t.status)}`));
      expect([count, ran.sort()]).toEqual([count, expected]);
      expect(runs.flatMap((r) => r.report.shard?.units ?? []).sort()).toEqual(NODE_UNITS);
      expect(new Set(runs.map((r) => r.report.shard?.partition)).size).toBe(1);
    }
    // Five shards of four files: the last is given none, and starts no node.
    const empty = await runJson(['--cwd', dir, '--shard', '5/5']);
    expect(empty).toMatchObject({ exitCode: 4, report: { status: 'no_tests', command: null, shard: { units: [], total_units: 4 } } });
  });

  it('balances by --timings from the JUnit file a node:test run wrote', async () => {
    const dir = await copyFixture('node-test-shards');
    const junit = path.join(dir, 'full.xml');
    // The JUnit file a full run wrote, where delta's one test takes 5 s, the others nearly nothing: delta alone in a part.
    const xml = (await nodeFull()).xml.replace(/<testcase([^>]*?) time="[^"]*"([^>]*?) file="([^"]+)"/g,
      (_all, before: string, between: string, file: string) => `<testcase${before} time="${file === 'test/delta.test.js' ? '5' : '0.001'}"${between} file="${file}"`);
    await fs.writeFile(junit, xml);
    const runs = await shards(dir, 2, ['--timings', junit]);
    expect(runs.map((r) => r.report.shard?.units)).toEqual([['test/delta.test.js'], ['test/alpha.test.js', 'test/bravo.test.js', 'test/charlie.test.js']]);
    expect(runs.map((r) => r.report.tests?.length)).toEqual([1, 6]);
  });
});

(hasTools('python3', 'pytest-3') ? describe : describe.skip)('--shard interrupted while the runner lists its units', () => {
  it('Ctrl-C stops the listing and what it started at once: interrupted, exit 130, nothing left', async () => {
    const dir = await copyFixture('pytest-mixed');
    const pidFile = path.join(dir, 'collecting.pid');
    // Collection imports conftest.py: here it starts a process of its own and hangs.
    await fs.writeFile(path.join(dir, 'conftest.py'), `import os, subprocess, time\nchild = subprocess.Popen(['sleep', '300'])\nopen(${JSON.stringify(pidFile)}, 'w').write(str(child.pid))\ntime.sleep(300)\n`);
    let cliPid = 0;
    const running = runJson(['--cwd', dir, '--shard', '1/2'], { onSpawn: (pid) => { cliPid = pid; } });
    await waitFor('the listing to start collecting', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '');
    process.kill(cliPid, 'SIGINT');
    const { exitCode, report } = await running;
    expect([exitCode, report.status, report.shard, report.summary.run]).toEqual([130, 'interrupted', undefined, null]);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitFor(`collection's child ${pid} to die`, () => processGone(pid));
  });
});
