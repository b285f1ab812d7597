import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../src/model/report.js';
import type { TestResult } from '../../../src/model/results.js';
import { artifactPaths } from '../../../src/store/artifacts.js';
import { NAME_LIMIT } from '../../../src/store/history-format.js';
import { historyLines, readHistory, recordHistory } from '../../../src/store/history.js';

const root = mkdtempSync(join(tmpdir(), 'run-tests-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let projects = 0;
const newProject = (): string => {
  const dir = join(root, `p${(projects += 1)}`);
  mkdirSync(join(dir, '.run-tests'), { recursive: true });
  return dir;
};

const id = (n: number): string => `20261201-1645${String(10 + Math.floor(n / 1000)).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}-0000000${n % 10}`;
const iso = (runId: string): string => `2026-12-01T16:45:${runId.slice(13, 15)}.${runId.slice(16, 19)}Z`;

function report(runId: string, over: Partial<RunReport> = {}): RunReport {
  return {
    schema_version: 1, source: 'run', run_id: runId, status: 'passed', exit_code: 0, framework: 'node-test', reason: null, command: null,
    project_root: '/p', exit_status: 0, signal: null, timed_out: false, duration_ms: 40, started_at: iso(runId), finished_at: iso(runId),
    summary: { run: 2, passed: 2, failures: 0, errors: 0, skips: 0 }, failed_tests: [], rerun: null, artifact: null, failures_file: null,
    next: null, warnings: [], error: null, projects: [], ...over,
  };
}

const passed = (name: string, file: string | null = 'a.test.js', durationMs?: number): TestResult => ({ id: name, name, file, line: 1, status: 'passed', ...(durationMs === undefined ? {} : { durationMs }) });
const failed = (name: string, file: string | null = 'a.test.js'): TestResult => ({ id: name, name, file, line: 1, status: 'failed', message: 'boom' });

/** Records run `n` of the project with these tests. */
function record(dir: string, n: number, tests: readonly TestResult[], keep = 200, over: Partial<RunReport> = {}): string {
  const artifacts = artifactPaths(dir, id(n));
  recordHistory(artifacts, report(id(n), over), tests, keep);
  return join(dir, '.run-tests/history', `${id(n)}.tsv`);
}

describe('the history index', () => {
  it('reads back every run and test as dense columns, oldest first', () => {
    const dir = newProject();
    record(dir, 1, [passed('adds', 'a.test.js', 12.4), failed('subtracts')]);
    record(dir, 2, [failed('adds'), passed('divides', null, 3)], 200, { git: { revision: 'abc', dirty: false }, status: 'failed' });
    const history = readHistory(join(dir, '.run-tests'));
    expect(history.warnings).toEqual([]);
    expect(history.runs.map((r) => [r.run_id, r.status, r.revision, r.dirty, r.source, r.started_at])).toEqual([
      [id(1), 'passed', null, null, 'store', iso(id(1))],
      [id(2), 'failed', 'abc', false, 'store', iso(id(2))],
    ]);
    expect(history.tests).toEqual([
      { name: 'adds', file: 'a.test.js', outcomes: ['passed', 'failed'], durations: [12, null] },
      { name: 'subtracts', file: 'a.test.js', outcomes: ['failed', null], durations: [null, null] },
      { name: 'divides', file: null, outcomes: [null, 'passed'], durations: [null, 3] },
    ]);
  });

  it('keeps names with tabs, newlines and backslashes whole, and bounds long ones', () => {
    const dir = newProject();
    const odd = 'a\tb\nc\\d\re \\t';
    record(dir, 1, [passed(odd, 'dir/we\tird.js'), passed('x'.repeat(5000))]);
    const { tests, warnings } = readHistory(join(dir, '.run-tests'));
    expect(warnings).toEqual([]);
    expect(tests.map((t) => [t.name.length > 100 ? `${t.name.length} chars` : t.name, t.file])).toEqual([[odd, 'dir/we\tird.js'], [`${NAME_LIMIT} chars`, 'a.test.js']]);
    expect(tests[1]?.name.endsWith('…')).toBe(true);
  });

  it('writes a line per test: a test reported twice keeps its worse outcome', () => {
    const dir = newProject();
    const file = record(dir, 1, [passed('twice'), failed('twice'), passed('twice')]);
    expect(readFileSync(file, 'utf8').split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect(readHistory(join(dir, '.run-tests')).tests.map((t) => t.outcomes)).toEqual([['failed']]);
  });

  it('records a run without results with unknown counts and no tests', () => {
    const dir = newProject();
    record(dir, 1, [], 200, { status: 'error', summary: { run: null, passed: null, failures: null, errors: null, skips: null } });
    const history = readHistory(join(dir, '.run-tests'));
    expect(history.runs.map((r) => [r.status, r.summary.run])).toEqual([['error', null]]);
    expect(history.tests).toEqual([]);
  });

  it('records a shard run with its shard', () => {
    const dir = newProject();
    const shard = { index: 2, count: 3, units: ['a.test.js'], partition: 'abc123' };
    record(dir, 1, [passed('adds')], 200, { shard });
    expect(readHistory(join(dir, '.run-tests')).runs[0]?.shard).toEqual({ index: 2, count: 3, partition: 'abc123' });
  });

  it('prunes to the newest --keep-history entries, and --limit reads the newest runs', () => {
    const dir = newProject();
    for (let n = 1; n <= 7; n += 1) record(dir, n, [passed(`t${n}`)], 5);
    expect(readdirSync(join(dir, '.run-tests/history')).sort()).toEqual([3, 4, 5, 6, 7].map((n) => `${id(n)}.tsv`));
    const limited = readHistory(join(dir, '.run-tests'), { limit: 2 });
    expect(limited.runs.map((r) => r.run_id)).toEqual([id(6), id(7)]);
    expect(limited.tests.map((t) => [t.name, t.outcomes])).toEqual([['t6', ['passed', null]], ['t7', [null, 'passed']]]);
  });

  it('writes atomically: no temporary file is left, and a link where the entry goes is replaced, not followed', () => {
    const dir = newProject();
    const target = join(root, `outside-${projects}.txt`);
    writeFileSync(target, 'mine\n');
    mkdirSync(join(dir, '.run-tests/history'));
    symlinkSync(target, join(dir, '.run-tests/history', `${id(1)}.tsv`));
    const file = record(dir, 1, [passed('adds')]);
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readdirSync(join(dir, '.run-tests/history'))).toEqual([`${id(1)}.tsv`]);
  });

  it('refuses a history directory that is a link, and reads nothing through it', () => {
    const dir = newProject();
    const elsewhere = join(root, `elsewhere-${projects}`);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(dir, '.run-tests/history'));
    expect(() => record(dir, 1, [passed('adds')])).toThrow(/is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
    writeFileSync(join(elsewhere, `${id(1)}.tsv`), '{"run_tests_history":1}\n');
    const history = readHistory(join(dir, '.run-tests'));
    expect(history.runs).toEqual([]);
    expect(history.warnings).toEqual([`${join(dir, '.run-tests/history')} is a symbolic link; run-tests reads no history through it`]);
  });

  it('skips a corrupt line with a warning naming the file and line, and keeps the rest', () => {
    const dir = newProject();
    const file = record(dir, 1, [passed('one'), passed('two'), passed('three')]);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = 'garbage';
    lines.splice(3, 0, 'p\t12\t7\tunknown file', 'p\tx\t0\tbad ms', 'p\t1\t0\t', 'p\t1\t0\tbad \\q escape');
    writeFileSync(file, lines.join('\n'));
    const history = readHistory(join(dir, '.run-tests'));
    expect(history.tests.map((t) => t.name)).toEqual(['one', 'three']);
    expect(history.warnings).toEqual([
      `${file}:3: not a test line; skipped`,
      `${file}:4: file index 7 is not in the header; skipped`,
      `${file}:5: not a test line (a field is not a number); skipped`,
      `${file}:6: not a test line (no name); skipped`,
      `${file}:7: not a test line (a bad escape in the name); skipped`,
    ]);
  });

  it('skips a foreign file and an entry of another version, each with a warning naming it', () => {
    const dir = newProject();
    record(dir, 1, [passed('one')]);
    const history = join(dir, '.run-tests/history');
    writeFileSync(join(history, 'notes.txt'), 'hello\n');
    writeFileSync(join(history, `${id(2)}.tsv`), 'hello\n');
    writeFileSync(join(history, `${id(3)}.tsv`), '{"run_tests_history":9,"run":{}}\n');
    writeFileSync(join(history, `.${id(4)}.tsv.123.abc.tmp`), 'half');
    const read = readHistory(join(dir, '.run-tests'));
    expect(read.runs.map((r) => r.run_id)).toEqual([id(1)]);
    expect(read.warnings).toEqual([
      `${join(history, 'notes.txt')}: not a history entry of run-tests; skipped`,
      `${join(history, `${id(2)}.tsv`)}:1: not a run-tests history entry (its first line is not JSON); skipped`,
      `${join(history, `${id(3)}.tsv`)}:1: a history entry of version 9; this run-tests reads version 1; skipped`,
    ]);
  });

  it('says how many more bad lines a file has past the first five', () => {
    const dir = newProject();
    const file = record(dir, 1, [passed('one')]);
    writeFileSync(file, `${readFileSync(file, 'utf8')}${'x\n'.repeat(8)}`);
    const { warnings } = readHistory(join(dir, '.run-tests'));
    expect(warnings).toHaveLength(6);
    expect(warnings[5]).toBe(`${file}: 3 more bad lines skipped`);
  });

  it('reads no history where there is none', () => {
    const dir = newProject();
    expect(readHistory(join(dir, '.run-tests'))).toEqual({ runs: [], tests: [], warnings: [] });
    expect(existsSync(join(dir, '.run-tests/history'))).toBe(false);
  });

  it('historyLines keeps the run order and a flaky test as flaky', () => {
    const flaky: TestResult = { id: 'f', name: 'f', file: 'b.js', line: 2, status: 'flaky', message: 'first', attempts: [], durationMs: 5 };
    expect(historyLines([passed('z'), flaky])).toEqual([
      { outcome: 'passed', durationMs: null, file: 'a.test.js', name: 'z' },
      { outcome: 'flaky', durationMs: 5, file: 'b.js', name: 'f' },
    ]);
  });
});
