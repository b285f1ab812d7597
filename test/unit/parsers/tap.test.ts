import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTapParser, parseTap } from '../../../src/parsers/tap.js';
import { expectGolden } from './golden.js';

const outputs = fileURLToPath(new URL('../../fixtures/outputs/tap/', import.meta.url));
const recorded = readdirSync(outputs).filter((f) => f.endsWith('.tap'));
const rootCtx = { root: '<root>' };
const read = (file: string) => parseTap(readFileSync(outputs + file, 'utf8'), rootCtx);
const tap = (...lines: string[]) => parseTap(`${lines.join('\n')}\n`, { root: '/p' });
const brief = (...lines: string[]) => tap(...lines).tests.map((t) => [t.name, t.status]);

describe('TAP, recorded from node --test-reporter=tap', () => {
  it.each(recorded)('%s gives its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.tap$/, '.expected.json'), read(file));
  });

  it.each(recorded)('%s gives the same report fed in small chunks', (file) => {
    const text = readFileSync(outputs + file, 'utf8');
    const parser = createTapParser(rootCtx);
    for (let at = 0, size = 1; at < text.length; at += size, size = (size * 31 + 7) % 97 + 1) parser.push(text.slice(at, at + size));
    expect(parser.end()).toEqual(read(file));
  });

  it('counts leaves only, with node\'s location, failing line and error class', () => {
    const report = read('node-test-mixed.tap');
    expect(report.tests.map((t) => [t.name, t.status, t.file, t.line])).toEqual([
      ['math > adds', 'passed', null, null],
      ['math > subtracts', 'failed', 'mixed.test.js', 10],
      ['math > throws', 'error', 'mixed.test.js', 14],
      ['parent > child ok', 'passed', null, null],
      ['parent > child bad', 'failed', 'mixed.test.js', 21],
      ['skipped', 'skipped', null, null],
      ['todo', 'skipped', null, null],
    ]);
    expect(report.complete).toBe(true);
  });

  it('a report cut off inside a subtest is incomplete', () => {
    expect(read('node-test-truncated.tap')).toMatchObject({ complete: false });
  });
});

