import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cargo } from '../../../src/runners/cargo/runner.js';
import { go } from '../../../src/runners/go/runner.js';
import { rubyFailureLines } from '../../../src/ecosystems/ruby.js';
import { runnerFailure } from '../../../src/core/runner-failure.js';

const dir = mkdtempSync(join(tmpdir(), 'run-tests-runner-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const log = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const exited = (exitCode: number | null, signal: NodeJS.Signals | null = null) => ({ exitCode, signal, timedOut: false, interrupted: false });

describe('runnerFailure', () => {
  const rakeLog = log('rake.log', "rake aborted!\nDon't know how to build task 'test' (See the list of available tasks with `rake --tasks`)\n\n(See full trace by running task with --trace)\n");

  it('quotes the runner\'s own first error lines when it exited non-zero without a result', () => {
    expect(runnerFailure({ failureLines: rubyFailureLines }, exited(1), 0, [], rakeLog)).toEqual({
      code: 'RUNNER_FAILED',
      message: `the runner exited 1 before running any test; its first error lines (${rakeLog}):\n  rake aborted!\n  Don't know how to build task 'test' (See the list of available tasks with \`rake --tasks\`)`,
    });
  });

  it('quotes the end of the log when the runner has no words of its own, and says which signal killed it', () => {
    const other = log('other.log', 'starting\nSegmentation fault\n');
    expect(runnerFailure({}, exited(null, 'SIGSEGV'), 0, [], other)?.message).toBe(`the runner was killed by SIGSEGV before running any test; the end of its output (${other}):\n  starting\n  Segmentation fault`);
  });

  it('says nothing when tests ran, the runner exited 0, ran out of time, was interrupted, or said it found no tests', () => {
    const lines = { failureLines: rubyFailureLines };
    expect(runnerFailure(lines, exited(1), 1, [], rakeLog)).toBeNull();
    expect(runnerFailure(lines, exited(0), 0, [], rakeLog)).toBeNull();
    expect(runnerFailure(lines, { ...exited(null, 'SIGTERM'), timedOut: true }, 0, [], rakeLog)).toBeNull();
    expect(runnerFailure(lines, { ...exited(130), interrupted: true }, 0, [], rakeLog)).toBeNull();
    expect(runnerFailure(lines, exited(5), 0, [5], rakeLog)).toBeNull();
  });
});

describe('failureLines', () => {
  it('ruby: an uncaught exception\'s first line, or rake aborted! up to its backtrace', () => {
    const gem = "/usr/lib/bundler/definition.rb:486:in `materialize': Could not find absent-1.0.0 in any of the sources (Bundler::GemNotFound)";
    expect(rubyFailureLines(`${gem}\n\tfrom /usr/lib/bundler/definition.rb:191:in \`specs'\n`)).toEqual([gem]);
    expect(rubyFailureLines('rake aborted!\nNameError: uninitialized constant Foo\n/p/Rakefile:1:in `<top (required)>\'\n')).toEqual(['rake aborted!', 'NameError: uninitialized constant Foo']);
    expect(rubyFailureLines('Run options: --seed 1\n\n# Running:\n')).toEqual([]);
  });

  it('cargo: the first error and its explanation, up to a blank line', () => {
    const text = '    Updating index\nerror: failed to select a version for `x`\nrequired by package `p v0.1.0`\n\nerror: second\n';
    expect(cargo.failureLines?.(text)).toEqual(['error: failed to select a version for `x`', 'required by package `p v0.1.0`']);
    expect(cargo.failureLines?.('   Compiling p v0.1.0\n')).toEqual([]);
  });

  it('go: its `go:` error lines once each, without its download progress', () => {
    const error = 'go: example.com/dep@v1.0.0: reading example.com/dep/go.mod: 404 Not Found';
    expect(go.failureLines?.(`go: downloading example.com/dep v1.0.0\n${error}\n${error}\n`)).toEqual([error]);
    expect(go.failureLines?.('{"Action":"start"}\n')).toEqual([]);
  });
});
