import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, failures, REPO, runJson } from './helpers.js';

/** npm workspaces: node_modules only at the root, where jest and vitest are hoisted. */
async function workspace(): Promise<string> {
  const dir = await copyFixture('js-workspace');
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('a JavaScript workspace with jest in packages/a and vitest in packages/b', () => {
  it('runs each file in its own package with that package runner, found in the root node_modules', async () => {
    const dir = await workspace();
    const { exitCode, report } = await runJson(['--cwd', dir, 'packages/a/test/a.test.js', 'packages/b']);
    expect([exitCode, report.status, report.framework]).toEqual([1, 'failed', 'jest+vitest']);
    expect(report.summary).toEqual({ run: 4, passed: 2, failures: 2, errors: 0, skips: 0 });
    expect(failures(report)).toEqual([
      ['a fails', 'packages/a/test/a.test.js', 6, 'failed'],
      ['b fails', 'packages/b/test/b.test.js', 8, 'failed'],
    ]);
    expect(report.projects.map((p) => [path.relative(dir, p.project_root), p.framework, p.summary.run])).toEqual([
      ['packages/a', 'jest', 2],
      ['packages/b', 'vitest', 2],
    ]);
    // jest is hoisted to the workspace root, where npx in packages/a would not look: its path.
    expect(report.projects.map((p) => p.command)).toEqual([`${dir}/node_modules/.bin/jest test/a.test.js`, `${dir}/node_modules/.bin/vitest run`]);
  });

  it('reruns the failures of one package from the workspace root', async () => {
    const dir = await workspace();
    await runJson(['--cwd', dir, 'packages/b/test/b.test.js']);
    const { exitCode, report } = await runJson(['--cwd', dir, '--failed-only', 'packages/b/test/b.test.js']);
    expect([exitCode, report.framework, report.rerun]).toEqual([1, 'vitest', { selected: 1, not_run: [] }]);
    // One project ran: its files are relative to its own root.
    expect(failures(report)).toEqual([['b fails', 'test/b.test.js', 8, 'failed']]);
  });
});
