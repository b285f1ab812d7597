import { describe, expect, it } from '@jest/globals';
import { Chalk } from 'chalk';
import { SCHEMA_VERSION, type RunReport } from '../../../src/model/report.js';
import { chalkFor } from '../../../src/render/colors.js';
import { renderHuman, summaryLine } from '../../../src/render/human.js';

const plain = new Chalk({ level: 0 });

const report: RunReport = {
  schema_version: SCHEMA_VERSION,
  source: 'run',
  run_id: '20261201-164511.123-3f9a0c1d',
  status: 'failed',
  exit_code: 1,
  framework: 'minitest',
  reason: 'Gemfile found',
  command: 'bundle exec rake test',
  project_root: '<root>',
  exit_status: 1,
  signal: null,
  timed_out: false,
  duration_ms: 1234,
  started_at: '2026-12-01T16:45:11.123Z',
  finished_at: '2026-12-01T16:45:12.357Z',
  summary: { run: 4, passed: 2, failures: 1, errors: 1, skips: 0 },
  failed_tests: [
    { test_name: 'A#test_x', file: 'test/a_test.rb', line: 9, status: 'failed', message: 'Expected: 1\n  Actual: 2', id: 'A#test_x' },
    { test_name: 'load error', file: null, line: null, status: 'error', message: 'LoadError: boom', id: 'load error' },
  ],
  rerun: null,
  artifact: '<root>/.run-tests/last-test.log',
  failures_file: '<root>/.run-tests/last-failures.json',
  next: 'run-tests --failed-only',
  warnings: ['something to know'],
  error: null,
  projects: [],
};

