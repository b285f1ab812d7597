import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { REPO, runCli, runJson } from './helpers.js';

const ENV_TAP = path.join(REPO, 'test/fixtures/scripts/env-tap.js');
/** A CA bundle that does not exist: the node that reads it says so on stderr. */
const CERTS = { NODE_EXTRA_CA_CERTS: '/no/such/extra-certs.pem' };

describe('bin/run-tests.js run as a program', () => {
  it('starts run-tests\' own node without NODE_EXTRA_CA_CERTS, which node alone would read', async () => {
    const asProgram = await runCli(['--version'], { env: CERTS, asProgram: true });
    expect([asProgram.exitCode, asProgram.stderr]).toEqual([0, '']);
    // The same file given to node: node reads the bundle before any code runs.
    const throughNode = await runCli(['--version'], { env: CERTS });
    expect(throughNode.stderr).toContain('Ignoring extra certs from `/no/such/extra-certs.pem`');
    expect(throughNode.stdout).toBe(asProgram.stdout);
  });

  it('gives the runner NODE_EXTRA_CA_CERTS back as the user set it, and nothing of its own', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bin-'));
    const seen = path.join(dir, 'env.json');
    const command = `node ${ENV_TAP} ${seen} NODE_EXTRA_CA_CERTS RUN_TESTS_NODE_EXTRA_CA_CERTS`;
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', command, '--report', 'tap:-'], { env: CERTS, asProgram: true });
    expect([exitCode, report.status, report.summary.run]).toEqual([0, 'passed', 1]);
    expect(await fs.readJson(seen)).toEqual({ NODE_EXTRA_CA_CERTS: '/no/such/extra-certs.pem', RUN_TESTS_NODE_EXTRA_CA_CERTS: null });
    await fs.remove(dir);
  });

  it('leaves an environment without NODE_EXTRA_CA_CERTS as it is', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bin-'));
    const seen = path.join(dir, 'env.json');
    const command = `node ${ENV_TAP} ${seen} NODE_EXTRA_CA_CERTS RUN_TESTS_NODE_EXTRA_CA_CERTS`;
    const { report } = await runJson(['--cwd', dir, '--command', command, '--report', 'tap:-'], { env: { NODE_EXTRA_CA_CERTS: undefined }, asProgram: true } /* spawn drops undefined values */);
    expect(report.status).toBe('passed');
    expect(await fs.readJson(seen)).toEqual({ NODE_EXTRA_CA_CERTS: null, RUN_TESTS_NODE_EXTRA_CA_CERTS: null });
    await fs.remove(dir);
  });

  it('runs the bundle with the code cache of its own build, which V8 accepts', () => {
    const bundle = path.join(REPO, 'dist/run-tests.cjs');
    const source = fs.readFileSync(bundle, 'latin1');
    // ASCII: read as latin1, the text is the bundle's, in a one-byte string.
    expect(/[^\x00-\x7f]/.exec(source)).toBeNull();
    const cache = fs.readFileSync(path.join(REPO, 'dist/run-tests.cache'));
    const buildLine = source.slice(0, source.indexOf('\n') + 1);
    expect(buildLine).toMatch(/^\/\/ run-tests build [0-9a-f]{16}\n$/);
    expect(cache.subarray(0, buildLine.length).toString()).toBe(buildLine);
    // As bin/run-tests.js compiles it: the bundle is the module function itself.
    expect(source.slice(buildLine.length)).toMatch(/^\(function \(exports, require, module, __filename, __dirname\) \{/);
    expect(acceptedByFreshNode(bundle, cache.subarray(buildLine.length))).toBe(true);
  });

  it('changes V8\'s flags only once a runner has started, and never while the build trains its cache', async () => {
    // The change (a larger interrupt budget: src/core/tiering.ts) shows in the hash of
    // V8's flags that every code cache made afterwards carries.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bin-'));
    const out = path.join(dir, 'cache');
    const env = { NODE_OPTIONS: `--require ${path.join(REPO, 'test/fixtures/scripts/code-cache-at-exit.cjs')}`, CODE_CACHE_OUT: out };
    const run = ['--cwd', dir, '--command', `node ${ENV_TAP} ${path.join(dir, 'env.json')}`, '--report', 'tap:-'];
    const acceptedAfter = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
      await fs.remove(out);
      const { exitCode } = await runCli(args, { env: { ...env, ...extraEnv } });
      expect(exitCode).toBe(0);
      return acceptedByFreshNode(`${out}.js`, await fs.readFile(out));
    };
    expect(await acceptedAfter(['--version'])).toBe(true);
    expect(await acceptedAfter(run)).toBe(false);
    expect(await acceptedAfter(run, { RUN_TESTS_WRITE_CODE_CACHE: path.join(dir, 'training.cache') })).toBe(true);
    await fs.remove(dir);
  });

  it('ignores the code cache of another build, which V8 alone would take', async () => {
    const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bin-'));
    for (const part of ['bin', 'dist', 'reporters', 'package.json']) await fs.copy(path.join(REPO, part), path.join(copy, part));
    // A rebuild that changed a text but not the bundle's length, beside the old cache.
    const bundle = path.join(copy, 'dist/run-tests.cjs');
    const source = await fs.readFile(bundle, 'utf8');
    const changed = source.replace(/^\/\/ run-tests build [0-9a-f]{16}/, '// run-tests build 0123456789abcdef').replace("Run the project's tests", "Run the project's TESTS");
    expect(changed.length).toBe(source.length);
    await fs.writeFile(bundle, changed);
    const result = await runCli(['--help'], { bin: path.join(copy, 'bin/run-tests.js') });
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toContain("Run the project's TESTS and report the truth");
    await fs.remove(copy);
  });
});

/** Whether a node started as run-tests' own is (V8's default flags) accepts `cache` for the
 * text of `file` read as latin1. Not this process: it may have run code that changes them. */
function acceptedByFreshNode(file: string, cache: Buffer): boolean {
  const cacheFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-cache-')), 'cache');
  fs.writeFileSync(cacheFile, cache);
  const check = "const fs = require('fs'), vm = require('vm'); const [file, cache] = process.argv.slice(1);"
    + " process.stdout.write(String(!new vm.Script(fs.readFileSync(file, 'latin1'), { cachedData: fs.readFileSync(cache) }).cachedDataRejected));";
  const accepted = execFileSync(process.execPath, ['-e', check, file, cacheFile], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  fs.removeSync(path.dirname(cacheFile));
  return accepted === 'true';
}
