import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, hasTools, REPO } from './helpers.js';

const LAUNCHER = path.join(REPO, 'reporters/bundler/exec.rb');
const suite = hasTools('ruby', 'bundle', 'rake') ? describe : describe.skip;

/** What run-tests' Ruby adapters start, and `bundle exec` as a person types it, in the
 * same directory and environment (none of the caller's BUNDLE_* variables). */
function run(dir: string, command: 'launcher' | 'bundle exec', args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^BUNDLER?_/.test(key)));
  const [file, ...argv] = command === 'launcher' ? ['ruby', LAUNCHER, ...args] : ['bundle', 'exec', ...args];
  const result = spawnSync(file ?? 'ruby', argv, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...base, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

suite('reporters/bundler/exec.rb, bundle exec without bundler\'s command line', () => {
  // run-tests' minitest adapter sets these two; bundler must extend both alike.
  const rubyEnv = { RUBYLIB: path.join(REPO, 'reporters/minitest'), RUBYOPT: '-rrun_tests/minitest_boot' };
  const withoutLauncherLine = (out: string) => out.split('\n').filter((line) => !line.startsWith('launcher_in_process='));

  it('gives a Ruby executable that bundle exec loads the same environment, $0, ARGV, load path and gems', async () => {
    const dir = await copyFixture('bundler-exec');
    const ours = run(dir, 'launcher', ['ruby-tool', 'a b'], rubyEnv);
    const theirs = run(dir, 'bundle exec', ['ruby-tool', 'a b'], rubyEnv);
    expect([ours.status, ours.stderr, theirs.status, theirs.stderr]).toEqual([0, '', 0, '']);
    expect(withoutLauncherLine(ours.stdout)).toEqual(withoutLauncherLine(theirs.stdout));
    expect(ours.stdout).toMatch(/^RUBYOPT=-r\S+\/bundler\/setup -rrun_tests\/minitest_boot$/m);
    expect(ours.stdout).toContain(`BUNDLE_GEMFILE=${path.join(dir, 'Gemfile')}\n`);
    expect(ours.stdout).toContain(`$0=${path.join(dir, 'bin/ruby-tool')}\nARGV=["a b"]\n`);
    expect(ours.stdout).toMatch(/^loaded_specs=\[.*"bundler".*"rake"/m);
    expect(ours.stdout).toContain('launcher_in_process=yes\n');
  });

  it('loads rake in its own process also where bundle exec starts a second Ruby for it', async () => {
    const dir = await copyFixture('bundler-exec');
    const ours = run(dir, 'launcher', ['rake', 'env', 'NAME=a b'], rubyEnv);
    const theirs = run(dir, 'bundle exec', ['rake', 'env', 'NAME=a b'], rubyEnv);
    expect([ours.status, ours.stderr, theirs.status, theirs.stderr]).toEqual([0, '', 0, '']);
    // A second Ruby puts bundler's lib before RUBYLIB, one process after it (as bundle
    // exec's own in-process load does): the same directories, in another order.
    const sortedLoadPath = (line: string) => (line.startsWith('LOAD_PATH=') ? (JSON.parse(line.slice(10)) as string[]).sort().join(':') : line);
    expect(withoutLauncherLine(ours.stdout).map(sortedLoadPath)).toEqual(withoutLauncherLine(theirs.stdout).map(sortedLoadPath));
    expect(ours.stdout).toContain('ARGV=["env", "NAME=a b"]\n');
    expect(ours.stdout).toMatch(/^loaded_specs=\[.*"bundler".*"rake"/m);
    expect(ours.stdout).toContain('launcher_in_process=yes\n');
  });

  it('execs an executable that is not Ruby, as bundle exec does', async () => {
    const dir = await copyFixture('bundler-exec');
    const ours = run(dir, 'launcher', ['shell-tool', 'a b']);
    expect(ours).toEqual({ status: 0, stdout: `shell-tool a b BUNDLE_GEMFILE=${path.join(dir, 'Gemfile')}\n`, stderr: '' });
    expect(run(dir, 'bundle exec', ['shell-tool', 'a b'])).toEqual(ours);
  });

  it('execs a command given no arguments without a shell, whatever its path holds', async () => {
    const dir = await copyFixture('bundler-exec');
    const odd = path.join(dir, 'odd $(touch shell-ran) dir');
    fs.mkdirSync(odd);
    fs.copyFileSync(path.join(dir, 'bin/shell-tool'), path.join(odd, 'odd-tool'));
    fs.chmodSync(path.join(odd, 'odd-tool'), 0o755);
    const ours = run(dir, 'launcher', ['odd-tool'], { PATH: `${odd}${path.delimiter}${process.env.PATH ?? ''}` });
    expect(ours).toEqual({ status: 0, stdout: `shell-tool  BUNDLE_GEMFILE=${path.join(dir, 'Gemfile')}\n`, stderr: '' });
    expect(fs.existsSync(path.join(dir, 'shell-ran'))).toBe(false);
  });

  it('execs every executable under bundler\'s disable_exec_load setting', async () => {
    const dir = await copyFixture('bundler-exec');
    const ours = run(dir, 'launcher', ['rake', 'env'], { BUNDLE_DISABLE_EXEC_LOAD: 'true' });
    expect(ours.status).toBe(0);
    expect(ours.stdout).toContain('launcher_in_process=no\n');
  });

  it('exits 127 with the fix when the command is neither on PATH nor in the bundle', async () => {
    const dir = await copyFixture('bundler-exec');
    expect(run(dir, 'launcher', ['no-such-tool'])).toEqual({
      status: 127,
      stdout: '',
      stderr: 'run-tests: no-such-tool was not found on PATH, the bundle\'s included; add its gem to the Gemfile and run `bundle install`\n',
    });
    expect(run(dir, 'bundle exec', ['no-such-tool']).status).toBe(127);
  });
});
