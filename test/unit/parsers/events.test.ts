import { describe, expect, it } from '@jest/globals';
import { validateEvent } from '../../support/schemas.js';
import { eventsParser, type TestStart } from '../../../src/parsers/events.js';
import { parseText } from '../../../src/parsers/stream.js';

const validate = validateEvent;

const ctx = { root: '/p' };
const lines = (...events: object[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');
const start = { event: 'run_start', schema: 1, runner: 'x', runner_version: '1.0', pid: 7 };
const end = (totals: object = {}) => ({ event: 'run_end', pid: 7, totals });
const failing = { event: 'test_end', name: 'A b', file: '/p/t/a.js', line: 3, status: 'failed', message: 'boom', location: { file: '/p/t/a.js', line: 5 } };
const passing = { event: 'test_end', id: 'A#c', name: 'A c', file: 't/a.js', line: 9, status: 'passed', duration_ms: 1.5 };

describe('events parser', () => {
  it('reads tests, with where they failed, and is complete when every process ended', () => {
    const report = parseText(eventsParser(), lines(start, failing, passing, end({ tests: 2, failed: 1 })), ctx);
    expect(report).toEqual({
      complete: true,
      warnings: [],
      tests: [
        { id: 'A b', name: 'A b', file: 't/a.js', line: 5, status: 'failed', message: 'boom' },
        { id: 'A#c', name: 'A c', file: 't/a.js', line: 9, status: 'passed', durationMs: 1.5 },
      ],
    });
  });

  it('is incomplete when a process that started never ended, naming the test that was running', () => {
    const report = parseText(eventsParser(), lines(start, { event: 'test_start', name: 'A hangs' }), ctx);
    expect(report.complete).toBe(false);
    expect(report.warnings).toEqual(['the run stopped while "A hangs" was running']);
  });

  it('says which tests were running when the run stopped: every file not ended, the test last started, those ended as `stopped`', () => {
    const hangs = { event: 'test_start', name: 'A hangs', file: '/p/t/a.js' };
    expect(parseText(eventsParser(), lines(start, hangs), ctx).running).toEqual([{ name: 'A hangs', file: 't/a.js' }]);
    const files = lines(start, { event: 'file_start', file: '/p/t/a.js' }, { event: 'file_start', file: '/p/t/b.js' }, { event: 'test_start', name: 'B x', file: '/p/t/b.js' });
    expect(parseText(eventsParser(), files, ctx).running).toEqual([{ name: null, file: 't/a.js' }, { name: 'B x', file: 't/b.js' }]);
    // A reporter that handles the signal ends the test it stopped in itself, and says so.
    const stopped = { event: 'test_end', name: 'A hangs', file: '/p/t/a.js', status: 'error', message: 'did not finish', stopped: true };
    expect(validate(stopped)).toBe(true);
    expect(parseText(eventsParser(), lines(start, hangs, stopped, { ...end(), interrupted: true }), ctx).running).toEqual([{ name: 'A hangs', file: 't/a.js' }]);
    // Nothing when the run ended, when no start was written, or when starts come late (node:test).
    expect(parseText(eventsParser(), lines(start, hangs, passing, end()), ctx).running).toBeUndefined();
    expect(parseText(eventsParser(), lines(start, passing), ctx).running).toBeUndefined();
    expect(parseText(eventsParser({ liveStarts: false }), lines(start, hangs), ctx).running).toBeUndefined();
  });

  it("is never a pass when the runner's own totals count a failure the tests do not show", () => {
    const report = parseText(eventsParser(), lines(start, passing, end({ tests: 1, failed: 1 })), ctx);
    expect(report.contradictions).toEqual([{ message: 'the runner counts 1 failed tests, but 0 were reported failing', saysFailed: true }]);
  });

  it('makes an error outside any test an error entry named by its file; a crash leaves the run incomplete', () => {
    const load = { event: 'error', kind: 'load', file: '/p/t/b.js', line: 2, message: 'SyntaxError: x' };
    const report = parseText(eventsParser(), lines(start, load, end(), { event: 'error', kind: 'crash', message: 'died' }), ctx);
    expect(report.tests).toEqual([
      { id: 't/b.js', name: 'load error: t/b.js', file: 't/b.js', line: 2, status: 'error', outside: true, message: 'SyntaxError: x' },
      { id: 'crash error', name: 'crash error', file: null, line: null, status: 'error', outside: true, message: 'died' },
    ]);
    expect(report.complete).toBe(false);
  });

  it('carries launches, unusable runners and notes; warns on unknown events and another schema', () => {
    const report = parseText(eventsParser(), lines(
      { ...start, schema: 2 },
      { event: 'launch', argv: ['pytest', '-q'], why: 'no pytest module' },
      { event: 'unusable', code: 'RUNNER_UNSUPPORTED', message: 'too old' },
      { event: 'note', text: 'replayed' },
      { event: 'mystery' },
      end(),
    ), ctx);
    expect(report).toMatchObject({
      complete: false,
      ran: { argv: ['pytest', '-q'], why: 'no pytest module' },
      unusable: { code: 'RUNNER_UNSUPPORTED', message: 'too old' },
      notes: ['replayed'],
      warnings: ['line 5: unknown event "mystery", ignored', 'events of schema 2, expected 1: a reporter from another run-tests version'],
    });
  });

  it('uses the runner rules for results', () => {
    const report = parseText(eventsParser({ test: (e) => ({ id: `${e.file}::${e.name}`, name: e.name, file: e.file, line: null, status: 'passed' }) }), lines(start, passing, end()), ctx);
    expect(report.tests).toEqual([{ id: 't/a.js::A c', name: 'A c', file: 't/a.js', line: null, status: 'passed' }]);
  });

  it('lets an error rule make an error no test\'s failure (a warning), the crash still incomplete', () => {
    const crash = { event: 'error', kind: 'crash', message: 'bundler failed' };
    const report = parseText(eventsParser({ error: (e) => `outside the tests: ${e.message}` }), lines(start, crash, end()), ctx);
    expect([report.tests, report.warnings, report.complete]).toEqual([[], ['outside the tests: bundler failed'], false]);
  });

  it('gives the test a run stopped in to the unfinished rule, with its id, file and line', () => {
    const hangs = { event: 'test_start', id: 'A#h', name: 'A hangs', file: '/p/t/a.js', line: 4 };
    const rules = { unfinished: (e: TestStart) => ({ id: e.id ?? e.name, name: e.name, file: e.file, line: e.line, status: 'error' as const, message: 'did not finish' }) };
    const report = parseText(eventsParser(rules), lines(start, passing, hangs), ctx);
    expect(report.tests.at(-1)).toEqual({ id: 'A#h', name: 'A hangs', file: 't/a.js', line: 4, status: 'error', message: 'did not finish' });
    expect(report.warnings).toEqual(['the run stopped while "A hangs" was running']);
    // A run that ended has no test it stopped in.
    expect(parseText(eventsParser(rules), lines(start, hangs, end()), ctx).tests).toEqual([]);
  });

  it('the events used here are valid by the schema, and a wrong one is not', () => {
    for (const event of [start, failing, passing, end({ tests: 1 }), { event: 'error', kind: 'load', message: 'x' }]) {
      expect([event, validate(event)]).toEqual([event, true]);
    }
    expect(validate({ event: 'test_end', name: 'x', status: 'broken' })).toBe(false);
  });

  it('is incomplete while a file that started has not ended, naming it and the test running in it, even after run_end', () => {
    const files = lines(start,
      { event: 'file_start', file: '/p/t/a.js' }, { event: 'file_start', file: '/p/t/b.js' },
      { event: 'test_start', name: 'A b', file: '/p/t/a.js' }, { event: 'test_start', name: 'B c', file: 't/b.js' },
      { ...failing, name: 'B c', file: '/p/t/b.js' }, { event: 'file_end', file: '/p/t/b.js' }, end());
    const report = parseText(eventsParser(), files, ctx);
    expect([report.complete, report.warnings]).toEqual([false, ['the run stopped while "A b" was running']]);
    const named = parseText(eventsParser({ stopped: (r) => `stopped in ${r.file} during ${r.name}` }), files + lines({ event: 'file_start', file: 't/c.js' }), ctx);
    expect(named.warnings).toEqual(['stopped in t/a.js during A b', 'stopped in t/c.js during null']);
    expect(parseText(eventsParser(), lines(start, { event: 'file_start', file: 't/a.js' }, passing, { event: 'file_end', file: 't/a.js' }, end()), ctx).complete).toBe(true);
  });

  it("gives the runner's rules the run as read, for warnings in its own words", () => {
    const seen: unknown[] = [];
    const report = parseText(eventsParser({ warnings: (run) => [`${seen.push(run)}`] }), lines({ ...start, files: 0 }, end({ tests: 0, deselected: 3 })), ctx);
    expect(report.warnings).toEqual(['1']);
    expect(seen).toEqual([{ files: [0], totals: new Map([['tests', 0], ['deselected', 3]]), interrupted: false, tests: [] }]);
  });

  it('the file events are valid by the schema', () => {
    for (const event of [{ event: 'file_start', file: 't/a.js' }, { event: 'file_end', file: 't/a.js' }, end({ tests: 0, deselected: 2 })]) {
      expect([event, validate(event)]).toEqual([event, true]);
    }
    expect(validate({ event: 'file_start' })).toBe(false);
  });

  it('joins a test reported `again` to its earlier result in the same process: both failures, or the failure after its pass', () => {
    const first = { event: 'test_end', name: 'A d', file: 't/a.js', line: 4, status: 'failed', message: 'first' };
    const again = { ...first, status: 'error', message: 'again', again: true };
    const passed = { ...first, status: 'passed', message: null };
    const report = parseText(eventsParser(), lines(start, first, again, passed, again, end({ tests: 2, failed: 2 })), ctx);
    expect([report.tests.map((t) => [t.status, 'message' in t ? t.message : null]), report.warnings, report.contradictions]).toEqual([
      [['failed', 'first\n\nagain'], ['error', 'again']], [], undefined,
    ]);
    // Another process (a rerun's second) runs the test anew.
    expect(parseText(eventsParser(), lines(start, passed, end(), start, again, end()), ctx).tests).toHaveLength(2);
    // An error entry before it (a hook that failed) does not hide the earlier result.
    const hook = { event: 'error', kind: 'hook', file: 't/a.js', line: 2, message: 'hook broke' };
    expect(parseText(eventsParser(), lines(start, hook, first, again, end()), ctx).tests.map((t) => [t.name, t.status]))
      .toEqual([['hook error: t/a.js', 'error'], ['A d', 'failed']]);
  });

  it('a test_end that says `again` is valid by the schema', () => {
    const event = { ...failing, again: true };
    expect([event, validate(event)]).toEqual([event, true]);
  });
});
