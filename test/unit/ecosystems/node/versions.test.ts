import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNNER_VERSIONS } from '../../../../scripts/runner-versions.js';
import { SUPPORTED_MAJORS, supportedPackage, supportedRange, type VersionedRunner } from '../../../../src/ecosystems/node/versions.js';
import { HarnessError } from '../../../../src/model/errors.js';
import { factsFromFiles } from '../../../../src/project/facts.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const installed = (runner: VersionedRunner, manifest: string) => factsFromFiles('/p', { [`node_modules/${runner}/package.json`]: manifest });
const withVersion = (runner: VersionedRunner, version: string) => installed(runner, JSON.stringify({ name: runner, version }));

function refusal(runner: VersionedRunner, manifest: string): HarnessError {
  try {
    supportedPackage(installed(runner, manifest), runner);
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error(`${runner} with ${manifest} was accepted`);
}

describe('supportedPackage', () => {
  it.each([
    ['mocha', '9.0.0'], ['mocha', '12.0.3'], ['jest', '29.7.0'], ['jest', '30.0.0-beta.3'], ['vitest', '3.0.0'], ['vitest', '4.1.12'],
  ] as const)('accepts %s %s and gives its directory', (runner, version) => {
    expect(supportedPackage(withVersion(runner, version), runner)).toBe(`/p/node_modules/${runner}`);
  });

  it.each([
    ['mocha', '8.4.0', 'mocha 8.4.0 is not supported: run-tests supports mocha 9.x to 12.x (found in /p/node_modules/mocha)'],
    ['mocha', '13.0.0', 'mocha 13.0.0 is not supported: run-tests supports mocha 9.x to 12.x (found in /p/node_modules/mocha)'],
    ['jest', '28.1.3', 'jest 28.1.3 is not supported: run-tests supports jest 29.x to 30.x (found in /p/node_modules/jest)'],
    ['vitest', '5.1.2', 'vitest 5.1.2 is not supported: run-tests supports vitest 3.x to 4.x (found in /p/node_modules/vitest)'],
    ['vitest', '2.1.9', 'vitest 2.1.9 is not supported: run-tests supports vitest 3.x to 4.x (found in /p/node_modules/vitest)'],
  ] as const)('refuses %s %s as RUNNER_UNSUPPORTED (exit 3), naming the version and the range', (runner, version, message) => {
    const error = refusal(runner, JSON.stringify({ version }));
    expect([error.code, error.exitCode, error.message, error.detail]).toEqual(['RUNNER_UNSUPPORTED', 3, message, { path: `/p/node_modules/${runner}/package.json` }]);
  });

  it('refuses a package.json that states no version, or is not JSON', () => {
    for (const manifest of ['{}', '{"version": 12}', 'not json']) {
      expect(refusal('jest', manifest).message).toBe('jest of no stated version (/p/node_modules/jest/package.json has no "version") is not supported: run-tests supports jest 29.x to 30.x (found in /p/node_modules/jest)');
    }
  });

  it('is RUNNER_MISSING, not unsupported, when the runner is not installed', () => {
    expect(() => supportedPackage(factsFromFiles('/p', {}), 'mocha')).toThrow(expect.objectContaining({ code: 'RUNNER_MISSING' }));
  });

  it('says each range as majors', () => {
    expect([supportedRange('mocha'), supportedRange('jest'), supportedRange('vitest')]).toEqual(['9.x to 12.x', '29.x to 30.x', '3.x to 4.x']);
  });
});

describe('the supported majors, the version matrix and the README agree', () => {
  it.each(Object.entries(SUPPORTED_MAJORS))('%s: every supported major has a matrix set and a README row', (runner, { min, max }) => {
    const majors = Array.from({ length: max - min + 1 }, (_, i) => min + i);
    const sets = Object.entries(RUNNER_VERSIONS).filter(([, set]) => set.runner === runner);
    expect(sets.map(([id, set]) => [id, Number(set.packages[runner]?.split('.')[0])])).toEqual(majors.map((m) => [`${runner}-${m}`, m]));
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^\\| ${runner} \\| ${majors.join(', ')}(?: \\(.*\\))? \\|$`, 'm'));
  });
});
