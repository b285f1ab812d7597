import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createJunitParser, parseJunit } from '../../../src/parsers/junit.js';
import { expectGolden } from './golden.js';

const outputs = fileURLToPath(new URL('../../fixtures/outputs/junit/', import.meta.url));
const recorded = readdirSync(outputs).filter((f) => f.endsWith('.xml'));
/** The recording's context: `<root>`, plus the go module path for gotestsum's files. */
function ctxOf(file: string) {
  const sidecar = outputs + file.replace(/\.xml$/, '.context.json');
  return { root: '<root>', ...(existsSync(sidecar) ? JSON.parse(readFileSync(sidecar, 'utf8')) : {}) };
}
const read = (file: string) => parseJunit(readFileSync(outputs + file, 'utf8'), ctxOf(file));
const ctx = { root: '/p' };
const parse = (xml: string) => parseJunit(xml, ctx);
const brief = (xml: string) => parse(xml).tests.map((t) => [t.name, t.status, t.file, t.line]);

describe('JUnit XML, recorded from real producers', () => {
  it.each(recorded)('%s gives its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.xml$/, '.expected.json'), read(file));
  });

  it.each(recorded)('%s gives the same report fed in small chunks', (file) => {
    const text = readFileSync(outputs + file, 'utf8');
    const parser = createJunitParser(ctxOf(file));
    for (let at = 0, size = 1; at < text.length; at += size, size = (size * 31 + 7) % 97 + 1) parser.push(text.slice(at, at + size));
    expect(parser.end()).toEqual(read(file));
  });

  it('reads pytest xunit1 and xunit2 alike, xunit1 adding 1-based definition lines', () => {
    const names = (file: string) => read(file).tests.map((t) => [t.name, t.status]);
    expect(names('pytest-xunit1-mixed.xml')).toEqual(names('pytest-xunit2-mixed.xml'));
    const passes = read('pytest-xunit1-mixed.xml').tests.find((t) => t.name === 'test_mixed.test_passes');
    expect(passes).toMatchObject({ file: 'test_mixed.py', line: 4 }); // line="3": 0-based
  });

  it('keeps gotestsum\'s build failure (errors="1" on <testsuites> only) and drops the parent TestTable', () => {
    const report = read('gotestsum-build-error.xml');
    expect(report.tests.map((t) => t.name)).not.toContain('TestTable');
    expect(report.tests.filter((t) => t.status === 'error')).toEqual([expect.objectContaining({ id: 'junit:unattributed-errors-1' })]);
    expect(report.tests.find((t) => t.name === 'TestTable/wrong_[neg]')).toMatchObject({ file: 'calc/calc_test.go', line: 26, id: 'example.com/producers/calc TestTable/wrong_[neg]' });
  });

  it('keeps the skip mocha-junit-reporter counts only on the root', () => {
    expect(read('mocha-junit-reporter-mixed.xml').tests.filter((t) => t.status === 'skipped').map((t) => t.id)).toEqual(['junit:unattributed-skipped-1']);
  });

  it('counts jest-junit\'s six testcases, though its suite says tests="5", with a warning', () => {
    const report = read('jest-junit-mixed.xml');
    expect(report.tests).toHaveLength(6);
    expect(report.warnings.join('\n')).toMatch(/tests="5", but the report lists 6 testcase/);
  });

  it('names node:test\'s nested tests by their suites and finds the failing line through `cause:`', () => {
    expect(read('node-test-mixed.xml').tests.filter((t) => t.status === 'failed').map((t) => [t.name, t.file, t.line])).toEqual([
      ['math > subtracts', 'mixed.test.js', 10],
      ['math > throws', 'mixed.test.js', 14],
      ['parent > child bad', 'mixed.test.js', 21],
    ]);
  });

  it('reads mocha\'s xunit reporter: errors="2" failures="0" beside two <failure> elements is no phantom error', () => {
    const report = read('mocha-xunit-mixed.xml');
    expect(report.tests.map((t) => [t.name, t.status])).toEqual([['math adds', 'passed'], ['math subtracts', 'failed'], ['math skipped', 'skipped'], ['math nested throws', 'failed']]);
    expect([report.warnings, report.contradictions]).toEqual([[], undefined]);
  });

  it('a passing mocha xunit report whose suite says tests="2" beside one testcase contradicts itself', () => {
    expect(read('mocha-xunit-passing.xml').contradictions).toBeUndefined();
    expect(read('mocha-xunit-contradicts.xml').contradictions).toEqual([{ message: '<testsuite>: tests="2", but the report lists 1 testcase(s)', saysFailed: false }]);
  });

  it('a truncated report is incomplete and keeps the testcases read before the cut', () => {
    const report = read('jest-junit-truncated.xml');
    expect(report.complete).toBe(false);
    expect(report.tests.map((t) => t.name)).toEqual(['math adds']);
  });
});

