import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyFixture, hasTools, REPO, runCli, validateReport } from './helpers.js';

describe('the command line', () => {
  it('prints its version from package.json', async () => {
    const { version } = await fs.readJson(path.join(REPO, 'package.json'));
    expect(await runCli(['--version'])).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('documents options, examples and exit codes in --help', async () => {
    const { exitCode, stdout } = await runCli(['--help']);
    expect(exitCode).toBe(0);
    for (const text of ['--failed-only', '--timeout <seconds>', '--kill-grace <seconds>', '--min-tests <n>', '--allow-no-tests',
      '--stream', '--runner <id>', 'run-tests --failed-only', '124  timed out', '130  interrupted', '4    no tests ran']) {
      expect(stdout).toContain(text);
    }
  });

  it('lists every runner for --runner', async () => {
    const { RUNNERS } = await import('../../src/runners/index.js');
    const { stdout } = await runCli(['--help']);
    const listed = /--runner <id>\s+use this runner instead of detecting one\s+\(([^)]*)\)/.exec(stdout.replace(/\s+/g, ' '))?.[1];
    expect(listed?.split(', ').sort()).toEqual(RUNNERS.map((a) => a.id).sort());
  });

  it('rejects JSON schema violations (the validator itself can fail)', () => {
    expect(validateReport({ schema_version: 1 })).toBe(false);
  });

  it('counts finished tests live on a terminal, and nowhere else', async () => {
    const dir = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-live-')));
    await fs.outputJson(path.join(dir, 'package.json'), { name: 'live', private: true, scripts: { test: 'node --test' } });
    await fs.outputFile(path.join(dir, 'test/live.test.js'),
      "const test = require('node:test');\ntest('quick', () => {});\ntest('slow', () => new Promise((resolve) => setTimeout(resolve, 800)));\n");
    // script(1) runs the command on a pseudo-terminal: stdout and stderr both arrive here.
    const command = [process.execPath, path.join(REPO, 'bin/run-tests.js'), '--cwd', dir].map((arg) => JSON.stringify(arg)).join(' ');
    const onTerminal = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: { ...process.env, CI: undefined, TERM: 'xterm', FORCE_COLOR: '0' } });
    expect(onTerminal.stdout).toMatch(/\r\x1b\[2K1 test · 0 failed · 0 skipped · \d+s/);
    expect(onTerminal.stdout).toMatch(/2 passed, 0 failed, 0 errors, 0 skipped/);
    const piped = await runCli(['--cwd', dir], { env: { CI: undefined } });
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toMatch(/2 passed, 0 failed, 0 errors, 0 skipped/);
    expect(piped.stderr).toBe('');
  });
});

const suite = hasTools('ruby', 'bundle') ? describe : describe.skip;

suite('run-tests detect', () => {
  it('prints the runner, command, root and reason, and runs nothing', async () => {
    const dir = await copyFixture('rspec-mixed');
    const { exitCode, stdout } = await runCli(['detect', '--json', '--cwd', path.join(dir, 'spec')], { env: { BUNDLE_GEMFILE: '/elsewhere/Gemfile' } });
    expect(exitCode).toBe(0);
    const formatter = path.join(REPO, 'reporters/rspec/run_tests_formatter.rb');
    expect(JSON.parse(stdout)).toEqual({
      schema_version: 1,
      framework: 'rspec',
      command: 'bundle exec rspec',
      argv: ['ruby', path.join(REPO, 'reporters/bundler/exec.rb'), 'rspec', '--format', 'progress', '--format', 'json', '--out', path.join(dir, '.run-tests/runs/<id>/rspec.json'),
        '--require', formatter, '--format', 'RunTests::StreamFormatter', '--out', path.join(dir, '.run-tests/runs/<id>/rspec-events.jsonl')],
      env: { set: {}, unset: ['BUNDLE_GEMFILE'] },
      project_root: dir,
      reason: 'Gemfile.lock lists rspec and spec/ exists: `bundle exec rspec`',
    });
    expect(fs.existsSync(path.join(dir, '.run-tests'))).toBe(false);
    const human = await runCli(['detect', '--cwd', dir, '--runner', 'minitest']);
    expect(human.stdout).toBe(`runner:  minitest\ncommand: bundle exec rake test\nroot:    ${dir}\nreason:  --runner minitest given\n`);
  });
});
