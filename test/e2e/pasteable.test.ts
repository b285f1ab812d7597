/** The `$` line a person reads is the runner's own command: typed (here: spawned as the
 * argv it says) in the project root, it runs what ran. */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, hasTools, REPO, runCli, runJson } from './helpers.js';

interface Case {
  readonly runner: string;
  readonly fixture: string;
  readonly tools: readonly string[];
  readonly args: readonly string[];
  readonly command: string;
  /** In the pasted command's output: a test it selected, and one it left out. */
  readonly says: string;
  readonly leavesOut: string | null;
  readonly env?: NodeJS.ProcessEnv;
  readonly nodeModules?: boolean;
}

const goEnv = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOCACHE: path.join(os.tmpdir(), 'run-tests-pasteable-gocache') };
const cargoEnv = { CARGO_TARGET_DIR: path.join(os.tmpdir(), 'run-tests-pasteable-target'), RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' };

const CASES: readonly Case[] = [
  { runner: 'rails', fixture: 'rails-app', tools: ['ruby', 'bundle'], args: [], command: 'bin/rails test', says: 'test_adds_wrongly', leavesOut: null },
  { runner: 'rspec', fixture: 'rspec-mixed', tools: ['ruby', 'bundle'], args: ['spec/second_spec.rb'], command: 'bundle exec rspec spec/second_spec.rb', says: 'Second file raises a plain error', leavesOut: 'Calculator subtracts numbers' },
  { runner: 'minitest', fixture: 'minitest-mixed', tools: ['ruby', 'bundle', 'rake'], args: ['--name', 'size'], command: 'bundle exec rake test TESTOPTS=--name=/size/', says: 'test_size_is_wrong', leavesOut: 'test_explodes' },
  { runner: 'jest', fixture: 'jest-mixed', tools: [], nodeModules: true, args: ['test/second.test.js', '--name', 'top level'], command: "npx jest test/second.test.js -t 'top level'", says: 'top level fails', leavesOut: 'adds negatives' },
  { runner: 'vitest', fixture: 'vitest-mixed', tools: [], nodeModules: true, args: ['test/second.test.ts'], command: 'npx vitest run test/second.test.ts', says: 'top level fails', leavesOut: 'adds negatives' },
  { runner: 'mocha', fixture: 'mocha-mixed', tools: [], nodeModules: true, args: ['--name', 'adds'], command: 'npx mocha --require ./test/setup.js spec/ --grep adds', says: 'adds wrongly', leavesOut: 'explodes' },
  { runner: 'node-test', fixture: 'node-test-mixed', tools: [], args: ['--name', 'explodes'], command: 'node --test --test-name-pattern=explodes', says: '# fail 1\n', leavesOut: null },
  { runner: 'go', fixture: 'go-mixed', tools: ['go'], env: goEnv, args: ['--name', 'Half'], command: 'go test -run Half ./...', says: '--- FAIL: TestHalf', leavesOut: 'TestSubtractsWrongly' },
  { runner: 'cargo', fixture: 'cargo-mixed', tools: ['cargo'], env: cargoEnv, args: ['--name', 'adds'], command: 'cargo test --offline --no-fail-fast -- adds', says: 'tests::adds_wrongly', leavesOut: 'panics_in_helper' },
  { runner: 'unittest', fixture: 'unittest-mixed', tools: ['python3'], args: ['tests/test_widget.py'], command: 'python3 -m unittest tests/test_widget.py', says: 'test_size_is_wrong', leavesOut: 'test_text' },
  { runner: 'unittest', fixture: 'unittest-mixed', tools: ['python3'], args: ['--name', 'test_even'], command: 'python3 -m unittest -k test_even', says: 'FAIL: test_even', leavesOut: 'test_size_is_wrong' },
  { runner: 'pytest', fixture: 'pytest-mixed', tools: ['python3'], args: ['tests/test_widget.py'], command: 'python3 -m pytest tests/test_widget.py', says: 'test_size_is_wrong', leavesOut: 'test_text.py' },
];

/** Words as a POSIX shell reads the ones src/core/quote.ts writes: plain, or in single
 * quotes with `'\''` for a quote. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/(?:[^\s'\\]+|'[^']*'|\\.)+/g)].map((m) => [...m[0].matchAll(/'([^']*)'|\\(.)|([^'\\]+)/g)].map((p) => p[1] ?? p[2] ?? p[3]).join(''));
}

/** The command's leading `NAME=value` words as its environment, and the rest as its argv. */
function pasted(command: string): { env: NodeJS.ProcessEnv; argv: string[] } {
  const words = shellWords(command);
  const at = words.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w));
  const env = Object.fromEntries(words.slice(0, at).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, argv: words.slice(at) };
}

/** The caller's environment as a person's shell would have it in the project: no
 * bundler or Ruby settings of the test process leaking in. */
const shellEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(?:BUNDLE_|BUNDLER_|RUBYOPT$|NODE_OPTIONS$|JEST_WORKER_ID$)/.test(k)));

describe('the command shown is the runner\'s own, and runs the same tests when pasted', () => {
  it('reads shell words back as the quoting wrote them', () => {
    expect(shellWords("a 'b c' 'it'\\''s' x'y z'w")).toEqual(['a', 'b c', "it's", 'xy zw']);
  });

  for (const c of CASES) {
    const runs = hasTools(...c.tools) ? it : it.skip;
    runs(`${c.runner}: ${c.command}`, async () => {
      const dir = await copyFixture(c.fixture);
      if (c.nodeModules) await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
      const { report } = await runJson(['--cwd', dir, ...c.args], { env: c.env ?? {} });
      expect([report.framework, report.command]).toEqual([c.runner, c.command]);
      expect(report.command).not.toMatch(/reporters\/|RUN_TESTS_|-json|--format json|--test-reporter=|--require .*formatter/);
      // The human view of the same run, as it was printed.
      const human = await runCli(['show', '--cwd', dir]);
      expect(human.stdout.split('\n')[1]).toBe(`$ ${c.command}`);
      const { env, argv } = pasted(c.command);
      const [file = '', ...args] = argv;
      const typed = spawnSync(file, args, { cwd: dir, env: { ...shellEnv(), ...c.env, ...env }, encoding: 'utf8', timeout: 240_000 });
      const output = `${typed.stdout}${typed.stderr}`;
      expect([typed.status, output.includes(c.says)]).toEqual([report.exit_status, true]);
      if (c.leavesOut !== null) expect(output).not.toContain(c.leavesOut);
    }, 300_000);
  }

  const ruby = hasTools('ruby', 'bundle', 'rake') ? it : it.skip;
  ruby('minitest: a rerun\'s exact names, in rake\'s TESTOPTS quoted for rake\'s shell inside the quotes for the person\'s', async () => {
    const dir = await copyFixture('minitest-mixed');
    await runJson(['--cwd', dir]);
    const { report } = await runJson(['--cwd', dir, '--failed-only']);
    expect(report.command).toMatch(/^TEST=test\/widget_test\.rb bundle exec rake test 'TESTOPTS='\\''--name=\/\\A\(\?:WidgetTest\\#test_\w+\|WidgetTest\\#test_\w+\)\\z\/'\\'''$/);
    const { env, argv } = pasted(report.command ?? '');
    const [file = '', ...args] = argv;
    const typed = spawnSync(file, args, { cwd: dir, env: { ...shellEnv(), ...env }, encoding: 'utf8' });
    expect([typed.status, /^2 runs, .* 1 failures, 1 errors/m.test(typed.stdout)]).toEqual([1, true]);
  }, 120_000);
});
