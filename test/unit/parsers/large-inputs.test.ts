/** Inputs far larger or deeper than real reports: each parser reads them to the right
 * result, or refuses nesting beyond its limit with an error that names it. How long they
 * take is measured by `npm run bench` (bench/benchmarks/linearity.js), never here. */
import { describe, expect, it } from '@jest/globals';
import { createJunitParser, MAX_DEPTH as XML_DEPTH } from '../../../src/parsers/junit.js';
import type { ReportParser } from '../../../src/parsers/stream.js';
import { createTapParser, MAX_DEPTH as TAP_DEPTH } from '../../../src/parsers/tap.js';

const MB = 1024 * 1024;
const ctx = { root: '/p' };

/** Feeds the parts in 64 KiB chunks, as `run-tests parse` reads a file. */
function feed(parser: ReportParser, ...parts: string[]) {
  for (const part of parts) for (let at = 0; at < part.length; at += 64 * 1024) parser.push(part.slice(at, at + 64 * 1024));
  return parser.end();
}

describe('TAP, large and deep', () => {
  it('reads a 64 MB test point line to the right result', () => {
    const report = feed(createTapParser(ctx), 'TAP version 13\nnot ok 1 - ', 'x'.repeat(64 * MB), '\nok 2 - after\n1..2\n');
    expect(report.complete).toBe(true);
    expect(report.tests.map((t) => [t.name.length, t.status])).toEqual([[64 * MB, 'failed'], [5, 'passed']]);
  });

  it('reads the lines after one holding a lone \\r or U+2028 (tap-parser alone stops there)', () => {
    const report = feed(createTapParser(ctx), 'TAP version 13\nok 1 - a\u2028b\nok 2 - c\rd\nnot ok 3 - e\n1..3\n');
    expect(report).toMatchObject({ complete: true, tests: [{ name: 'a b', status: 'passed' }, { name: 'c d', status: 'passed' }, { name: 'e', status: 'failed' }] });
  });

  const nested = (depth: number) => {
    const lines = ['TAP version 14'];
    for (let i = 0; i < depth; i += 1) lines.push(`${'    '.repeat(i)}# Subtest: s${i}`);
    lines.push(`${'    '.repeat(depth)}ok 1 - leaf`, `${'    '.repeat(depth)}1..1`);
    for (let i = depth - 1; i >= 0; i -= 1) lines.push(`${'    '.repeat(i)}ok 1 - s${i}`, `${'    '.repeat(i)}1..1`);
    return `${lines.join('\n')}\n`;
  };

  it(`reads subtests nested ${TAP_DEPTH} deep, and refuses deeper ones naming the limit`, () => {
    expect(feed(createTapParser(ctx), nested(TAP_DEPTH)).tests).toHaveLength(1);
    expect(() => feed(createTapParser(ctx), nested(TAP_DEPTH + 1))).toThrow(`subtests nest more than ${TAP_DEPTH} deep (under s0 > s1 > s2 …); TAP reports are read to a depth of ${TAP_DEPTH}`);
  });
});

describe('JUnit XML, large and deep', () => {
  it('reads 32 MB of failure text, CDATA and attribute to the right result', () => {
    const text = feed(createJunitParser(ctx), '<testsuite><testcase name="a"><failure>', 'x &amp; y '.repeat(3 * MB), '</failure></testcase></testsuite>');
    expect(text).toMatchObject({ complete: true, tests: [{ name: 'a', status: 'failed', message: expect.stringMatching(/^x & y x & y /) }] });
    const cdata = feed(createJunitParser(ctx), '<testsuite><testcase name="a"><error><![CDATA[', '] x ]>'.repeat(6 * MB), ']]></error></testcase><testcase name="b"/></testsuite>');
    expect(cdata).toMatchObject({ complete: true, tests: [{ name: 'a', status: 'error', message: expect.stringMatching(/^\] x \]>\] x \]>/) }, { name: 'b', status: 'passed' }] });
    const attr = feed(createJunitParser(ctx), '<testsuite><testcase name="', 'a>b '.repeat(8 * MB), '" time="1"><skipped/></testcase><!--', ' - '.repeat(MB), '--></testsuite>');
    expect(attr.complete).toBe(true);
    expect(attr.tests.map((t) => [t.name.length, t.status, t.durationMs])).toEqual([[32 * MB - 1, 'skipped', 1000]]);
  });

  it('keeps an entity the chunk boundary cuts in two', () => {
    const parser = createJunitParser(ctx);
    for (const part of ['<testsuite><testcase name="a"><failure>1 &a', 'mp; 2 &#x4', '1;</failure></testcase></testsuite>']) parser.push(part);
    expect(parser.end().tests).toMatchObject([{ message: '1 & 2 A' }]);
  });

  const nested = (depth: number) => `${'<testsuite>'.repeat(depth)}<testcase name="a"/>${'</testsuite>'.repeat(depth)}`;

  it(`reads elements nested ${XML_DEPTH} deep, and refuses deeper ones naming the limit`, () => {
    expect(feed(createJunitParser(ctx), nested(XML_DEPTH)).tests).toHaveLength(1);
    expect(() => feed(createJunitParser(ctx), nested(100_000))).toThrow(`elements nest more than ${XML_DEPTH} deep (<testsuite> inside <testsuite>); JUnit reports are read to a depth of ${XML_DEPTH}`);
  });
});
