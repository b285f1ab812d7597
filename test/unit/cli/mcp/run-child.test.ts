import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { runArgv } from '../../../../src/cli/mcp/run-child.js';
import { usage } from '../../support/usage.js';

const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-mcp-argv-')));
fs.mkdirSync(path.join(cwd, 'test'));
fs.writeFileSync(path.join(cwd, 'test', '--help.js'), '');
fs.writeFileSync(path.join(cwd, 'parse'), '');

describe('runArgv', () => {
  it('maps each input to `--option=value`, each id to its own --id, and files to absolute paths', () => {
    const { argv } = runArgv({ cwd, files: ['test/--help.js', 'parse'], name: '-x', ids: ['a b', '--json'], failed_only: true, timeout: 1.5 });
    expect(argv).toEqual(['--json', `--cwd=${cwd}`, '--name=-x', '--failed-only', '--timeout=1.5', '--id=a b', '--id=--json',
      path.join(cwd, 'test/--help.js'), path.join(cwd, 'parse')]);
    expect(runArgv({ cwd }).argv).toEqual(['--json', `--cwd=${cwd}`]);
    expect(runArgv({ cwd, retries: 2, flaky_fails: true }).argv).toEqual(['--json', `--cwd=${cwd}`, '--retries=2', '--flaky-fails']);
  });

  it('refuses what the CLI refuses, with its messages', () => {
    expect(usage(() => runArgv({ cwd, files: ['..'] }))).toBe(`file ".." lies outside ${cwd}`);
    expect(usage(() => runArgv({ cwd, files: ['nope.js'] }))).toBe(`file "nope.js" does not exist (in ${cwd})`);
    expect(usage(() => runArgv({ cwd, name: 'a\nb' }))).toBe('--name must not contain control characters');
    expect(usage(() => runArgv({ cwd, name: 'x'.repeat(201) }))).toBe('--name is longer than 200 bytes');
    expect(usage(() => runArgv({ cwd, timeout: 1e-7 }))).toMatch(/^timeout must be a positive number of seconds, got "1e-7"/);
    expect(usage(() => runArgv({ cwd: path.join(cwd, 'missing') }))).toMatch(/is not a directory$/);
    expect(usage(() => runArgv({ cwd, flaky_fails: true }))).toBe('--flaky-fails needs --retries <n>: without retries no test can turn out flaky');
    expect(usage(() => runArgv({ cwd, retries: 21 }))).toBe('--retries must be a whole number from 0 to 20, got 21');
  });
});
