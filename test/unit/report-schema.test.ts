/** schema/report.schema.json promises that fields are only ever added, nested objects
 * included: a reader validating with the schema of today accepts a report of tomorrow. */
import { describe, expect, it } from '@jest/globals';
import { validateReport } from '../support/schemas.js';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION, type RunReport } from '../../src/model/report.js';

const read = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../schema/${name}`, import.meta.url)), 'utf8')) as Record<string, unknown>;
const validate = validateReport;

const report: RunReport = {
  schema_version: SCHEMA_VERSION,
  source: 'run',
  run_id: '20261201-164511.123-3f9a0c1d',
  status: 'timed_out',
  exit_code: 124,
  framework: 'jest',
  reason: 'jest in package.json',
  command: 'npx jest',
  project_root: '/p',
  exit_status: null,
  signal: 'SIGTERM',
  timed_out: true,
  running_at_timeout: [{ name: 'hangs', file: 'test/hang.test.js' }, { name: null, file: 'test/slow.test.js' }],
  duration_ms: 5000,
  started_at: '2026-12-01T16:45:11.123Z',
  finished_at: '2026-12-01T16:45:16.123Z',
  summary: { run: 1, passed: 0, failures: 1, errors: 0, skips: 0 },
  failed_tests: [{
    test_name: 'adds', file: 'test/a.test.js', line: 3, status: 'failed', message: 'x\n… 3 more lines in /p/.run-tests/runs/r/test.log', id: 'test/a.test.js::adds',
    stack: [{ file: 'test/a.test.js', line: 3, function: 'Object.<anonymous>' }],
  }],
  truncated: { failed_tests: 2 },
  rerun: { selected: 1, not_run: [] },
  artifact: '/p/.run-tests/runs/r/test.log',
  failures_file: '/p/.run-tests/last-failures.json',
  next: 'run-tests --failed-only',
  warnings: [],
  error: { code: 'X', message: 'y' },
  projects: [],
  packages: [{ name: 'example.com/m', cached: false }],
  git: { revision: null, dirty: false },
};

/** The report with `extra` added to the object at `path`. */
function withExtra(path: (string | number)[]): unknown {
  const copy = JSON.parse(JSON.stringify(report)) as Record<string, unknown>;
  const target = path.reduce<Record<string | number, unknown>>((at, key) => at[key] as Record<string | number, unknown>, copy);
  target['added_later'] = { any: 'value' };
  return copy;
}

describe('schema/report.schema.json', () => {
  it('accepts a report with every field this version writes', () => {
    expect(validate(report)).toBe(true);
    expect(validate({ ...report, running_at_timeout: null, failed_tests: [{ ...report.failed_tests[0], stack: null }] })).toBe(true);
  });

  it.each([
    [[]], [['failed_tests', 0]], [['failed_tests', 0, 'stack', 0]], [['summary']], [['rerun']], [['error']],
    [['packages', 0]], [['git']], [['truncated']], [['running_at_timeout', 0]],
  ])('accepts a field added later at %j', (path) => {
    expect(validate(withExtra(path))).toBe(true);
  });

  it('still refuses what breaks the contract: a missing field, a stack past its bound, nothing truncated', () => {
    const { summary: _summary, ...missing } = report;
    expect(validate(missing)).toBe(false);
    const deep = Array.from({ length: 11 }, (_, i) => ({ file: 'a.js', line: i + 1, function: null }));
    expect(validate({ ...report, failed_tests: [{ ...report.failed_tests[0], stack: deep }] })).toBe(false);
    expect(validate({ ...report, truncated: { failed_tests: 0 } })).toBe(false);
  });

  it('closes no object to added fields, in either schema', () => {
    const closed = (value: unknown): boolean => typeof value === 'object' && value !== null
      && Object.entries(value).some(([key, v]) => (key === 'additionalProperties' && v === false) || closed(v));
    expect(closed(read('report.schema.json'))).toBe(false);
    expect(closed(read('events.schema.json'))).toBe(false);
  });
});
