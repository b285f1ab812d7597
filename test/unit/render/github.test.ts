import { describe, expect, it } from '@jest/globals';
import { SCHEMA_VERSION, type RunReport } from '../../../src/model/report.js';
import type { FailedTestRecord, FlakyTestRecord } from '../../../src/model/results.js';
import {
  escapeData, escapeProperty, githubContext, renderAnnotations, renderStepSummary, runnerAnnotation, workflowCommand,
} from '../../../src/render/github.js';

const failure = (n: number, over: Partial<FailedTestRecord> = {}): FailedTestRecord =>
  ({ test_name: `t${n}`, file: 'test/a.test.js', line: n, status: 'failed', message: `m${n}`, id: `t${n}`, ...over });

const report = (over: Partial<RunReport> = {}): RunReport => ({
  schema_version: SCHEMA_VERSION, source: 'run', run_id: null, status: 'failed', exit_code: 1, framework: 'jest', reason: 'r',
  command: 'npx jest', project_root: '/w/pkg', exit_status: 1, signal: null, timed_out: false, duration_ms: 1500,
  started_at: null, finished_at: null, summary: { run: 3, passed: 2, failures: 1, errors: 0, skips: 0 },
  failed_tests: [failure(1)], rerun: null, artifact: null, failures_file: null, next: 'run-tests --failed-only', warnings: [], error: null, projects: [],
  ...over,
});

const ctx = githubContext({ GITHUB_WORKSPACE: '/w', GITHUB_SERVER_URL: 'https://gh', GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: 'f00' });

describe('workflow commands', () => {
  it("escape data and properties exactly as @actions/core's command.ts does", () => {
    expect(escapeData('50% a:b,c\r\nd')).toBe('50%25 a:b,c%0D%0Ad');
    expect(escapeProperty('50% a:b,c\r\nd')).toBe('50%25 a%3Ab%2Cc%0D%0Ad');
    // `%` first: an escape already in the text stays text.
    expect(escapeProperty('%0A')).toBe('%250A');
    expect(workflowCommand('error', { file: 'a,b.js', line: null, title: '' }, 'x\u001b[31my')).toBe('::error file=a%2Cb.js::xy');
    expect(workflowCommand('warning', {}, 'w')).toBe('::warning::w');
  });

  it('annotate the failures the report lists (--max-failures bounds them) and count those it left out', () => {
    const listed = Array.from({ length: 3 }, (_, i) => failure(i + 1));
    const cut = report({ failed_tests: listed, truncated: { failed_tests: 2 }, failures_file: '/w/pkg/.run-tests/last-failures.json' });
    const lines = renderAnnotations(cut, ctx).trimEnd().split('\n');
    expect(lines).toEqual([
      '::error file=pkg/test/a.test.js,line=1,title=t1::m1',
      '::error file=pkg/test/a.test.js,line=2,title=t2::m2',
      '::error file=pkg/test/a.test.js,line=3,title=t3::m3',
      '::warning title=run-tests::2 more failed tests are not annotated (--max-failures 3); all are in /w/pkg/.run-tests/last-failures.json',
    ]);
    expect(renderStepSummary(cut, ctx)).toContain('\n… 2 more failures not listed (--max-failures); all are in /w/pkg/.run-tests/last-failures.json\n');
  });

  it('explain a failed run without failed tests, and give paths outside the workspace whole', () => {
    const error = report({ status: 'error', exit_code: 3, failed_tests: [], error: { code: 'RUNNER_MISSING', message: 'no jest' }, warnings: ['w, 1'] });
    expect(renderAnnotations(error, ctx)).toBe('::warning title=run-tests::w, 1\n::error title=run-tests%3A error::RUNNER_MISSING: no jest\n');
    expect(renderAnnotations(report({ status: 'passed', exit_code: 0, failed_tests: [] }), ctx)).toBe('');
    const outside = renderAnnotations(report({ project_root: '/elsewhere' }), ctx);
    expect(outside).toBe('::error file=/elsewhere/test/a.test.js,line=1,title=t1::m1\n');
  });

  it("skip a failure the runner annotated itself at the same line, wherever its path was given from", () => {
    const own = runnerAnnotation('::error file=/w/pkg/test/a.test.js,title=x,line=1,column=3::boom', ctx);
    expect(own).toBe('/w/pkg/test/a.test.js:1');
    expect(runnerAnnotation('::error file=pkg/test/a%2Cb.js,line=2::boom', ctx)).toBe('/w/pkg/test/a,b.js:2');
    expect(runnerAnnotation('::warning file=a.js,line=2::w', ctx)).toBeNull();
    expect(renderAnnotations(report({ failed_tests: [failure(1), failure(2)] }), ctx, new Set([own ?? ''])))
      .toBe('::error file=pkg/test/a.test.js,line=2,title=t2::m2\n');
  });
});

