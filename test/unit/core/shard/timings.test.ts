import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTimingsFile } from '../../../../src/core/shard/timings-file.js';
import { recordedDurations } from '../../../../src/core/shard/recorded.js';
import { durationLookup } from '../../../../src/core/shard/timings.js';
import { renderJunit } from '../../../../src/render/junit.js';
import { newRunId } from '../../../../src/store/runs.js';
import { SCHEMA_VERSION, type RunReport } from '../../../../src/model/report.js';
import type { TestResult } from '../../../../src/model/results.js';
import { HarnessError } from '../../../../src/model/errors.js';
import { unitOfTests } from '../../../../src/core/shard/select.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import { runnerById } from '../../../../src/runners/index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-timings-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const report = (root: string, over: Partial<RunReport> = {}): RunReport => ({
  schema_version: SCHEMA_VERSION, source: 'run', run_id: null, status: 'passed', exit_code: 0, framework: 'rspec', reason: null,
  command: 'rspec', project_root: root, exit_status: 0, signal: null, timed_out: false, duration_ms: 1, started_at: null,
  finished_at: null, summary: { run: 1, passed: 1, failures: 0, errors: 0, skips: 0 }, failed_tests: [], rerun: null,
  artifact: null, failures_file: null, next: null, warnings: [], error: null, projects: [], ...over,
});

let n = 0;
const write = (text: string): string => {
  const file = path.join(tmp, `timings-${n++}`);
  fs.writeFileSync(file, text);
  return file;
};
const byFile = (test: { file: string | null }) => test.file;
const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('USAGE');
    return (error as Error).message;
  }
  throw new Error('no usage error');
};

describe('readTimingsFile', () => {
  it('reads a run-tests report\'s unit_durations', () => {
    const file = write(JSON.stringify(report('/ci/a/app', { unit_durations: { 'spec/a_spec.rb': 1200, 'spec/b_spec.rb': 30.5 } })));
    expect([...readTimingsFile(file, '/elsewhere/app', byFile)]).toEqual([['spec/a_spec.rb', 1200], ['spec/b_spec.rb', 30.5]]);
  });

  it('keys a report of several projects relative to its root, never by its absolute paths', () => {
    const merged = report('/ci/x/repo', {
      unit_durations: { 'services/shop/spec/a_spec.rb': 900 },
      projects: [
        report('/ci/x/repo/services/shop', { unit_durations: { 'spec/a_spec.rb': 1, 'spec/b_spec.rb': 40 } }),
        report('/ci/x/repo/web', { framework: 'jest', unit_durations: { 'test/w.test.js': 7 } }),
      ],
    });
    const durations = readTimingsFile(write(JSON.stringify(merged)), '/here/repo/services/shop', byFile);
    // The report's own combined entry wins over its project's.
    expect(Object.fromEntries(durations)).toEqual({ 'services/shop/spec/a_spec.rb': 900, 'services/shop/spec/b_spec.rb': 40, 'web/test/w.test.js': 7 });
    const lookup = durationLookup(durations, 'services/shop');
    expect([lookup('spec/a_spec.rb'), lookup('spec/b_spec.rb'), lookup('spec/c_spec.rb')]).toEqual([900, 40, undefined]);
  });

  it('sums a JUnit file\'s testcase times per unit; a unit with no time is unknown, not 0', () => {
    const tests: TestResult[] = [
      { id: '1', name: 'A one', file: 'spec/a_spec.rb', line: 1, status: 'passed', durationMs: 250 },
      { id: '2', name: 'A two', file: 'spec/a_spec.rb', line: 5, status: 'failed', message: 'no', durationMs: 750 },
      { id: '3', name: 'B one', file: 'spec/b_spec.rb', line: 1, status: 'passed', durationMs: 125 },
      { id: '4', name: 'C one', file: 'spec/c_spec.rb', line: 1, status: 'skipped' },
    ];
    const file = write(renderJunit(report('/ci/app', { status: 'failed' }), tests));
    expect(Object.fromEntries(readTimingsFile(file, '/here/app', byFile))).toEqual({ 'spec/a_spec.rb': 1000, 'spec/b_spec.rb': 125 });
    // The runner's own unit, where it has one.
    expect(Object.fromEntries(readTimingsFile(file, '/here/app', (t) => (t.file ?? '').replace(/_spec\.rb$/, '')))).toEqual({ 'spec/a': 1000, 'spec/b': 125 });
  });

  it('places go\'s JUnit testcases in their packages by their classname, the import path', () => {
    const root = path.join(tmp, 'gomod');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/shop\n\ngo 1.19\n');
    // A passing go test has no file: only its suite (the package) says where it ran.
    const tests: TestResult[] = [
      { id: 'example.com/shop TestA', name: 'TestA', file: null, line: null, status: 'passed', durationMs: 300, suite: 'example.com/shop' },
      { id: 'example.com/shop/cart TestB', name: 'TestB', file: null, line: null, status: 'passed', durationMs: 1200, suite: 'example.com/shop/cart' },
      { id: 'example.com/shop/cart TestC', name: 'TestC', file: null, line: null, status: 'passed', durationMs: 10, suite: 'example.com/shop/cart' },
    ];
    const file = write(renderJunit(report('/ci/shop', { status: 'passed', framework: 'go' }), tests));
    const unitOf = unitOfTests(runnerById('go')!, readProjectFacts(root));
    expect(Object.fromEntries(readTimingsFile(file, root, unitOf))).toEqual({ '.': 300, cart: 1210 });
  });

  it('refuses, naming why, what is neither a run-tests report nor JUnit', () => {
    expect(usage(() => readTimingsFile(write('hello'), tmp, byFile))).toMatch(/is neither a run-tests JSON report nor JUnit XML/);
    expect(usage(() => readTimingsFile(write('{"a": 1'), tmp, byFile))).toMatch(/is not valid JSON/);
    expect(usage(() => readTimingsFile(write('{"tests": []}'), tmp, byFile))).toMatch(/JSON but not a run-tests report/);
    expect(usage(() => readTimingsFile(write('<html><body/></html>'), tmp, byFile))).toMatch(/not a JUnit report: the root element is <html>/);
    expect(usage(() => readTimingsFile(write('<testsuites></testsuites>'), tmp, byFile))).toMatch(/holds no JUnit testcases/);
    expect(usage(() => readTimingsFile(path.join(tmp, 'absent'), tmp, byFile))).toMatch(/could not be read: ENOENT/);
  });
});

