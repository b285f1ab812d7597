import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { failureRecord, reportedTest, shardReport } from '../support/shard-report.js';
import { copyFixture, failures, hasTools, junitTests, runCli, runJson } from './helpers.js';

/** A directory with the reports given, as a CI merge job has them after the download. */
async function reportsDir(reports: Record<string, unknown>): Promise<string> {
  const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-merge-')));
  for (const [name, report] of Object.entries(reports)) await fs.writeFile(path.join(dir, name), typeof report === 'string' ? report : JSON.stringify(report));
  return dir;
}

/** Three shards of one partition, the second with a failure, all of project `root`. */
function threeShards(root: string): Record<string, RunReport> {
  const failing = shardReport(2, 3, {
    status: 'failed', exit_code: 1, summary: { run: 3, passed: 1, failures: 1, errors: 0, skips: 1 },
    failed_tests: [failureRecord('c2', 'test/2.test.js', 7)],
    tests: [reportedTest('a2', 'test/2.test.js'), reportedTest('s2', 'test/2.test.js', 'skipped'), reportedTest('c2', 'test/2.test.js', 'failed', 'c2 broke\n  at test/2.test.js:7')],
  });
  return Object.fromEntries([shardReport(1, 3), failing, shardReport(3, 3)].map((r, i) => [`shard-${i + 1}.json`, { ...r, project_root: root }]));
}

const commands = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('::'));

