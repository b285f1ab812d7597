import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { testStats } from '../../src/core/history/stats.js';
import { renderReportPage } from '../../src/render/report-page/page.js';
import { pageModel } from '../../src/render/report-page/model.js';
import { evaluate, launchChromium, navigate, openPage, type Browser } from '../support/chromium.js';
import { sampleHistory, sampleLastReport, XSS_NAME } from '../support/page-history.js';
import { hasTools, REPO } from './helpers.js';

/** The report page in a real browser, offline: it must draw every chart, log no error,
 * request nothing, and show a test named like markup as text. UPDATE_SCREENSHOT=1 also
 * writes docs/report-page.png from the same page. */
const WIDTH = 1100;
const run = hasTools('chromium') ? describe : describe.skip;

interface Seen {
  charts: { id: string; width: number; height: number }[];
  scripts: number;
  injected: number;
  names: string[];
  files: string[];
  title: string;
  height: number;
}

run('the report page in headless chromium', () => {
  let browser: Browser;
  let session: string;
  let seen: Seen;
  let screenshot: Buffer;
  let url: string;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-page-'));
    const history = sampleHistory(30);
    const page = renderReportPage(pageModel(history, testStats(history), sampleLastReport(history), '/home/dev/shop', '2026-11-21T15:00:00.000Z'));
    const file = path.join(dir, 'index.html');
    fs.writeFileSync(file, page);
    url = pathToFileURL(file).href;
    browser = launchChromium();
    session = await openPage(browser, WIDTH, 900);
    await navigate(browser, session, url, 30_000);
    seen = await evaluate<Seen>(browser, session, `(() => ({
      charts: [...document.querySelectorAll('svg.chart')].map((svg) => { const r = svg.getBoundingClientRect(); return { id: svg.getAttribute('aria-labelledby'), width: r.width, height: r.height }; }),
      scripts: document.querySelectorAll('script').length,
      injected: document.querySelectorAll('img, iframe, object, embed, link, base, form').length,
      names: [...document.querySelectorAll('.name')].map((n) => n.textContent),
      files: [...document.querySelectorAll('.file')].map((n) => n.textContent),
      title: document.title,
      height: document.documentElement.scrollHeight,
    }))()`);
    await browser.send('Emulation.setDeviceMetricsOverride', { width: WIDTH, height: seen.height, deviceScaleFactor: 1, mobile: false }, session);
    const { data } = await browser.send('Page.captureScreenshot', { format: 'png' }, session);
    screenshot = Buffer.from(String(data), 'base64');
    if (process.env['UPDATE_SCREENSHOT'] === '1') fs.writeFileSync(path.join(REPO, 'docs/report-page.png'), screenshot);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  test('draws every chart with a size: the runs, 7 duration lines (the skipped test has none), 2 outcome strips, 1 partition', () => {
    const ids = seen.charts.map((c) => c.id?.split(' ')[0]);
    expect(ids).toEqual(['runs-title', ...[0, 1, 2, 3, 4, 5, 6].map((i) => `slow-${i}-title`), 'flaky-0-title', 'flaky-1-title', 'shards-0-title']);
    for (const c of seen.charts) {
      expect(c.width).toBeGreaterThan(0);
      expect(c.height).toBeGreaterThan(0);
    }
  });

  test('logs no error, throws nothing, requests nothing but the page, opens no dialog', () => {
    const methods = (name: string) => browser.events.filter((e) => e.method === name);
    expect(methods('Runtime.exceptionThrown')).toEqual([]);
    expect(methods('Runtime.consoleAPICalled')).toEqual([]);
    expect(methods('Log.entryAdded').map((e) => e.params['entry'])).toEqual([]);
    expect(methods('Network.loadingFailed')).toEqual([]);
    expect(methods('Network.requestWillBeSent').map((e) => (e.params['request'] as { url: string }).url)).toEqual([url]);
    expect(methods('Page.javascriptDialogOpening')).toEqual([]);
  });

  test('shows the test named like markup as text, and no element it names', () => {
    expect(seen.names).toContain(XSS_NAME);
    expect(seen.names.filter((n) => n.includes(XSS_NAME))).toHaveLength(3);
    expect(seen.files).toContain('src/<img src=x onerror=alert(2)>.test.ts:4');
    expect(seen.scripts).toBe(0);
    expect(seen.injected).toBe(0);
    expect(seen.title).toBe('Tests of /home/dev/shop');
  });

  test('follows the reader\'s colour scheme: light by default, dark when asked', async () => {
    const colours = async (scheme: string) => {
      await browser.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] }, session);
      return evaluate<string[]>(browser, session, `[document.body, document.querySelector('svg.chart rect.o-passed')].map((e) => { const s = getComputedStyle(e); return s.backgroundColor + ' ' + s.fill; })`);
    };
    expect(await colours('light')).toEqual(['rgb(255, 255, 255) rgb(0, 0, 0)', 'rgb(26, 127, 55) rgb(26, 127, 55)']);
    expect(await colours('dark')).toEqual(['rgb(13, 17, 23) rgb(0, 0, 0)', 'rgb(63, 185, 80) rgb(63, 185, 80)']);
  });

  test('takes a screenshot: a PNG of the whole page', () => {
    expect(screenshot.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(screenshot.readUInt32BE(16)).toBe(WIDTH);
    expect(screenshot.readUInt32BE(20)).toBe(seen.height);
    expect(screenshot.length).toBeGreaterThan(10_000);
  });
});

