import path from 'node:path';
import { HarnessError } from '../../model/errors.js';
import type { ProjectFacts } from '../../project/facts.js';
import { localPackage } from './project.js';

/** The majors of each JavaScript runner that run-tests' launchers and reporters support
 * (reporters/<runner>/), each one run by the version matrix (test/e2e/versions-{jest,vitest,mocha}.test.ts).
 * A runner outside them is RUNNER_UNSUPPORTED before it starts, never a missing report. */
export const SUPPORTED_MAJORS = {
  jest: { min: 29, max: 30 },
  vitest: { min: 3, max: 4 },
  mocha: { min: 9, max: 12 },
} as const satisfies Record<string, { readonly min: number; readonly max: number }>;

export type VersionedRunner = keyof typeof SUPPORTED_MAJORS;

export const supportedRange = (runner: VersionedRunner): string => {
  const { min, max } = SUPPORTED_MAJORS[runner];
  return `${min}.x to ${max}.x`;
};

/** The version a package.json states, or null when it states none. */
function statedVersion(text: string | null): string | null {
  if (text === null) return null;
  try {
    const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/** The directory of the project's own runner (as localPackage finds it), once its
 * package.json says a supported major. */
export function supportedPackage(facts: ProjectFacts, runner: VersionedRunner): string {
  const dir = localPackage(facts, runner);
  const manifest = path.join(dir, 'package.json');
  const version = statedVersion(facts.read(path.relative(facts.root, manifest)));
  const major = Number(/^(\d+)\./.exec(version ?? '')?.[1] ?? Number.NaN);
  const { min, max } = SUPPORTED_MAJORS[runner];
  if (major >= min && major <= max) return dir;
  const found = version === null ? `of no stated version (${manifest} has no "version")` : version;
  throw new HarnessError('RUNNER_UNSUPPORTED', `${runner} ${found} is not supported: run-tests supports ${runner} ${supportedRange(runner)} (found in ${dir})`, { path: manifest });
}