describe('JUnit XML, edge cases', () => {
  it('reads a <testsuite> root, nested suites and a bare <testcase> root', () => {
    expect(brief('<testsuite name="s"><testcase classname="A" name="a"/></testsuite>')).toEqual([['A.a', 'passed', null, null]]);
    expect(brief('<testsuites><testsuite name="o"><testsuite name="i"><testcase classname="A" name="a"/></testsuite></testsuite></testsuites>')).toEqual([['A.a', 'passed', null, null]]);
    expect(parse('<testcase classname="A" name="a"><failure message="m"/></testcase>')).toMatchObject({ complete: true, tests: [{ status: 'failed', message: 'm' }] });
  });

  it('tells <failure>, <error> and <skipped> apart', () => {
    expect(brief('<testsuite><testcase name="f"><failure>x</failure></testcase><testcase name="e"><error type="E"/></testcase><testcase name="s"><skipped/></testcase></testsuite>').map((t) => t[1]))
      .toEqual(['failed', 'error', 'skipped']);
  });

  it('Surefire reruns: passed after a flaky failure (with a warning); failed when the rerun failed too', () => {
    const report = parse(`<testsuite name="s">
      <testcase classname="c.FooTest" name="flaky"><flakyFailure message="first">t</flakyFailure></testcase>
      <testcase classname="c.FooTest" name="broken"><failure message="final"/><rerunFailure message="again"/></testcase>
      <testcase classname="c.FooTest" name="rerunOnly"><rerunFailure message="again">at c.FooTest.rerunOnly(FooTest.java:9)</rerunFailure></testcase>
      <testcase classname="c.FooTest" name="errs"><rerunError message="npe"/></testcase></testsuite>`);
    expect(report.tests.map((t) => [t.name, t.status])).toEqual([['c.FooTest.flaky', 'passed'], ['c.FooTest.broken', 'failed'], ['c.FooTest.rerunOnly', 'failed'], ['c.FooTest.errs', 'error']]);
    expect(report.warnings).toEqual(['c.FooTest.flaky: passed on rerun after 1 failed attempt(s)']);
  });

  it('reads file and line from the testcase, the failure, `file="x:38"`, or a frame in the failure text', () => {
    expect(brief('<testsuite><testcase name="a" file="/p/t/a.js" line="3"/></testsuite>')).toEqual([['a', 'passed', 't/a.js', 3]]);
    expect(brief('<testsuite><testcase name="a" file="t/a.js" lineno="4"/></testsuite>')).toEqual([['a', 'passed', 't/a.js', 4]]);
    expect(brief('<testsuite><testcase name="a" file="t/a.js:38"/></testsuite>')).toEqual([['a', 'passed', 't/a.js', 38]]);
    expect(brief('<testsuite><testcase name="a" file="t/a.js" line="3"><failure file="t/a.js" line="9" message="m"/></testcase></testsuite>')).toEqual([['a', 'failed', 't/a.js', 9]]);
    expect(brief('<testsuite><testcase name="a"><failure>Error: x\n    at f (/p/node_modules/lib.js:1:1)\n    at Object.&lt;anonymous&gt; (/p/t/a.test.js:12:5)</failure></testcase></testsuite>'))
      .toEqual([['a', 'failed', 't/a.test.js', 12]]);
    // With a known file, only a frame in that file gives the line.
    expect(brief('<testsuite><testcase name="a" file="t/b.py" line="1"><failure>t/helper.py:5: in f\nt/b.py:9: AssertionError</failure></testcase></testsuite>')).toEqual([['a', 'failed', 't/b.py', 9]]);
  });

  it('adds 1 to pytest\'s 0-based line, and only pytest\'s', () => {
    expect(brief('<testsuites><testsuite name="pytest"><testcase classname="t" name="a" file="t.py" line="0"/></testsuite></testsuites>')).toEqual([['t.a', 'passed', 't.py', 1]]);
    expect(brief('<testsuites><testsuite name="other"><testcase classname="t" name="a" file="t.py" line="1"/></testsuite></testsuites>')).toEqual([['t.a', 'passed', 't.py', 1]]);
  });

  it('ignores system-out and system-err for results', () => {
    expect(brief('<testsuite><testcase name="a"><system-out>&lt;failure&gt; FAIL</system-out><system-err>x</system-err></testcase><system-out/></testsuite>')).toEqual([['a', 'passed', null, null]]);
  });

  it('counts testcases, not suite attributes; a claim of more errors, failures or skips becomes unattributed entries', () => {
    const report = parse('<testsuites tests="4" failures="2" errors="1" skipped="1"><testsuite><testcase name="a"><failure/></testcase></testsuite></testsuites>');
    expect(report.tests.map((t) => [t.id, t.status])).toEqual([
      ['a', 'failed'], ['junit:unattributed-errors-1', 'error'], ['junit:unattributed-failures-1', 'error'], ['junit:unattributed-skipped-1', 'skipped'],
    ]);
    expect(report.tests[1]).toMatchObject({ message: expect.stringContaining('<testsuites>: errors="1"') });
    // Without counts on <testsuites>, the top-level suites' counts are summed (nested ones are not added again).
    expect(parse('<testsuites><testsuite errors="1"><testsuite errors="1"/></testsuite><testsuite errors="1"/></testsuites>').tests).toHaveLength(2);
  });

  it('compares failures and errors in total: a different split is a classification, more is unattributed, fewer a contradiction', () => {
    const failing = '<testcase name="a"><failure/></testcase>';
    expect(parse(`<testsuite tests="1" failures="0" errors="1">${failing}</testsuite>`)).toMatchObject({ tests: [{ name: 'a', status: 'failed' }], warnings: [] });
    expect(parse(`<testsuite tests="2" failures="1" errors="1">${failing}</testsuite>`).tests.map((t) => t.id)).toEqual(['a', 'junit:unattributed-errors-1']);
    expect(parse(`<testsuite tests="1" failures="0" errors="0">${failing}</testsuite>`).contradictions)
      .toEqual([{ message: '<testsuite>: failures="0" errors="0", but 1 testcase(s) failed', saysFailed: false }]);
    // More testcases than `tests` (jest-junit leaves todo tests out of it) hides nothing: a warning only.
    const more = parse('<testsuite tests="1"><testcase name="a"/><testcase name="b"/></testsuite>');
    expect([more.contradictions, more.warnings]).toEqual([undefined, [expect.stringContaining('tests="1", but the report lists 2')]]);
    expect(parse('<testsuite tests="3"><testcase name="a"/><testcase name="b"/></testsuite>').contradictions)
      .toEqual([{ message: '<testsuite>: tests="3", but the report lists 2 testcase(s)', saysFailed: false }]);
  });

  it('drops a go parent testcase unless it failed on its own', () => {
    const go = (cases: string) => brief(`<testsuites><testsuite name="m"><properties><property name="go.version" value="go1.19"/></properties>${cases}</testsuite></testsuites>`).map((t) => [t[0], t[1]]);
    expect(go('<testcase classname="m" name="TestA/x"><failure/></testcase><testcase classname="m" name="TestA"><failure/></testcase>')).toEqual([['TestA/x', 'failed']]);
    expect(go('<testcase classname="m" name="TestA/x"/><testcase classname="m" name="TestA"><failure>cleanup failed</failure></testcase>')).toEqual([['TestA/x', 'passed'], ['TestA', 'failed']]);
    expect(go('<testcase classname="m" name="TestA/x"/><testcase classname="m" name="TestA"/>')).toEqual([['TestA/x', 'passed']]);
  });

  it('names tests per producer', () => {
    expect(brief('<testsuite name="x"><testcase classname="FooTest" name="test_a" assertions="1"/></testsuite>')[0]?.[0]).toBe('FooTest#test_a');
    expect(parse('<testsuites name="vitest tests"><testsuite><testcase classname="/p/a.test.ts" name="d &gt; t"/></testsuite></testsuites>').tests[0]).toMatchObject({ name: 'd > t', id: 'a.test.ts::d > t', file: 'a.test.ts' });
    expect(brief('<testsuites name="jest tests"><testsuite><testcase classname="d t" name="d t"/></testsuite></testsuites>')[0]?.[0]).toBe('d t');
    expect(parse('<testsuite><testcase classname="com.x.FooTest" name="bar"/></testsuite>').tests[0]).toMatchObject({ name: 'com.x.FooTest.bar', id: 'com.x.FooTest::bar' });
  });

  it('is incomplete when cut off, malformed, or not JUnit at all', () => {
    expect(parse('<testsuite><testcase name="a"/><testcase name="b">')).toMatchObject({ complete: false, tests: [{ name: 'a' }] });
    expect(parse('<testsuite><testcase name="a"></testsuite>').complete).toBe(false);
    expect(parse('<html><body/></html>')).toMatchObject({ complete: false, tests: [] });
    expect(parse('')).toMatchObject({ complete: false, tests: [] });
    expect(parse('<testsuite><testcase name="a"/></testsuite>trailing junk').complete).toBe(false);
  });

  it('decodes entities and CDATA, and bounds messages to 2 KiB', () => {
    const report = parse(`<testsuite><testcase name="a&amp;b &#x41;&#66;"><failure><![CDATA[<x> & ${'y'.repeat(5000)}]]></failure></testcase></testsuite>`);
    expect(report.tests[0]?.name).toBe('a&b AB');
    const message = report.tests[0]?.status === 'failed' ? report.tests[0].message : '';
    expect(message.startsWith('<x> & y')).toBe(true);
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(2048);
  });

  it('is incomplete, with the validator\'s words, when tags do not match or the document has two roots', () => {
    expect(parse('<testsuites><testsuite><testcase name="a"/></testcase></testsuites>')).toMatchObject({
      complete: false, warnings: [expect.stringMatching(/^JUnit XML: Expected closing tag 'testsuite' .* instead of closing tag 'testcase'\. \(line 1, column \d+\)$/), expect.any(String)],
    });
    expect(parse('<testsuite><testcase name="a"/></testsuite><testsuite><testcase name="b"/></testsuite>').warnings[0]).toBe('JUnit XML: 2 root elements; a document has one');
  });

  it('keeps the testcases before a cut inside a failure\'s CDATA, a comment or a tag', () => {
    const head = '<testsuites><testsuite><testcase name="a"/><testcase name="b"><failure><![CDATA[x < y';
    expect(parse(head)).toMatchObject({ complete: false, tests: [{ name: 'a', status: 'passed' }] });
    expect(parse(head).warnings).toContain('JUnit XML: the document ends before </testcase> (3 element(s) left open)');
    expect(parse('<testsuite><testcase name="a"/><!-- a note <b>')).toMatchObject({ complete: false, tests: [{ name: 'a' }] });
    expect(parse('<testsuite><testcase name="a"/><testcase name="b" time="1')).toMatchObject({ complete: false, tests: [{ name: 'a' }] });
  });

  it('leaves entities a DTD declares unexpanded, and reads Surefire\'s nested <stackTrace> as the failure\'s text', () => {
    const dtd = '<!DOCTYPE t [<!ENTITY big "xxxxxxxxxx">]><testsuite><testcase name="&big;"><failure>at &big;</failure></testcase></testsuite>';
    expect(parse(dtd).tests).toMatchObject([{ name: '&big;', message: 'at &big;' }]);
    const flaky = parse('<testsuite><testcase classname="c.T" name="f"><failure message="boom"><stackTrace>at c.T.f(T.java:9) &amp; more</stackTrace></failure></testcase></testsuite>');
    expect(flaky.tests).toMatchObject([{ status: 'failed', message: 'boom\n\nat c.T.f(T.java:9) & more' }]);
  });

  it('counts finished testcases while the report grows', () => {
    const parser = createJunitParser(ctx);
    parser.push('<testsuite><testcase name="a"/><testcase name="b"/><testc');
    expect(parser.finished).toBe(2);
    parser.push('ase name="c" time="1"/><testcase name="d"><failure>x</fail');
    expect(parser.finished).toBe(3);
    parser.push('ure></testcase></testsuite>');
    expect(parser.finished).toBe(4);
  });
});