describe('run-tests merge', () => {
  it('merges shard reports into one: --json valid against the schema, exit 1 for a failure, the human view naming its parts', async () => {
    const dir = await reportsDir(threeShards('/ci/project'));
    const files = ['shard-3.json', 'shard-1.json', 'shard-2.json'];
    const { exitCode, report, stderr } = await runJson(['merge', ...files], { cwd: dir });
    expect([exitCode, stderr, report.source, report.status, report.exit_code]).toEqual([1, '', 'merged', 'failed', 1]);
    expect(report.summary).toEqual({ run: 7, passed: 5, failures: 1, errors: 0, skips: 1 });
    expect(report.failed_tests.map((t) => [t.test_name, t.file, t.line])).toEqual([['c2', 'test/2.test.js', 7]]);
    expect(report.parts?.map((p) => [p.index, p.path, p.status])).toEqual([[1, 'shard-1.json', 'passed'], [2, 'shard-2.json', 'failed'], [3, 'shard-3.json', 'passed']]);
    expect(report.unit_durations).toEqual({ 'test/1.test.js': 100, 'test/2.test.js': 200, 'test/3.test.js': 300 });
    const human = await runCli(['merge', ...files], { cwd: dir });
    expect([human.exitCode, human.stderr]).toEqual([1, '']);
    const lines = human.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'run-tests · jest · /ci/project',
      'merged from 3 shard reports: shard 1 shard-1.json (passed), shard 2 shard-2.json (failed), shard 3 shard-3.json (passed)',
    ]);
    expect(lines).toContain('FAILED  5 passed, 1 failed, 0 errors, 1 skipped in 3.00s');
    // A shard that listed only some of its failures: the rest are in its tests.
    await fs.writeJson(path.join(dir, 'cut.json'), { ...threeShards('/ci/project')['shard-2.json'], truncated: { failed_tests: 3 } });
    const capped = await runCli(['merge', 'shard-1.json', 'cut.json', 'shard-3.json'], { cwd: dir });
    expect(capped.stdout).toContain("… 3 more failures not listed (--max-failures); all are in the shards' reports (their tests)\n");
  });

  it('writes JUnit of every test of every shard, a failure with its message', async () => {
    const dir = await reportsDir(threeShards('/ci/project'));
    const junit = path.join(dir, 'out', 'junit.xml');
    await fs.mkdir(path.dirname(junit));
    const { exitCode } = await runCli(['merge', 'shard-1.json', 'shard-2.json', 'shard-3.json', '--junit', junit], { cwd: dir });
    expect(exitCode).toBe(1);
    expect(await junitTests(junit)).toEqual([
      ['test/1.test.js', 'a1', 'passed'], ['test/1.test.js', 'b1', 'passed'],
      ['test/2.test.js', 'a2', 'passed'], ['test/2.test.js', 'c2', 'failure'], ['test/2.test.js', 's2', 'skipped'],
      ['test/3.test.js', 'a3', 'passed'], ['test/3.test.js', 'b3', 'passed'],
    ]);
    const xml = await fs.readFile(junit, 'utf8');
    expect(xml).toContain('<testsuites name="run-tests jest" tests="7" failures="1" errors="0" time="0.035">');
    expect(xml).toContain('<failure message="c2 broke" type="failure">c2 broke\n  at test/2.test.js:7</failure>');
  });

  it('is error (exit 3) for a missing, doubled or foreign shard, naming each, and its JUnit says so', async () => {
    const shards = threeShards('/ci/project');
    const dir = await reportsDir({ ...shards, 'again.json': shards['shard-1.json'], 'other.json': { ...shards['shard-3.json'], shard: { index: 3, count: 4, units: [], partition: 'p1' } } });
    const junit = path.join(dir, 'junit.xml');
    const { exitCode, report } = await runJson(['merge', 'shard-1.json', 'again.json', 'other.json', 'nowhere.json', '--junit', junit], { cwd: dir });
    expect([exitCode, report.status, report.summary.run]).toEqual([3, 'error', null]);
    expect(report.error).toEqual({
      code: 'MERGE_INVALID',
      message: 'the shard reports cannot be merged: nowhere.json: could not be read: '
        + `ENOENT: no such file or directory, stat '${dir}/nowhere.json'; other.json is shard 3 of 4, not of the 3 shards of shard-1.json: a shard of another partition; `
        + 'shard 1 of 3 given twice: shard-1.json, again.json; missing shard 2 of 3; missing shard 3 of 3',
    });
    expect(await junitTests(junit)).toEqual([['undefined', 'run-tests: error', 'error']]);
    const human = await runCli(['merge', 'shard-1.json', 'shard-2.json'], { cwd: dir });
    expect(human.exitCode).toBe(3);
    expect(human.stdout).toContain('error: the shard reports cannot be merged: missing shard 3 of 3\n');
    expect(human.stdout).toContain('ERROR  ? passed, ? failed, ? errors, ? skipped\n');
  });

  it('is a usage error (exit 2) without a report, or with --junit onto one of them', async () => {
    const dir = await reportsDir(threeShards('/ci/project'));
    const none = await runCli(['merge'], { cwd: dir });
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([2, '', "error: missing required argument 'reports'\n"]);
    const onto = await runCli(['merge', 'shard-1.json', '--junit', 'shard-1.json'], { cwd: dir });
    expect([onto.exitCode, onto.stdout, onto.stderr]).toEqual([2, '', `run-tests: --junit "shard-1.json": ${dir}/shard-1.json is the file this command reads; write the XML elsewhere\n`]);
  });

  it('exits 4 when no shard ran a test, 0 with --allow-no-tests, as a run does', async () => {
    const empty = (index: number) => shardReport(index, 2, { status: 'no_tests', exit_code: 4, summary: { run: 0, passed: 0, failures: 0, errors: 0, skips: 0 }, tests: [], shard: { index, count: 2, units: [], partition: 'p1' } });
    const dir = await reportsDir({ 'one.json': empty(1), 'two.json': empty(2) });
    const strict = await runJson(['merge', 'one.json', 'two.json'], { cwd: dir });
    const allowed = await runJson(['merge', 'one.json', 'two.json', '--allow-no-tests'], { cwd: dir });
    expect([strict.exitCode, strict.report.status, allowed.exitCode, allowed.report.status, allowed.report.exit_code]).toEqual([4, 'no_tests', 0, 'no_tests', 0]);
  });

  it('under GitHub Actions annotates the failures and appends the step summary, as a run does', async () => {
    const root = await reportsDir({});
    const dir = await reportsDir(threeShards(root));
    const summary = path.join(dir, 'summary.md');
    await fs.writeFile(summary, '');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: root, GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'octo/repo', GITHUB_SHA: 'abc' };
    const { exitCode, stderr } = await runJson(['merge', 'shard-1.json', 'shard-2.json', 'shard-3.json'], { cwd: dir, env });
    expect(exitCode).toBe(1);
    expect(commands(stderr)).toEqual(['::error file=test/2.test.js,line=7,title=c2::c2 broke']);
    expect(await fs.readFile(summary, 'utf8')).toBe([
      '',
      '## run-tests: failed (jest)',
      '',
      '5 passed, 1 failed, 0 errors, 1 skipped in 3.00s · exit code 1',
      '',
      'Merged from shard 1 (shard-1.json, passed), shard 2 (shard-2.json, failed), shard 3 (shard-3.json, passed).',
      '',
      '### Failures (1)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      '| c2 | failed | [test/2.test.js:7](https://github.example/octo/repo/blob/abc/test/2.test.js#L7) | c2 broke |',
      '',
      '',
    ].join('\n'));
    const invalid = await runCli(['merge', 'shard-1.json'], { cwd: dir, env: { ...env, GITHUB_STEP_SUMMARY: undefined } });
    expect(commands(invalid.stdout)).toEqual(['::error title=run-tests%3A error::MERGE_INVALID: the shard reports cannot be merged: missing shard 2 of 3; missing shard 3 of 3']);
  });
});

