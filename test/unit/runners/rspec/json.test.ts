import { describe, it, expect } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseRspecJson } from '../../../../src/runners/rspec/json.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/rspec/', import.meta.url));
const ctx = { root: '<root>' };
const read = (name: string): string => readFileSync(outputs + name, 'utf8');

describe('parseRspecJson on recorded rspec output', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json') && f !== 'recordings.json');

  it('has the recorded cases', () => {
    expect(cases.sort()).toEqual(['filtered.json', 'hang.json', 'load-error.json', 'mixed.json', 'rerun-by-ids.json', 'truncated.json']
      .concat('contradicts.json').sort());
  });

  it.each(cases)('%s matches its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.json$/, '.expected.json'), parseRspecJson(read(file), ctx));
  });
});

const example = (over: Record<string, unknown>): Record<string, unknown> => ({
  id: './spec/a_spec.rb[1:1]', description: 'x', full_description: 'A x', status: 'failed',
  file_path: './spec/a_spec.rb', line_number: 3, run_time: 0.0012, pending_message: null, ...over,
});
const report = (examples: unknown[], extra: Record<string, unknown> = {}): string => JSON.stringify({
  version: '3.12.0', examples,
  summary: { duration: 0, example_count: examples.length, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: 0 },
  ...extra,
});
const withErrors = (messages: string[], count: number): string => report([], {
  messages,
  summary: { duration: 0, example_count: 0, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: count },
});

describe('parseRspecJson examples', () => {
  it('treats aggregate failures as failed and other exceptions as error', () => {
    const parsed = parseRspecJson(report([
      example({ exception: { class: 'RSpec::Expectations::MultipleExpectationsNotMetError', message: 'Got 2 failures', backtrace: [] } }),
      example({ id: './spec/a_spec.rb[1:2]', exception: { class: 'NoMethodError', message: 'undefined method', backtrace: [] } }),
    ]), ctx);
    expect(parsed.tests.map((t) => t.status)).toEqual(['failed', 'error']);
    expect(parsed.tests[1]).toMatchObject({ message: 'NoMethodError: undefined method', line: 3, durationMs: 1.2 });
  });

  it('takes the line from the first frame in the example file, absolute or relative', () => {
    const parsed = parseRspecJson(report([example({
      exception: { class: 'RuntimeError', message: 'x', backtrace: [
        '/gems/rspec-support/lib/support.rb:102:in `block`', '/proj/lib/thing.rb:9:in `go`',
        '/proj/spec/a_spec.rb:7:in `block (2 levels)`', './spec/a_spec.rb:4:in `other`'] },
    })]), { root: '/proj/' });
    expect(parsed.tests[0]).toMatchObject({ file: 'spec/a_spec.rb', line: 7 });
  });

  it('falls back to the definition line when no frame is in the example file', () => {
    const parsed = parseRspecJson(report([example({
      exception: { class: 'RuntimeError', message: 'x', backtrace: ['/proj/lib/thing.rb:9:in `go`'] },
    })]), { root: '/proj' });
    expect(parsed.tests[0]).toMatchObject({ line: 3 });
  });

  it('bounds messages to 2048 bytes without splitting a character', () => {
    const parsed = parseRspecJson(report([example({ exception: { class: 'E', message: 'é'.repeat(3000), backtrace: [] } })]), ctx);
    const test = parsed.tests[0];
    const message = test && 'message' in test ? (test.message ?? '') : '';
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(2048);
    expect(message.startsWith('E: éé')).toBe(true);
    expect(message.endsWith('é\n… 1 more line')).toBe(true);
  });

  it('counts an unknown status as an error with a warning', () => {
    const parsed = parseRspecJson(report([example({ status: 'weird' })]), ctx);
    expect(parsed.tests[0]).toMatchObject({ status: 'error' });
    expect(parsed.warnings).toHaveLength(1);
  });

  it('is incomplete without a summary and on non-JSON text', () => {
    expect(parseRspecJson(JSON.stringify({ examples: [example({ status: 'passed' })] }), ctx)).toMatchObject({ complete: false, tests: [{ status: 'passed' }] });
    expect(parseRspecJson('', ctx)).toMatchObject({ complete: false, tests: [] });
    expect(parseRspecJson('<html>', ctx).warnings).toHaveLength(1);
  });
});

