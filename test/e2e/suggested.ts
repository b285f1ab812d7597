import { expect } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, REPO, runJson } from './helpers.js';

/** A fresh copy of a fixture, with run-tests' own node_modules (its jest, vitest, mocha) where its runner needs them. */
export async function project(fixture: string, modules = false): Promise<string> {
  const dir = await copyFixture(fixture);
  if (modules) await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs a command a report suggested (`rerun_argv`) as given, `run-tests` being the built bin. */
export function runSuggested(argv: readonly string[] | null | undefined, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ReturnType<typeof runJson> {
  expect(argv?.[0]).toBe('run-tests');
  return runJson(argv?.slice(1) ?? [], options);
}
