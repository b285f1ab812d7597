import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, hasTools, runJson } from './helpers.js';

const suite = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

suite('minitest: which Ruby processes write the report', () => {
  it('leaves out the results and crashes of Ruby processes the tests start, also under Bundler.with_original_env', async () => {
    const dir = await copyFixture('minitest-child');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect(report.summary).toEqual({ run: 3, passed: 3, failures: 0, errors: 0, skips: 0 });
    expect([report.status, exitCode, report.warnings]).toEqual(['passed', 0, []]);
  });

  it('says test-unit ran, rather than reporting its child process\'s minitest results', async () => {
    const dir = await copyFixture('testunit-child');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([report.status, exitCode, report.error?.code]).toEqual(['error', 3, 'RUNNER_UNSUPPORTED']);
    expect(report.error?.message).toMatch(/^test-unit ran the tests \(process \d+\), not minitest/);
    expect(report.summary.run).toBeNull();
  });

  it('registers its plugin when a test file sets MT_NO_PLUGINS=1', async () => {
    const dir = await copyFixture('minitest-no-plugins');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([report.status, exitCode]).toEqual(['failed', 1]);
    expect(report.summary).toEqual({ run: 2, passed: 1, failures: 1, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([['NoPluginsTest#test_fails', 'test/a_test.rb', 10, 'failed']]);
  });

  it('reads a minitest suite that also loads test-unit (no test-unit test, MT_NO_PLUGINS=1)', async () => {
    const dir = await copyFixture('minitest-no-plugins');
    const file = path.join(dir, 'test/a_test.rb');
    await fs.writeFile(file, `require "test/unit"\n${await fs.readFile(file, 'utf8')}`);
    const { exitCode, report } = await runJson(['--cwd', dir]);
    expect([report.status, exitCode, report.error]).toEqual(['failed', 1, null]);
    expect(failures(report)).toEqual([['NoPluginsTest#test_fails', 'test/a_test.rb', 11, 'failed']]);
  });

  it('counts every test of every minitest process one `rake test` starts', async () => {
    const dir = await copyFixture('minitest-processes');
    const { exitCode, report } = await runJson(['--cwd', dir]);
    const log = await fs.readFile(path.join(dir, '.run-tests/last-test.log'), 'utf8');
    const printed = [...log.matchAll(/^(\d+) runs, /gm)].map((m) => Number(m[1]));
    expect(printed).toEqual([3, 3, 3]);
    expect(report.summary).toEqual({ run: 9, passed: 8, failures: 1, errors: 0, skips: 0 });
    expect([report.status, exitCode]).toEqual(['failed', 1]);
    expect(failures(report)).toEqual([['SourceTest#test_not_three', 'test/source_test.rb', 14, 'failed']]);
  });
});
