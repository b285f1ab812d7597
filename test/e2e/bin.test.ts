import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
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
});