describe('run-tests merge under GitHub Actions, of real shards', () => {
  it("tables the merged failures in the step summary, bounded by merge's --max-failures, the rest in the shards' reports", async () => {
    const dir = await copyFixture('node-test-summary');
    const out = await reportsDir({});
    for (const index of [1, 2]) {
      const shard = await runCli(['--cwd', dir, '--shard', `${index}/2`, '--json']);
      expect(shard.exitCode).toBe(1);
      await fs.writeFile(path.join(out, `shard-${index}.json`), shard.stdout);
    }
    const summary = path.join(out, 'summary.md');
    await fs.writeFile(summary, '');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir, GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'octo/repo', GITHUB_SHA: 'abc' };
    const merged = await runCli(['merge', 'shard-2.json', 'shard-1.json', '--max-failures', '3'], { cwd: out, env });
    expect(merged.exitCode).toBe(1);
    const link = (line: number) => `[test/table.test.js:${line}](https://github.example/octo/repo/blob/abc/test/table.test.js#L${line})`;
    // Shard 1 ran table.test.js, shard 2 broken.test.js (balanced by file sizes): the load error is past the bound.
    expect((await fs.readFile(summary, 'utf8')).split('\n').slice(4)).toEqual([
      '',
      'Merged from shard 1 (shard-1.json, failed), shard 2 (shard-2.json, failed).',
      '',
      '### Failures (3 of 5)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      `| a&#124;b | failed | ${link(7)} | left &#124; right |`,
      `| &lt;script&gt;alert(1)&lt;/script&gt; | failed | ${link(11)} | \\\`code\\\` &amp; &lt;b&gt;bold&lt;/b&gt; |`,
      `| long | failed | ${link(17)} | ${'x'.repeat(199)}… |`,
      '',
      "… 2 more failures not listed (--max-failures); all are in the shards' reports (their tests)",
      '',
      '',
    ]);
  });
});

/** Runs every shard of n for n in `counts`, merges them, and compares the merge with the full run. */
async function mergesAsFullRun(fixture: string, counts: readonly number[]): Promise<{ out: string; last: string[] }> {
  const dir = await copyFixture(fixture);
  const out = await reportsDir({});
  const full = await runJson(['--cwd', dir, '--junit', path.join(out, 'full.xml')]);
  expect([full.exitCode, full.report.status]).toEqual([1, 'failed']);
  const fullTests = await junitTests(path.join(out, 'full.xml'));
  let files: string[] = [];
  for (const count of counts) {
    files = [];
    for (let index = 1; index <= count; index++) {
      const shard = await runCli(['--cwd', dir, '--shard', `${index}/${count}`, '--json']);
      files.push(path.join(out, `${count}-${index}.json`));
      await fs.writeFile(files.at(-1) as string, shard.stdout);
    }
    const junit = path.join(out, `${count}.xml`);
    const { exitCode, report } = await runJson(['merge', ...files, '--junit', junit]);
    expect([count, exitCode, report.status, report.summary]).toEqual([count, full.exitCode, full.report.status, full.report.summary]);
    expect([count, failures(report).sort()]).toEqual([count, failures(full.report).sort()]);
    expect([count, report.failed_tests.map((t) => t.message).sort()]).toEqual([count, full.report.failed_tests.map((t) => t.message).sort()]);
    expect(Object.keys(report.unit_durations ?? {}).sort()).toEqual(Object.keys(full.report.unit_durations ?? {}).sort());
    expect(report.parts?.map((p) => [p.index, p.path])).toEqual(files.map((f, i) => [i + 1, f]));
    expect([count, await junitTests(junit)]).toEqual([count, fullTests]);
  }
  return { out, last: files };
}

const withRuby = hasTools('ruby', 'bundle', 'rspec') ? describe : describe.skip;

describe('run-tests merge of real shards', () => {
  it('node:test, n = 1..3 (3: one shard empty): the full run\'s status, counts, failures and JUnit tests exactly', async () => {
    await mergesAsFullRun('node-test-mixed', [1, 2, 3]);
  });
});

withRuby('run-tests merge of real shards (rspec)', () => {
  it('n = 3 and 6 (one shard empty): the full run\'s status, counts, failures and JUnit tests exactly; a shard left out is error', async () => {
    const { last: six } = await mergesAsFullRun('rspec-shards', [3, 6]);
    // The last partition's shards, one left out and another's given twice: error, never a pass.
    const broken = await runJson(['merge', ...six.slice(0, 5), six[0] as string]);
    expect([broken.exitCode, broken.report.status, broken.report.error?.message]).toEqual([3, 'error',
      `the shard reports cannot be merged: shard 1 of 6 given twice: ${six[0]}, ${six[0]}; missing shard 6 of 6`]);
  });
});