describe('parseRspecJson summary counts that contradict the examples', () => {
  it('recorded: the passing filtered run with failure_count 1 (one edit of filtered.json)', () => {
    expect(parseRspecJson(read('filtered.json'), ctx).contradictions).toBeUndefined();
    expect(parseRspecJson(read('contradicts.json'), ctx).contradictions).toEqual([{ message: 'summary.failure_count is 1, but 0 listed tests failed', saysFailed: true }]);
  });

  it('checks example_count, failure_count and pending_count against the examples only', () => {
    const summary = (counts: Record<string, number>) => ({ summary: { duration: 0, example_count: 1, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: 0, ...counts } });
    const passed = [example({ status: 'passed' })];
    expect(parseRspecJson(report(passed, summary({})), ctx).contradictions).toBeUndefined();
    expect(parseRspecJson(report(passed, summary({ example_count: 2, pending_count: 1 })), ctx).contradictions?.map((c) => c.message)).toEqual([
      'summary.example_count is 2, but 1 test is listed', 'summary.pending_count is 1, but 0 listed tests were skipped',
    ]);
    // An error outside examples has its own count and its own entry.
    expect(parseRspecJson(withErrors(['\nAn error occurred while loading ./spec/x_spec.rb.\n'], 1), ctx).contradictions).toBeUndefined();
  });

  it('does not check a run stopped mid-example (its summary covers part of it)', () => {
    expect(parseRspecJson(read('hang.json'), ctx).contradictions).toBeUndefined();
  });
});

// Message texts below are real rspec 3.12 output (temp dir replaced by <root>).
describe('parseRspecJson errors outside examples', () => {
  it('attributes a load error raised in a required file to the spec file being loaded', () => {
    const msg = "\nAn error occurred while loading ./spec/req_spec.rb.\nFailure/Error: Foo::Bar\n\nNameError:\n  uninitialized constant Foo\n\n  Foo::Bar\n  ^^^\n# ./lib/foo.rb:4:in `<top (required)>'\n# ./spec/req_spec.rb:1:in `require_relative'\n# ./spec/req_spec.rb:1:in `<top (required)>'\n";
    expect(parseRspecJson(withErrors([msg], 1), ctx).tests).toEqual([{
      id: 'spec/req_spec.rb', name: 'load error: spec/req_spec.rb', file: 'spec/req_spec.rb', line: 1, status: 'error', outside: true, message: msg.trim(),
    }]);
  });

  it('finds a syntax error line in the message when no frame names the file', () => {
    const msg = '\nAn error occurred while loading ./spec/syntax_spec.rb.\nFailure/Error: __send__(method, file)\n\nSyntaxError:\n  <root>/spec/syntax_spec.rb:2: syntax error, unexpected end-of-input\n# /usr/share/rubygems-integration/all/gems/rspec-core-3.12.0/lib/rspec/core/configuration.rb:2117:in `load\'\n';
    expect(parseRspecJson(withErrors([msg, 'No examples found.'], 1), ctx).tests).toMatchObject([
      { id: 'spec/syntax_spec.rb', file: 'spec/syntax_spec.rb', line: 2, status: 'error' },
    ]);
  });

  it('attributes a suite hook error to its first project frame', () => {
    const msg = "\nAn error occurred in a `before(:suite)` hook.\nFailure/Error: raise \"suite boom\"\n\nRuntimeError:\n  suite boom\n# ./spec/hook_spec.rb:1:in `block (2 levels) in <top (required)>'\n";
    expect(parseRspecJson(withErrors([msg], 1), ctx).tests).toMatchObject([{
      id: 'spec/hook_spec.rb', name: 'An error occurred in a `before(:suite)` hook.', file: 'spec/hook_spec.rb', line: 1, status: 'error',
    }]);
  });

  it('never drops the reported count: what messages do not explain is one unattributed error', () => {
    const parsed = parseRspecJson(withErrors(['Run options: include {:ids=>{}}'], 2), ctx);
    expect(parsed.tests).toEqual([{
      id: '', name: 'errors outside of examples (unattributed)', file: null, line: null, status: 'error', outside: true,
      message: 'rspec reported 2 error(s) outside of examples (summary.errors_outside_of_examples_count) but only 0 could be attributed from its messages',
    }]);
  });

  it('does not treat informational messages as errors', () => {
    expect(parseRspecJson(withErrors(['Run options: include {:full_description=>/x/}', '\nAll examples were filtered out'], 0), ctx).tests).toEqual([]);
  });
});