describe('durationLookup', () => {
  const durations = new Map([['web/spec/a_spec.rb', 1], ['spec/a_spec.rb', 2], ['/ci/one/app/spec/b_spec.rb', 3], ['x/spec/c_spec.rb', 4], ['y/spec/c_spec.rb', 5]]);

  it('prefers the project\'s place below the invocation directory, then the name itself, then the one key ending in it', () => {
    expect(durationLookup(durations, 'web')('spec/a_spec.rb')).toBe(1);
    expect(durationLookup(durations, '')('spec/a_spec.rb')).toBe(2);
    expect(durationLookup(durations, '')('spec/b_spec.rb')).toBe(3);
    // Two keys end in it: neither is taken for it.
    expect(durationLookup(durations, '')('spec/c_spec.rb')).toBeUndefined();
    expect(durationLookup(durations, '')('b_spec.rb')).toBe(3);
    expect(durationLookup(durations, '')('pec/b_spec.rb')).toBeUndefined();
  });
});

describe('recordedDurations', () => {
  it('takes each unit\'s newest recorded duration, from whole runs of the same runner only', () => {
    const dir = path.join(tmp, 'project', '.run-tests');
    const store = (over: Partial<RunReport>) => {
      const id = newRunId();
      fs.mkdirSync(path.join(dir, 'runs', id), { recursive: true });
      fs.writeFileSync(path.join(dir, 'runs', id, 'report.json'), JSON.stringify(report(path.dirname(dir), over)));
    };
    store({ unit_durations: { 'spec/a_spec.rb': 100, 'spec/b_spec.rb': 200 } });
    store({ framework: 'minitest', unit_durations: { 'spec/c_spec.rb': 5 } });
    store({ unit_durations: { 'spec/a_spec.rb': 150 } });
    store({});
    // Neither a rerun nor a shard: the shards after it would deal from other durations.
    store({ rerun: { selected: 1, not_run: [] }, unit_durations: { 'spec/a_spec.rb': 1 } });
    store({ shard: { index: 1, count: 2, units: ['spec/b_spec.rb'], partition: '0' }, unit_durations: { 'spec/b_spec.rb': 2 } });
    expect(Object.fromEntries(recordedDurations(dir, 'rspec'))).toEqual({ 'spec/a_spec.rb': 150, 'spec/b_spec.rb': 200 });
    expect(recordedDurations(path.join(tmp, 'none'), 'rspec').size).toBe(0);
  });
});