describe('the step summary', () => {
  it('holds the status, the counts, a table of failures linked to their lines, and the rerun command', () => {
    const hostile = failure(7, { test_name: 'a | <b> *c* `d`', file: 'test/x (1).js', message: '\n  first\nsecond' });
    expect(renderStepSummary(report({ failed_tests: [hostile, failure(2, { file: null, line: null })], next: 'run-tests --name \'a ``` b\'' }), ctx)).toBe([
      '',
      '## run-tests: failed (jest)',
      '',
      '2 passed, 1 failed, 0 errors, 0 skipped in 1.50s · exit code 1',
      '',
      '### Failures (2)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      '| a &#124; &lt;b&gt; \\*c\\* \\`d\\` | failed | [test/x (1).js:7](https://gh/o/r/blob/f00/pkg/test/x%20%281%29.js#L7) | first |',
      '| t2 | failed |  | m2 |',
      '',
      'Rerun:',
      '',
      '````sh',
      "run-tests --name 'a ``` b'",
      '````',
      '',
      '',
    ].join('\n'));
  });

  it('links nothing without the repository, and counts failures past the bound', () => {
    const text = renderStepSummary(report({ failed_tests: [failure(1), failure(2)], truncated: { failed_tests: 1 }, failures_file: null, next: null }), githubContext({}));
    expect(text).toContain('### Failures (2 of 3)\n');
    expect(text).toContain('| t2 | failed | test/a.test.js:2 | m2 |\n\n… 1 more failure not listed (--max-failures); all are in the log\n\n');
    expect(text).not.toContain('t3');
    expect(text).not.toContain('Rerun');
  });

  it('escapes what would end a cell, open code or be HTML, and shows a message by its first line, at most 200 characters', () => {
    const failed = [
      failure(1, { test_name: 'a|b', message: 'left | right' }),
      failure(2, { test_name: '<script>alert(1)</script>', status: 'error', message: '\r\n  `code` & <b>bold</b>  \r\nsecond line' }),
      failure(3, { test_name: 'long', message: `\u001b[31m${'x'.repeat(198)}😀😀😀\u001b[0m` }),
      failure(4, { test_name: 'fits', message: 'y'.repeat(200) }),
      failure(5, { test_name: '[link](javascript:x) &amp; `', message: '' }),
    ];
    const text = renderStepSummary(report({ failed_tests: failed, truncated: { failed_tests: 7 }, failures_file: '/w/pkg/a|b.json', next: null }), githubContext({}));
    expect(text.split('\n').slice(5)).toEqual([
      '### Failures (5 of 12)',
      '',
      '| Test | Result | Where | Message |',
      '| --- | --- | --- | --- |',
      '| a&#124;b | failed | test/a.test.js:1 | left &#124; right |',
      '| &lt;script&gt;alert(1)&lt;/script&gt; | error | test/a.test.js:2 | \\`code\\` &amp; &lt;b&gt;bold&lt;/b&gt; |',
      // Cut by code point: the emoji is whole or absent, never half a surrogate pair.
      `| long | failed | test/a.test.js:3 | ${'x'.repeat(198)}😀… |`,
      `| fits | failed | test/a.test.js:4 | ${'y'.repeat(200)} |`,
      '| \\[link\\](javascript:x) &amp;amp; \\` | failed | test/a.test.js:5 |  |',
      '',
      '… 7 more failures not listed (--max-failures); all are in /w/pkg/a&#124;b.json',
      '',
      '',
    ]);
  });

  it('says where all the failures are as the human output does, and names every harness error', () => {
    const cut = { failed_tests: [failure(1)], truncated: { failed_tests: 1 } };
    const more = (r: RunReport) => renderStepSummary(r, githubContext({})).split('\n').find((l) => l.startsWith('… '));
    expect(more(report({ ...cut, source: 'merged', parts: [] }))).toBe("… 1 more failure not listed (--max-failures); all are in the shards' reports (their tests)");
    expect(more(report({ ...cut, source: 'imported', artifact: '/w/out.xml' }))).toBe('… 1 more failure not listed (--max-failures); all are in /w/out.xml');
    const projects = [
      report({ project_root: '/w/pkg/a', failures_file: '/w/pkg/a/.run-tests/last-failures.json' }),
      report({ project_root: '/w/pkg/b', failed_tests: [], failures_file: '/w/pkg/b/.run-tests/last-failures.json' }),
      report({ project_root: '/w/pkg/c', status: 'error', failed_tests: [], error: { code: 'RUNNER_MISSING', message: 'no `jest` | here' } }),
    ];
    const several = report({ ...cut, status: 'error', exit_code: 3, projects });
    expect(more(several)).toBe('… 1 more failure not listed (--max-failures); all are in /w/pkg/a/.run-tests/last-failures.json');
    expect(renderStepSummary(several, githubContext({}))).toContain('\n\n**RUNNER\\_MISSING** in c: no \\`jest\\` &#124; here\n\n### Failures (1 of 2)\n');
    const failedToStart = report({ status: 'error', exit_code: 3, failed_tests: [], projects });
    expect(renderAnnotations(failedToStart, ctx)).toBe('::error title=run-tests%3A error::c: RUNNER_MISSING: no `jest` | here\n');
  });
});