describe('renderHuman', () => {
  it('shows the header, failures first, the summary line, the log and the next step', () => {
    expect(renderHuman(report, plain)).toBe([
      'run-tests · minitest · <root>',
      '$ bundle exec rake test',
      '',
      'Failures (2):',
      '',
      '  1) test/a_test.rb:9 failed',
      '     A#test_x',
      '     Expected: 1',
      '       Actual: 2',
      '',
      '  2) (unknown location) error',
      '     load error',
      '     LoadError: boom',
      '',
      'warning: something to know',
      '',
      'FAILED  2 passed, 1 failed, 1 errors, 0 skipped in 1.23s',
      'log: <root>/.run-tests/last-test.log',
      'next: run-tests --failed-only',
      '',
    ].join('\n'));
  });

  it('says how many failures --max-failures left out, and where they all are', () => {
    const capped = renderHuman({ ...report, failed_tests: report.failed_tests.slice(0, 1), truncated: { failed_tests: 3 }, warnings: [] }, plain);
    expect(capped).toContain('\nFailures (1 of 4):\n');
    expect(capped).toContain('\n… 3 more failures not listed (--max-failures); all are in <root>/.run-tests/last-failures.json\n');
    expect(renderHuman(report, plain)).not.toContain('not listed');
    // Without a failures file: an imported report's file, the failures files of a run's projects that failed, else the log.
    const cut = { ...report, failed_tests: report.failed_tests.slice(0, 1), truncated: { failed_tests: 1 }, failures_file: null };
    const where = (r: RunReport) => renderHuman(r, plain).split('\n').find((l) => l.startsWith('… '));
    expect(where({ ...cut, source: 'imported', artifact: '<root>/junit.xml' })).toBe('… 1 more failure not listed (--max-failures); all are in <root>/junit.xml');
    const projects = [{ ...report, failures_file: '<root>/a/f.json' }, { ...report, failed_tests: [], failures_file: '<root>/b/f.json' }, { ...report, failures_file: '<root>/c/f.json' }];
    expect(where({ ...cut, projects })).toBe('… 1 more failure not listed (--max-failures); all are in <root>/a/f.json, <root>/c/f.json');
    expect(where(cut)).toBe('… 1 more failure not listed (--max-failures); all are in the log');
  });

  it('says which shard ran, of how many units, and what balanced the parts', () => {
    const shard = { index: 2, count: 4, units: ['test/a.test.js'], partition: '0123456789abcdef', total_units: 9, balanced_by: '--timings main.json' };
    expect(renderHuman({ ...report, shard }, plain).split('\n').slice(0, 3)).toEqual([
      ...renderHuman(report, plain).split('\n').slice(0, 2),
      'shard 2/4: 1 of 9 units, balanced by --timings main.json',
    ]);
    const empty = renderHuman({ ...report, command: null, shard: { ...shard, units: [], total_units: 3 } }, plain);
    expect(empty).toContain('\nshard 2/4: 0 of 3 units, balanced by --timings main.json\n');
    // An empty shard started nothing: no `$` line.
    expect(empty).not.toMatch(/^\$/m);
  });

  it('names the tests that were running when the run timed out', () => {
    const timedOut: RunReport = {
      ...report, status: 'timed_out', timed_out: true, failed_tests: [], warnings: [],
      running_at_timeout: [{ name: 'hangs', file: 'test/hang.test.js' }, { name: null, file: 'test/slow.test.js' }, { name: 'TestHang', file: null }],
    };
    expect(renderHuman(timedOut, plain).split('\n').slice(3, 5)).toEqual([
      'TIMED OUT  2 passed, 1 failed, 1 errors, 0 skipped (timed out after 1.23s)',
      'running when it timed out: hangs (test/hang.test.js), test/slow.test.js, TestHang',
    ]);
    expect(renderHuman({ ...timedOut, running_at_timeout: null }, plain)).not.toContain('running when');
  });

  it('shows an imported report as imported from its file, never as a command that ran', () => {
    const imported: RunReport = {
      ...report,
      source: 'imported',
      framework: 'junit',
      reason: '--format junit given',
      command: null,
      exit_status: null,
      duration_ms: 0,
      artifact: '<root>/reports/junit.xml',
      failures_file: null,
      next: null,
      warnings: [],
      failed_tests: report.failed_tests.slice(0, 1),
    };
    expect(renderHuman(imported, plain)).toBe([
      'run-tests · junit · <root>',
      'imported from <root>/reports/junit.xml',
      '',
      'Failures (1):',
      '',
      '  1) test/a_test.rb:9 failed',
      '     A#test_x',
      '     Expected: 1',
      '       Actual: 2',
      '',
      'FAILED  2 passed, 1 failed, 1 errors, 0 skipped',
      '',
    ].join('\n'));
    const unknown = renderHuman({ ...imported, framework: null, status: 'error', failed_tests: [], error: { code: 'REPORT_MISSING', message: 'r.xml is empty' } }, plain);
    expect(unknown.split('\n').slice(0, 2)).toEqual(['run-tests · <root>', 'imported from <root>/reports/junit.xml']);
    expect(unknown).not.toMatch(/^\$|log: /m);
  });

  it('shows control characters and escape sequences from tests, files, runners and paths as escapes', () => {
    const title = '\x1b]0;pwned\x07';
    const hostile: RunReport = {
      ...report,
      project_root: `/p/${title}`,
      command: `go test -run '^T${title}$'`,
      failed_tests: [{ test_name: `A#test_${title}\x1b[2J\u009b31m`, file: `test/\x1b[31m_test.rb`, line: 3, status: 'failed', message: `boom \x1b[2J\n\tline 2\u009b1A\r`, id: 'x' }],
      warnings: [`runner said \x1b[?1049h\nand more`],
      error: { code: 'RUNNER_FAILED', message: `it broke\n\x1b]8;;http://x\x07link` },
      artifact: `/p/${title}/.run-tests/last-test.log`,
      next: `run-tests --failed-only ${title}`,
    };
    const out = renderHuman(hostile, plain);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toBe([
      'run-tests · minitest · /p/\\x1b]0;pwned\\x07',
      "$ go test -run '^T\\x1b]0;pwned\\x07$'",
      '',
      'Failures (1):',
      '',
      '  1) test/\\x1b[31m_test.rb:3 failed',
      '     A#test_\\x1b]0;pwned\\x07\\x1b[2J\\u009b31m',
      '     boom \\x1b[2J',
      '     \tline 2\\u009b1A\\x0d',
      '',
      'warning: runner said \\x1b[?1049h',
      'and more',
      '',
      'error: it broke',
      '\\x1b]8;;http://x\\x07link',
      '',
      'FAILED  2 passed, 1 failed, 1 errors, 0 skipped in 1.23s',
      'log: /p/\\x1b]0;pwned\\x07/.run-tests/last-test.log',
      'next: run-tests --failed-only \\x1b]0;pwned\\x07',
      '',
    ].join('\n'));
  });

  it('shows unknown counts as ?, never 0', () => {
    expect(summaryLine({ run: null, passed: null, failures: null, errors: null, skips: null })).toBe('? passed, ? failed, ? errors, ? skipped');
  });

  it('colours only when allowed', () => {
    expect(renderHuman(report, new Chalk({ level: 1 }))).toContain('\u001b[');
    expect(chalkFor({ NO_COLOR: '1' }).level).toBe(0);
    // FORCE_COLOR wins over NO_COLOR: chalk's own detection (which reads FORCE_COLOR) decides.
    expect(chalkFor({ NO_COLOR: '1', FORCE_COLOR: '1' }).level).toBe(new Chalk().level);
    expect(chalkFor({ NO_COLOR: '' }).level).toBe(new Chalk().level);
  });
});
