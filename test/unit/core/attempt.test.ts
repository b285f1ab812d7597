import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { attemptArtifacts, attemptPlan, retryRun } from '../../../src/core/attempt.js';
import { Interrupts, type RunRequest } from '../../../src/model/request.js';
import { go } from '../../../src/runners/go/runner.js';
import type { PlanRequest } from '../../../src/runners/types.js';
import { factsFromFiles } from '../../../src/project/facts.js';
import { artifactPaths } from '../../../src/store/artifacts.js';

const first: PlanRequest = {
  root: '/p',
  facts: factsFromFiles('/p', { 'go.mod': 'module example.com/m\n', 'm_test.go': 'package m\n' }),
  files: ['m_test.go'],
  units: ['.'],
  name: { text: 'Add', regex: false },
  rerun: null,
  artifacts: artifactPaths('/p', '20261207-120000.000-00000000'),
  env: { PATH: '/bin' },
  reportersDir: '/pkg/reporters',
  runnerArgs: [],
  at: ['m_test.go:3'],
};
const record = { id: 'example.com/m TestFlaky', test_name: 'TestFlaky', file: 'm_test.go', line: 4, status: 'failed' as const, message: 'm' };

describe('attemptPlan', () => {
  it("selects exactly the records, in the attempt's own directory, with none of the first run's selection", () => {
    const artifacts = attemptArtifacts(first.artifacts, 2);
    expect(artifacts.log).toBe('/p/.run-tests/runs/20261207-120000.000-00000000/attempt-2/test.log');
    expect(attemptPlan(first, artifacts, [record])).toMatchObject({ files: [], units: undefined, name: null, at: [], rerun: [record], artifacts, env: first.env });
  });

  it("runs afresh: go's test cache, which may hold an earlier retry's pass, is never replayed (-count=1)", () => {
    const plan = go.plan(attemptPlan(first, attemptArtifacts(first.artifacts, 2), [record]));
    expect(plan.argv).toEqual(['go', 'test', '-json', '-count=1', '-run', '^TestFlaky$', '.']);
  });
});

describe('retryRun', () => {
  it("keeps the first run's evidence when a retry cannot start, and says why", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-attempt-'));
    try {
      const artifacts = artifactPaths(root, '20261207-120000.000-00000000');
      fs.mkdirSync(artifacts.runDir, { recursive: true });
      fs.writeFileSync(path.join(artifacts.runDir, 'attempt-2'), 'in the way');
      const failed = { id: 'example.com/m TestFlaky', name: 'TestFlaky', file: 'm_test.go', line: 4, status: 'failed' as const, message: 'm' };
      const request = { retries: 2, minTests: 1, flakyFails: false } as unknown as RunRequest;
      const retried = await retryRun({ request, adapter: go, root, artifacts, planRequest: { ...first, root, artifacts }, marker: 'm' }, [failed], 'failed', { tests: [failed], complete: true, warnings: [] }, new Interrupts());
      expect(retried.tests).toEqual([failed]);
      expect(retried.status).toBe('failed');
      expect(retried.info?.runs).toEqual([{ attempt: 2, tests: 1, log: path.join(artifacts.runDir, 'attempt-2/test.log'), status: 'error' }]);
      expect(retried.warnings[0]).toMatch(/^retry 1 could not run: .*attempt-2 is not a directory/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
