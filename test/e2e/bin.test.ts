import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { REPO, runCli, runJson } from './helpers.js';

const ENV_TAP = path.join(REPO, 'test/fixtures/scripts/env-tap.js');

describe('bin/run-tests.js run as a program', () => {
  it('runs the built CLI through its #! line, as node bin/run-tests.js does', async () => {
    const { version } = await fs.readJson(path.join(REPO, 'package.json'));
    const asProgram = await runCli(['--version'], { asProgram: true });
    expect(asProgram).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: '' });
    expect(await runCli(['--version'])).toEqual(asProgram);
  });

  it('gives the runner the environment the user set, NODE_EXTRA_CA_CERTS included, and nothing of its own', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-bin-'));
    const seen = path.join(dir, 'env.json');
    const command = `node ${ENV_TAP} ${seen} NODE_EXTRA_CA_CERTS RUN_TESTS_NODE_EXTRA_CA_CERTS`;
    const certs = path.join(dir, 'certs.pem'); // node reads it only if it exists
    const { exitCode, report } = await runJson(['--cwd', dir, '--command', command, '--report', 'tap:-'], { env: { NODE_EXTRA_CA_CERTS: certs }, asProgram: true });
    expect([exitCode, report.status, report.summary.run]).toEqual([0, 'passed', 1]);
    expect(await fs.readJson(seen)).toEqual({ NODE_EXTRA_CA_CERTS: certs, RUN_TESTS_NODE_EXTRA_CA_CERTS: null });
    await fs.remove(dir);
  });
});
