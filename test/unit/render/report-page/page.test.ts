import { describe, expect, it } from '@jest/globals';
import { testStats } from '../../../../src/core/history/stats.js';
import { pageModel } from '../../../../src/render/report-page/model.js';
import { renderReportPage } from '../../../../src/render/report-page/page.js';
import { sampleHistory, sampleLastReport, XSS_NAME } from '../../../support/page-history.js';

const history = sampleHistory(30);
const page = (project = '/home/dev/shop', last = sampleLastReport(history)) =>
  renderReportPage(pageModel(history, testStats(history), last, project, '2026-11-21T15:00:00.000Z'));
const count = (html: string, pattern: RegExp): number => html.match(pattern)?.length ?? 0;

describe('renderReportPage', () => {
  it('is the same page for the same model', () => {
    expect(page()).toBe(page());
  });

  it('loads nothing: a CSP that allows inline styles and data images only, no script, no URL but the SVG namespace', () => {
    const html = page();
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
    expect(count(html, /<script/gi)).toBe(0);
    expect([...new Set(html.match(/[a-z]+:\/\/[^\s"'<>)]*/gi))]).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('escapes every name, file and message, in text and in titles: markup in them is only text', () => {
    const html = page('/home/dev/"><script>alert(3)</script>');
    expect(html).not.toContain(XSS_NAME);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('alert(3)</script>');
    // The name in the slowest and flakiest tables, the failure, and each of its two charts' titles.
    expect(count(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/g)).toBe(5);
    expect(html).toContain('<div class="file">src/&lt;img src=x onerror=alert(2)&gt;.test.ts:4</div>');
    expect(html).toContain('<title>Tests of /home/dev/&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;</title>');
    // The message's terminal colour shows as an escape; its markup as text.
    expect(html).toContain('AssertionError: expected &quot;&lt;b&gt;bold&lt;/b&gt;&quot; to be &quot;&lt;i&gt;it&lt;/i&gt;&quot;\n\\x1b[31m- Expected\\x1b[39m');
  });

  it('draws each chart as SVG with a title and a description: runs, 7 duration lines, 2 outcome strips, 1 partition', () => {
    const html = page();
    const charts = [...html.matchAll(/<svg class="chart[^"]*"[^>]*aria-labelledby="([^ "]+) ([^"]+)">/g)];
    expect(charts.map((c) => c[1])).toEqual(['runs-title', ...[0, 1, 2, 3, 4, 5, 6].map((i) => `slow-${i}-title`), 'flaky-0-title', 'flaky-1-title', 'shards-0-title']);
    for (const [, title, desc] of charts) {
      expect(html).toContain(`<title id="${title}">`);
      expect(html).toContain(`<desc id="${desc}">`);
    }
    // Every run's column says what it was: 30 runs, 30 titled groups.
    expect(count(html, /<g><title>2026-11-/g)).toBe(30);
    expect(html).toContain('<title>2026-11-21 14:00 (20261121-140000.000-0000101d): failed; 6 passed, 1 failed, 0 flaky, 1 skipped</title>');
  });

  it('labels a few runs under the axis, the newest always, none overlapping it', () => {
    const labels = [...page().matchAll(/<text class="label"[^>]*>(2026-[^<]+)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['2026-11-20 09:00', '2026-11-20 14:00', '2026-11-20 19:00', '2026-11-21 00:00', '2026-11-21 05:00', '2026-11-21 14:00']);
  });

  it('says what it left out and where the rest is', () => {
    const last = sampleLastReport(history);
    const html = page('/p', { ...last, failed_tests: Array.from({ length: 51 }, () => last.failed_tests[0]!) });
    expect(html).toContain('50 of 51 shown (at most 50; .run-tests/last-failures.json has them all)');
    expect(html).toContain('The 7 slowest of 8 tests by median duration (at most 12 are listed)');
    expect(html).toContain('2 of 2 tests whose outcome changed between runs or that were flaky, most flips first (at most 20 are listed).');
  });

  it('says so where there is nothing to draw', () => {
    const html = renderReportPage(pageModel({ runs: [], tests: [], warnings: ['h/1.tsv:1: not a history entry; skipped'] }, [], null, '/p', '2026-11-21T15:00:00.000Z'));
    expect(count(html, /<svg/g)).toBe(0);
    expect(html).toContain('No run is recorded yet');
    expect(html).toContain('No test has a recorded duration.');
    expect(html).toContain('No report of a last run.');
    expect(html).toContain('<summary>1 line of the history could not be read</summary><ul><li>h/1.tsv:1: not a history entry; skipped</li></ul>');
    expect(html).not.toContain('Shard balance');
  });
});