describe('TAP, edge cases', () => {
  it('reads TAP 13 and 14 test points, SKIP and TODO (todo is a skip)', () => {
    for (const version of ['13', '14']) {
      expect(brief(`TAP version ${version}`, '1..4', 'ok 1 - a', 'not ok 2 - b', 'ok 3 - c # SKIP no db', 'not ok 4 - d # TODO later')).toEqual([
        ['a', 'passed'], ['b', 'failed'], ['c', 'skipped'], ['d', 'skipped'],
      ]);
    }
    expect(tap('1..1', 'ok 1 - c # SKIP no db').tests[0]).toMatchObject({ message: 'no db' });
  });

  it('joins subtest names with " > " (indented and buffered subtests) and does not count a parent failed by its child', () => {
    expect(brief('TAP version 14', '# Subtest: outer', '    # Subtest: inner', '        not ok 1 - leaf', '        1..1', '    not ok 1 - inner', '    1..1', 'not ok 1 - outer', '1..1'))
      .toEqual([['outer > inner > leaf', 'failed']]);
    expect(brief('TAP version 14', 'ok 1 - p {', '    ok 1 - x', '    1..1', '}', '1..1')).toEqual([['p > x', 'passed']]);
  });

  it('counts a parent that failed on its own after its subtests passed', () => {
    expect(brief('# Subtest: p', '    ok 1 - x', '    1..1', 'not ok 1 - p', '  ---', "  error: 'after hook failed'", "  failureType: 'hookFailure'", '  ...', '1..1'))
      .toEqual([['p > x', 'passed'], ['p', 'error']]);
  });

  it('reads YAML diagnostics: location, stack line, failureType, error name', () => {
    const report = tap('TAP version 13', 'not ok 1 - t', '  ---', "  location: '/p/test/a.test.js:3:1'", "  failureType: 'testCodeFailure'", "  error: 'x is not a function'",
      "  name: 'TypeError'", '  stack: |-', '    f (/p/lib/x.js:1:1)', '    TestContext.<anonymous> (/p/test/a.test.js:5:3)', '  ...', '1..1');
    expect(report.tests).toEqual([{ id: 'test/a.test.js::t', name: 't', file: 'test/a.test.js', line: 5, status: 'error', message: 'TypeError: x is not a function' }]);
  });

  it('Bail out! is incomplete, with a warning', () => {
    const report = tap('TAP version 14', '1..3', 'ok 1 - a', 'Bail out! database down');
    expect(report).toMatchObject({ complete: false, tests: [{ name: 'a', status: 'passed' }] });
    expect(report.warnings).toContain('TAP: Bail out! database down');
  });

  it('a plan that does not match the count, or no plan at all, is incomplete', () => {
    expect(tap('1..3', 'ok 1 - a', 'ok 2 - b').complete).toBe(false);
    expect(tap('ok 1 - a', 'ok 2 - b').complete).toBe(false);
    expect(tap('ok 1 - a', 'ok 2 - b', '1..2').complete).toBe(true);
    expect(tap('').complete).toBe(false);
    expect(tap('TAP version 14', '1..0 # no tests here')).toMatchObject({ complete: true, tests: [] });
  });

  it('recorded: a passing node run with "# fail 1", or with its closing plan made 1..5, contradicts itself', () => {
    expect(read('node-test-passing.tap')).toMatchObject({ complete: true });
    expect(read('node-test-passing.tap')).not.toHaveProperty('contradictions');
    expect(read('node-test-contradicts-fail.tap').contradictions).toEqual([{ message: 'TAP: "# fail 1" at the end, but 0 listed test(s) failed', saysFailed: true }]);
    expect(read('node-test-contradicts-plan.tap')).toMatchObject({ complete: true, contradictions: [{ message: 'TAP: the plan 1..5 says 5 test point(s), but 4 were reported', saysFailed: false }] });
  });

  it('a plan that disagrees with the count contradicts the report, unless it came first and fewer points follow (cut off)', () => {
    expect(tap('1..1', 'ok 1 - a', 'ok 2 - b')).toMatchObject({ complete: true, contradictions: [{ message: 'TAP: the plan 1..1 says 1 test point(s), but 2 were reported' }] });
    expect(tap('ok 1 - a', '1..2').contradictions).toHaveLength(1);
    expect(tap('1..2', 'ok 1 - a')).toMatchObject({ complete: false });
    expect(tap('1..2', 'ok 1 - a')).not.toHaveProperty('contradictions');
  });

  it('compares "# fail N" with the tests only as zero or not (node counts a failed parent there too)', () => {
    expect(tap('1..1', 'not ok 1 - a', '# fail 0').contradictions).toEqual([{ message: 'TAP: "# fail 0" at the end, but 1 listed test(s) failed', saysFailed: false }]);
    expect(tap('1..1', 'not ok 1 - a', '# fail 2').contradictions).toBeUndefined();
    expect(tap('1..1', 'ok 1 - a', '# pass 1', '# fail 0').contradictions).toBeUndefined();
  });

  it('ignores lines that are not TAP, with a warning', () => {
    const report = tap('hello from console.log', '1..1', 'ok 1 - a');
    expect(report).toMatchObject({ complete: true, tests: [{ name: 'a' }] });
    expect(report.warnings).toEqual(['TAP: 1 line(s) were not TAP and were ignored']);
  });

  it('counts finished tests while the report grows (a test point waits for the next line: YAML may follow)', () => {
    const parser = createTapParser({ root: '/p' });
    parser.push('TAP version 14\nok 1 - a\nok 2 - b\nok 3');
    expect(parser.finished).toBe(1);
  });
});
