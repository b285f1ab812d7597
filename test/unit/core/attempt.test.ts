import { describe, expect, it } from '@jest/globals';
import { attemptArtifacts, attemptPlan } from '../../../src/core/attempt.js';
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
