import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { validateEvent } from '../../../support/schemas.js';
import { createMinitestParser } from '../../../../src/runners/minitest/events.js';
import { MESSAGE_LIMIT_BYTES } from '../../../../src/parsers/fields.js';
import { parseText } from '../../../../src/parsers/stream.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/minitest');
const ctx = { root: '<root>' };
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const parse = (text: string, context = ctx) => parseText(createMinitestParser, text, context);

const test = (fields: Record<string, unknown>): string => JSON.stringify({
  event: 'test_end', name: 'ATest#test_a', file: '/p/test/a_test.rb', line: 3, status: 'passed', duration_ms: 1, ...fields,
});
const START = '{"event":"run_start","schema":1,"runner":"minitest","runner_version":"5.17.0","pid":1}';
const END = '{"event":"run_end","pid":1,"totals":{"tests":1,"failed":0,"errors":0,"skipped":0}}';

describe('minitest events, recorded from real runs (scripts/record/minitest.sh)', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['filtered', 'load-error', 'mixed', 'rails-parallel', 'same-name', 'truncated']);
  });

  it('holds only events valid by schema/events.schema.json (but the line a killed writer cut)', () => {
    const validate = validateEvent;
    for (const file of cases.map((name) => `${name}.jsonl`)) {
      const lines = readFileSync(join(outputs, file), 'utf8').split('\n').filter((line) => line.endsWith('}'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect([file, line, validate(JSON.parse(line))]).toEqual([file, line, true]);
    }
  });

  it.each(cases)('%s matches its expected report', (name) => {
    expectGolden(join(outputs, `${name}.expected.json`), parse(readFileSync(join(outputs, `${name}.jsonl`), 'utf8')));
  });
});

describe('minitest events, small inputs', () => {
  const root = { root: '/p' };

  it('names a test by its class and method, which is its id, and is complete when its process ended', () => {
    expect(parse(`${START}\n${test({})}\n${END}\n`, root)).toEqual({
      tests: [{ id: 'ATest#test_a', name: 'ATest#test_a', file: 'test/a_test.rb', line: 3, durationMs: 1, status: 'passed' }],
      complete: true,
      warnings: [],
    });
  });

  it('is incomplete without a run_end, or when one of two processes did not end', () => {
    expect(parse(`${START}\n${test({})}\n`, root).complete).toBe(false);
    expect(parse(`${START}\n${test({})}\n${END}\n${START.replace('"pid":1', '"pid":2')}\n`, root).complete).toBe(false);
  });

  it('keeps two tests that share a name (same-named describe blocks), with where each failed', () => {
    const failing = test({ status: 'failed', line: 7, message: 'no', location: { file: '/p/test/a_test.rb', line: 8 } });
    const text = [START, failing, test({ duration_ms: 2 }), END.replace('"tests":1,"failed":0', '"tests":2,"failed":1')].join('\n');
    const report = parse(text, root);
    expect(report.tests).toEqual([
      { id: 'ATest#test_a', name: 'ATest#test_a', file: 'test/a_test.rb', line: 8, durationMs: 1, status: 'failed', message: 'no' },
      { id: 'ATest#test_a', name: 'ATest#test_a', file: 'test/a_test.rb', line: 3, durationMs: 2, status: 'passed' },
    ]);
    expect([report.warnings, report.contradictions]).toEqual([[], undefined]);
  });

  it("never passes when minitest's own totals count a failure no test_end shows", () => {
    const report = parse(`${START}\n${test({})}\n${END.replace('"failed":0', '"failed":1')}\n`, root);
    expect(report.contradictions).toEqual([{ message: 'the runner counts 1 failed tests, but 0 were reported failing', saysFailed: true }]);
  });

  it('turns a crash in a test file into a load error of that file, and leaves the run incomplete', () => {
    const crash = '{"event":"error","kind":"crash","file":"/p/test/broken_test.rb","line":5,"message":"NameError: uninitialized constant X"}';
    expect(parse(crash, root)).toEqual({
      tests: [{ id: 'test/broken_test.rb', name: 'load error: test/broken_test.rb', file: 'test/broken_test.rb', line: 5, status: 'error', outside: true, message: 'NameError: uninitialized constant X' }],
      complete: false,
      warnings: [],
    });
  });

  it('turns a crash outside the project files (bundler failing to resolve the Gemfile) into a warning, never a test', () => {
    const report = parse('{"event":"error","kind":"crash","file":null,"line":null,"message":"Bundler::GemNotFound: Could not find gem \'x\'\\n"}', root);
    expect(report).toEqual({
      tests: [], complete: false,
      warnings: ["a Ruby process ended on an exception outside the tests: Bundler::GemNotFound: Could not find gem 'x'"],
    });
  });

  it('makes a run whose tests test-unit ran unusable, whatever else the report holds', () => {
    const unusable = { event: 'unusable', code: 'RUNNER_UNSUPPORTED', message: 'test-unit ran the tests (process 7), not minitest' };
    expect(parse([JSON.stringify(unusable), START, test({}), END].join('\n')).unusable).toEqual({ code: 'RUNNER_UNSUPPORTED', message: unusable.message });
    expect(parse([START, test({}), END].join('\n')).unusable).toBeUndefined();
  });

  it('bounds messages to the byte limit without splitting a character', () => {
    const long = 'é'.repeat(MESSAGE_LIMIT_BYTES); // 2 bytes each
    const report = parse(test({ status: 'error', message: `E: x${long}` }), root);
    const message = report.tests[0] !== undefined && 'message' in report.tests[0] ? report.tests[0].message ?? '' : '';
    // 2048 bytes less 256 left for the log's path, less the 16-byte marker: "E: x" and 886 two-byte characters.
    expect(message).toBe(`E: x${'é'.repeat(886)}\n… 1 more line`);
    expect(Buffer.byteLength(message)).toBe(1792);
  });

  it('warns about lines it cannot read and keeps the rest', () => {
    const report = parse(`${START}\nnoise from somewhere\n${test({ status: 'bogus' })}\n${test({})}\n${END}\n`, root);
    expect(report.tests.map((t) => t.id)).toEqual(['ATest#test_a']);
    expect(report.warnings).toEqual([
      'line 2: not valid JSON, ignored: noise from somewhere',
      'line 3: test_end with unknown status "bogus", ignored',
    ]);
    expect(report.complete).toBe(true);
  });

  it('counts finished tests as lines arrive, for the live count', () => {
    const parser = createMinitestParser({ root: '/p' });
    parser.push(`${START}\n${test({})}\n${test({ name: 'ATest#test_b' })}`);
    expect(parser.finished).toBe(1);
    parser.push('\n');
    expect(parser.finished).toBe(2);
  });
});