describe('flaky tests (--retries)', () => {
  const flaky = (n: number, over: Partial<FlakyTestRecord> = {}): FlakyTestRecord => ({
    test_name: `f${n}`, file: 'test/f.test.js', line: n, id: `f${n}`,
    attempts: [{ status: 'failed', duration_ms: 5, message: `boom ${n}\nat line ${n}` }, { status: 'passed', duration_ms: 4, message: null }],
    ...over,
  });
  const retries = (flakyFails: boolean): RunReport['retries'] => ({ max: 2, flaky_fails: flakyFails, runs: [{ attempt: 2, tests: 1, log: '/w/pkg/.run-tests/r.log', status: 'passed' }] });
  const green = report({
    status: 'passed', exit_code: 0, failed_tests: [], flaky_tests: [flaky(1)], retries: retries(false),
    summary: { run: 2, passed: 1, failures: 0, errors: 0, skips: 0, flaky: 1 }, warnings: ['1 test was flaky: f1'],
  });

  it('are each a ::warning at their line, titled as flaky with their attempts, never an ::error', () => {
    expect(renderAnnotations(green, ctx)).toBe([
      '::warning file=pkg/test/f.test.js,line=1,title=flaky%3A f1 (failed%2C passed)::attempt 1 of 2 failed: boom 1%0Aat line 1',
      '::warning title=run-tests::1 test was flaky: f1',
      '',
    ].join('\n'));
  });

  it('keep a failure that failed every attempt an ::error, titled with how many it had', () => {
    const attempts = [1, 2, 3].map((i) => ({ status: 'failed' as const, duration_ms: 1, message: `m${i}` }));
    const failed = report({ failed_tests: [failure(9, { attempts, message: 'm3' })], flaky_tests: [flaky(2, { attempts: [{ status: 'error', duration_ms: null, message: 'E' }, { status: 'failed', duration_ms: null, message: 'F' }, { status: 'passed', duration_ms: null, message: null }] })], retries: retries(false) });
    expect(renderAnnotations(failed, ctx).split('\n')).toEqual([
      '::error file=pkg/test/a.test.js,line=9,title=t9 (failed all 3 attempts)::m3',
      '::warning file=pkg/test/f.test.js,line=2,title=flaky%3A f2 (error%2C failed%2C passed)::attempt 1 of 3 errored: E%0Aattempt 2 of 3 failed: F',
      '',
    ]);
  });

  it('that fail the run (--flaky-fails) say so in its one ::error, and still annotate each flaky test as a warning', () => {
    const failing = report({ ...green, status: 'failed', exit_code: 1, retries: retries(true), warnings: [] });
    expect(renderAnnotations(failing, ctx).split('\n')).toEqual([
      '::warning file=pkg/test/f.test.js,line=1,title=flaky%3A f1 (failed%2C passed)::attempt 1 of 2 failed: boom 1%0Aat line 1',
      '::error title=run-tests%3A failed::1 flaky test fails the run (--flaky-fails): f1',
      '',
    ]);
  });

  it('count those --max-failures left out', () => {
    const cut = report({ ...green, flaky_tests: [flaky(1), flaky(2)], truncated: { failed_tests: 0, flaky_tests: 3 }, warnings: [] });
    expect(renderAnnotations(cut, ctx).trimEnd().split('\n').at(-1)).toBe("::warning title=run-tests::3 more flaky tests are not annotated (--max-failures 2); all are in the report's flaky_tests");
    expect(renderStepSummary(cut, githubContext({}))).toContain("### Flaky (2 of 5): failed, then passed on a retry\n");
    expect(renderStepSummary(cut, githubContext({}))).toContain("\n… 3 more flaky tests not listed (--max-failures); all are in the report's flaky_tests\n");
  });

  it('are listed in the step summary, linked to their lines, with their attempts and first failure, escaped', () => {
    const hostile = flaky(3, { test_name: '<script>x</script> | y', attempts: [{ status: 'failed', duration_ms: 1, message: '\n  `a` <b>\nmore' }, { status: 'passed', duration_ms: 1, message: null }] });
    const text = renderStepSummary(report({ ...green, flaky_tests: [flaky(1), hostile], next: null }), ctx);
    expect(text.split('\n').slice(3)).toEqual([
      '1 passed, 0 failed, 0 errors, 0 skipped, 1 flaky in 1.50s · exit code 0',
      '',
      '### Flaky (2): failed, then passed on a retry',
      '',
      '| Test | Attempts | Where | First failure |',
      '| --- | --- | --- | --- |',
      '| f1 | failed, passed | [test/f.test.js:1](https://gh/o/r/blob/f00/pkg/test/f.test.js#L1) | boom 1 |',
      '| &lt;script&gt;x&lt;/script&gt; &#124; y | failed, passed | [test/f.test.js:3](https://gh/o/r/blob/f00/pkg/test/f.test.js#L3) | \\`a\\` &lt;b&gt; |',
      '',
      '',
    ]);
    expect(renderStepSummary(report(), ctx)).not.toContain('Flaky');
  });
});
