import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { createMinitestParser, parseMinitestJsonl } from '../../../../src/runners/minitest/jsonl.js';
import { MESSAGE_LIMIT_BYTES } from '../../../../src/parsers/fields.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/minitest');
const ctx = { root: '<root>' };
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));

const line = (fields: Record<string, unknown>): string => JSON.stringify({
  type: 'test', class: 'ATest', name: 'test_a', status: 'passed', time: 0.001,
  file: '/p/test/a_test.rb', line: 3, failure_file: null, failure_line: null, exception: null, message: null,
  ...fields,
});
const END = '{"type":"end","pid":1,"count":1,"assertions":1,"failures":0,"errors":0,"skips":0}';
const START = '{"type":"start","pid":1}';

describe('parseMinitestJsonl on recorded real outputs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['filtered', 'load-error', 'mixed', 'rails-parallel', 'same-name', 'truncated']);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    const text = readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
    expectGolden(join(outputs, `${name}.expected.json`), parseMinitestJsonl(text, ctx));
  });
});

describe('parseMinitestJsonl on small inputs', () => {
  const root = { root: '/p' };

  it('turns an invalid line into a warning and keeps the rest', () => {
    const report = parseMinitestJsonl(`${START}\nnoise from somewhere\n${line({})}\n${END}\n`, root);
    expect(report.tests.map((t) => t.id)).toEqual(['ATest#test_a']);
    expect(report.warnings).toEqual(['line 2: not valid JSON, ignored: noise from somewhere']);
    expect(report.complete).toBe(true);
  });

  it('is incomplete without an end line', () => {
    const report = parseMinitestJsonl(`${START}\n${line({})}\n`, root);
    expect(report.complete).toBe(false);
    expect(report.tests).toHaveLength(1);
  });

  it('is incomplete when one of two processes did not end', () => {
    const text = `${START}\n${line({})}\n${END}\n{"type":"start","pid":2}\n`;
    expect(parseMinitestJsonl(text, root).complete).toBe(false);
  });

  it('keeps every test line, also two tests that share a name (same-named describe blocks)', () => {
    const text = [START, line({ status: 'failed', line: 7, failure_file: '/p/test/a_test.rb', failure_line: 8, exception: 'Minitest::Assertion', message: 'no' }),
      line({ time: 0.002 }), END.replace('"count":1', '"count":2')].join('\n');
    const report = parseMinitestJsonl(text, root);
    expect(report.tests).toEqual([
      { id: 'ATest#test_a', name: 'ATest#test_a', file: 'test/a_test.rb', line: 8, durationMs: 1, status: 'failed', message: 'no' },
      { id: 'ATest#test_a', name: 'ATest#test_a', file: 'test/a_test.rb', line: 3, durationMs: 2, status: 'passed' },
    ]);
    expect(report.warnings).toEqual([]);
  });

  it('warns when the end count disagrees with the test lines read', () => {
    const text = `${START}\n${END.replace('"count":1', '"count":3')}\n`;
    expect(parseMinitestJsonl(text, root).warnings).toEqual(['the end line counts 3 tests but 0 test lines were read']);
  });

  it('uses the definition line when the failure is outside the test file', () => {
    const report = parseMinitestJsonl(line({
      status: 'error', failure_file: '/p/lib/a.rb', failure_line: 9, exception: 'RuntimeError', message: 'x',
    }), root);
    expect(report.tests[0]).toMatchObject({ line: 3, status: 'error', message: 'RuntimeError: x' });
  });

  it('keeps files outside the root absolute', () => {
    const report = parseMinitestJsonl(line({ file: '/elsewhere/a_test.rb' }), root);
    expect(report.tests[0]?.file).toBe('/elsewhere/a_test.rb');
  });

  it('gives a failure without message or exception a message anyway', () => {
    const report = parseMinitestJsonl(line({ status: 'failed' }), root);
    expect(report.tests[0]).toMatchObject({ status: 'failed', message: 'failed without a message' });
  });

  it('bounds messages to the byte limit without splitting a character', () => {
    const long = 'é'.repeat(MESSAGE_LIMIT_BYTES); // 2 bytes each
    const report = parseMinitestJsonl(line({ status: 'error', exception: 'E', message: `x${long}` }), root);
    const test = report.tests[0];
    expect(test?.status).toBe('error');
    const message = test !== undefined && 'message' in test ? test.message ?? '' : '';
    // "E: x" is 4 bytes, 1020 two-byte characters take 2040 and the 3-byte "…" marks the cut.
    expect(message).toBe(`E: x${'é'.repeat(1020)}…`);
    expect(Buffer.byteLength(message)).toBe(2047);
  });

  it('turns a crash without a project file (bundler failing to resolve the Gemfile) into a warning, never a test', () => {
    const report = parseMinitestJsonl('{"type":"crash","exception":"Bundler::GemNotFound","message":"Could not find gem \'x\'","file":null,"line":null}', root);
    expect(report.tests).toEqual([]);
    expect(report.warnings).toEqual(["a Ruby process ended on an exception outside the tests: Bundler::GemNotFound: Could not find gem 'x'"]);
    expect(report.complete).toBe(false);
  });

  it('makes a run whose tests test-unit ran unusable, whatever else the report holds', () => {
    const text = ['{"type":"unsupported","framework":"test-unit","pid":7}', START, line({}), END].join('\n');
    expect(parseMinitestJsonl(text, ctx).unusable).toEqual({
      code: 'RUNNER_UNSUPPORTED',
      message: "test-unit ran the tests (process 7), not minitest: run-tests reads minitest's results only, so it cannot tell how they went; run the suite with its own command",
    });
    expect(parseMinitestJsonl([START, line({}), END].join('\n'), ctx).unusable).toBeUndefined();
  });

  it('warns about well-formed lines it does not understand', () => {
    const report = parseMinitestJsonl(`{"type":"weird"}\n${line({ status: 'bogus' })}\n[1]\n`, root);
    expect(report.tests).toEqual([]);
    expect(report.warnings).toEqual([
      'line 1: unknown record type "weird", ignored',
      'line 2: test line with unknown status "bogus", ignored',
      'line 3: not valid JSON, ignored: [1]',
    ]);
  });

  it('counts finished tests as lines arrive, for the live count', () => {
    const parser = createMinitestParser(root);
    parser.push(`${START}\n${line({})}\n${line({ name: 'b' })}`);
    expect(parser.finished).toBe(1);
    parser.push('\n');
    expect(parser.finished).toBe(2);
  });
});
