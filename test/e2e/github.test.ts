import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, REPO, runCli, runJson } from './helpers.js';

/** A job's environment, with the workspace one level above the project (a monorepo's package). */
const jobEnv = (dir: string, summary: string | undefined): NodeJS.ProcessEnv => ({
  GITHUB_ACTIONS: 'true',
  GITHUB_STEP_SUMMARY: summary,
  GITHUB_WORKSPACE: path.dirname(dir),
  GITHUB_SERVER_URL: 'https://github.example',
  GITHUB_REPOSITORY: 'octo/repo',
  GITHUB_SHA: 'abc123',
});

const commands = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('::'));
/** The step summary with its one timing figure made stable. */
const stable = (markdown: string): string => markdown.replace(/ in \d+\.\d\ds · /, ' in <s> · ');

// Our one annotation of vitest's failures: the message whole, vitest's code frame included.
const OURS = "::error file=test/math.test.ts,line=20,title=math > parses config::SyntaxError: Expected property name or '}' in JSON at position 1%0A%0A1| export const add = (a: number, b: number): number => a + b;%0A2| export const parse = (text: string): unknown => JSON.parse(text);%0A |                                                      ^%0A3|";

describe('under GitHub Actions (GITHUB_ACTIONS=true)', () => {
  it('annotates each failure and warning with escaped properties and data, and appends the step summary', async () => {
    const dir = await copyFixture('node-test-github');
    const summary = path.join(path.dirname(dir), `${path.basename(dir)}-summary.md`);
    await fs.writeFile(summary, '# an earlier step\n');
    const { exitCode, stdout, stderr } = await runCli(['--cwd', dir], { env: jobEnv(dir, summary) });
    expect([exitCode, stderr]).toEqual([1, '']);
    const file = `${path.basename(dir)}/test/odd%2Cname%25.test.js`;
    expect(commands(stdout)).toEqual([
      `::error file=${file},line=14,title=100%25 %3A%3A done%2C really::first line%0Asecond: 50%25, done`,
      `::error file=${file},line=18,title=two%0Alines::::warning::not a command`,
      '::warning title=run-tests::files of the project changed while the tests ran (data.txt): the result may not describe the tree as it is now',
    ]);
    // The annotations first, then the report as a person reads it.
    expect(stdout.split('\n')[3]).toBe(`run-tests · node-test · ${dir}`);
    const link = `https://github.example/octo/repo/blob/abc123/${file}`;
    expect(stable(await fs.readFile(summary, 'utf8'))).toBe([
      '# an earlier step',
      '',
      '## run-tests: failed (node-test)',
      '',
      '1 passed, 2 failed, 0 errors, 0 skipped in <s> · exit code 1',
      '',
      '### Failures (2)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      `| 100% :: done, really | failed | [test/odd,name%.test.js:14](${link}#L14) | first line |`,
      `| two lines | failed | [test/odd,name%.test.js:18](${link}#L18) | ::warning::not a command |`,
      '',
      'Rerun:',
      '',
      '```sh',
      `run-tests --cwd ${dir} --failed-only`,
      '```',
      '',
      '',
    ].join('\n'));
  });

  it('with --json keeps stdout one JSON document and annotates on stderr, which GitHub reads too', async () => {
    const dir = await copyFixture('node-test-github');
    const { exitCode, report, stderr } = await runJson(['--cwd', dir], { env: { ...jobEnv(dir, undefined), GITHUB_WORKSPACE: dir } });
    expect([exitCode, report.status, report.failed_tests.length]).toEqual([1, 'failed', 2]);
    expect(commands(stderr)).toEqual([
      '::error file=test/odd%2Cname%25.test.js,line=14,title=100%25 %3A%3A done%2C really::first line%0Asecond: 50%25, done',
      '::error file=test/odd%2Cname%25.test.js,line=18,title=two%0Alines::::warning::not a command',
      '::warning title=run-tests::files of the project changed while the tests ran (data.txt): the result may not describe the tree as it is now',
    ]);
    // --max-failures bounds the annotations as it bounds the report's list.
    const capped = await runJson(['--cwd', dir, '--max-failures', '1'], { env: { ...jobEnv(dir, undefined), GITHUB_WORKSPACE: dir } });
    expect([capped.report.failed_tests.length, capped.report.truncated]).toEqual([1, { failed_tests: 1 }]);
    expect(commands(capped.stderr).slice(0, 2)).toEqual([
      '::error file=test/odd%2Cname%25.test.js,line=14,title=100%25 %3A%3A done%2C really::first line%0Asecond: 50%25, done',
      `::warning title=run-tests::1 more failed tests are not annotated (--max-failures 1); all are in ${dir}/.run-tests/last-failures.json`,
    ]);
  });

  it('tables every failure and load error in the step summary, escaped for Markdown, and bounds the table by --max-failures', async () => {
    const dir = await copyFixture('node-test-summary');
    const summary = path.join(path.dirname(dir), `${path.basename(dir)}-summary.md`);
    await fs.writeFile(summary, '');
    const full = await runCli(['--cwd', dir], { env: jobEnv(dir, summary) });
    expect([full.exitCode, full.stderr]).toEqual([1, '']);
    const link = (file: string, line: number) => `[test/${file}:${line}](https://github.example/octo/repo/blob/abc123/${path.basename(dir)}/test/${file}#L${line})`;
    const ROWS = [
      `| test/broken.test.js | error | ${link('broken.test.js', 2)} | Error: Cannot find module './missing-module' |`,
      `| a&#124;b | failed | ${link('table.test.js', 7)} | left &#124; right |`,
      `| &lt;script&gt;alert(1)&lt;/script&gt; | failed | ${link('table.test.js', 11)} | \\\`code\\\` &amp; &lt;b&gt;bold&lt;/b&gt; |`,
      `| long | failed | ${link('table.test.js', 17)} | ${'x'.repeat(199)}… |`,
      `| uses \\\`tick\\\` and \\*stars\\* | failed | ${link('table.test.js', 21)} | plain |`,
    ];
    expect(stable(await fs.readFile(summary, 'utf8'))).toBe([
      '',
      '## run-tests: failed (node-test)',
      '',
      '1 passed, 4 failed, 1 errors, 0 skipped in <s> · exit code 1',
      '',
      '### Failures (5)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      ...ROWS,
      '',
      'Rerun:',
      '',
      '```sh',
      `run-tests --cwd ${dir} --failed-only`,
      '```',
      '',
      '',
    ].join('\n'));
    await fs.writeFile(summary, '');
    const capped = await runCli(['--cwd', dir, '--max-failures', '2'], { env: jobEnv(dir, summary) });
    expect(capped.exitCode).toBe(1);
    expect((await fs.readFile(summary, 'utf8')).split('\n').slice(5, 13)).toEqual([
      '### Failures (2 of 5)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      ...ROWS.slice(0, 2),
      '',
      `… 3 more failures not listed (--max-failures); all are in ${dir}/.run-tests/last-failures.json`,
    ]);
  });

  it('appends to the step summary only where GitHub made it: never creates it, never writes through a link', async () => {
    const dir = await copyFixture('node-test-github');
    const missing = path.join(path.dirname(dir), `${path.basename(dir)}-missing.md`);
    const first = await runCli(['--cwd', dir], { env: jobEnv(dir, missing) });
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toBe(`run-tests: warning: the step summary was not written to ${missing}: ENOENT: no such file or directory, open '${missing}'\n`);
    expect(fs.existsSync(missing)).toBe(false);
    const target = path.join(path.dirname(dir), `${path.basename(dir)}-other.md`);
    await fs.writeFile(target, 'not yours\n');
    const link = `${target}.link`;
    await fs.symlink(target, link);
    const second = await runCli(['--cwd', dir], { env: jobEnv(dir, link) });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^run-tests: warning: the step summary was not written to ${link}: ELOOP`));
    expect(await fs.readFile(target, 'utf8')).toBe('not yours\n');
    // Outside GitHub Actions: no workflow command at all.
    const plain = await runCli(['--cwd', dir], { env: { GITHUB_STEP_SUMMARY: target } });
    expect([plain.exitCode, commands(plain.stdout)]).toEqual([1, []]);
    expect(await fs.readFile(target, 'utf8')).toBe('not yours\n');
  });

  it('annotates the failures of a report read by `parse`, and says in the summary that it was imported, not run', async () => {
    const dir = path.join(REPO, 'test/fixtures/projects/go-mixed');
    const input = path.join(REPO, 'test/fixtures/outputs/go/mixed.jsonl');
    const { exitCode, report, stderr } = await runJson(['parse', input, '--cwd', dir], { env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir } });
    expect([exitCode, report.source]).toEqual([1, 'imported']);
    expect(commands(stderr)).toEqual([
      '::error file=mixed_test.go,line=11,title=TestSubtractsWrongly::mixed_test.go:11: Subtract(5, 3) = 8, want 2',
      '::error file=mixed_test.go,line=16,title=TestFatalInHelper::mixed_test.go:16: got 2, want 0',
      '::error file=mixed_test.go,line=39,title=TestTable/wrong_[neg]::mixed_test.go:39: Add(-1, 1) = 0, want 1',
      '::error file=mixed_test.go,line=49,title=TestNested/outer/inner_(bad)::mixed_test.go:49: inner went bad',
      '::error file=sub/calc_test.go,line=13,title=TestHalf::calc_test.go:13: Half(8) = 2, want 4',
    ]);
    const summary = `${await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-summary-'))}/summary.md`;
    await fs.writeFile(summary, '');
    await runCli(['parse', input, '--cwd', dir], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect((await fs.readFile(summary, 'utf8')).split('\n').slice(0, 6)).toEqual([
      '', '## run-tests: failed (go-json)', '', '7 passed, 5 failed, 0 errors, 1 skipped · exit code 1', '', `Imported from ${input}: not run by run-tests.`,
    ]);
  });

  it("passes vitest's own annotations on to the job, and does not annotate their failures twice", async () => {
    const dir = await copyFixture('vitest-mixed');
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    const env = { ...jobEnv(dir, undefined), GITHUB_WORKSPACE: dir };
    const { exitCode, stdout } = await runCli(['--cwd', dir], { env });
    expect(exitCode).toBe(1);
    // vitest's own lines, as `<title> @<line>`: its paths are absolute, ours relative to the workspace.
    const vitests = (lines: string[]) => lines.flatMap((line) => {
      const m = new RegExp(`^::error file=${dir}/[^,]*,title=(.*?),line=(\\d+),column=\\d+::`).exec(line);
      return m ? [`${m[1]} @${m[2]}`] : [];
    });
    const VITEST = [
      'test/broken.test.ts @3',
      'test/math.test.ts > math > add > adds negatives @15',
      'test/math.test.ts > math > parses config @2', // vitest points into src/math.ts, where it threw
      'test/math.test.ts > math > fails [with] (brackets) too @34',
      'test/math.test.ts > math > times out @37',
      'test/second.test.ts > top level fails @8',
    ];
    expect(vitests(commands(stdout)).sort()).toEqual([...VITEST].sort());
    // Ours: only the failure vitest annotated elsewhere (in src/math.ts).
    expect(commands(stdout).filter((line) => !line.startsWith(`::error file=${dir}/`))).toEqual([
      OURS,
    ]);
    // With --json, vitest's lines go to stderr as well: stdout stays the JSON report.
    const json = await runJson(['--cwd', dir], { env });
    expect(json.report.failed_tests.length).toBe(6);
    expect(vitests(commands(json.stderr)).sort()).toEqual([...VITEST].sort());
    // --stream passes all of vitest's output to stderr, its annotations included; ours are still not doubled.
    const streamed = await runCli(['--cwd', dir, '--stream'], { env });
    expect(vitests(commands(streamed.stderr)).sort()).toEqual([...VITEST].sort());
    expect(commands(streamed.stdout)).toEqual([
      OURS,
    ]);
  });
});
