import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { createPytestParser } from '../../../../src/runners/pytest/events.js';
import { parseText } from '../../../../src/parsers/stream.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/pytest');
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const parse = (text: string, root = '/p') => parseText(createPytestParser, text, { root });

const START = '{"type":"start","pid":1,"pytest":"7.2.1","python":"3.11.2","rootdir":"/p","dir":"/p"}';
const session = (exitstatus: number) => JSON.stringify({ type: 'session', exitstatus, pid: 1 });
const phase = (when: string, outcome: string, fields: Record<string, unknown> = {}) => JSON.stringify({
  type: 'test', nodeid: 'tests/test_a.py::test_a', id: 'tests/test_a.py::test_a', when, outcome,
  duration: 0.001, file: '/p/tests/test_a.py', line: 4, ...fields,
});
const failure = (fields: Record<string, unknown> = {}) => ({
  crash_path: '/p/tests/test_a.py', crash_line: 6, exception: 'AssertionError', assertion: true, message: 'assert 1 == 2', frame_line: 6, ...fields,
});
const lines = (...ls: string[]) => `${ls.join('\n')}\n`;

describe('pytest parser on recorded real outputs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['collect-error', 'fallback', 'filtered', 'mixed', 'no-tests', 'not-found', 'rerun', 'truncated', 'xpass']);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    const text = readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
    expectGolden(join(outputs, `${name}.expected.json`), parse(text, '<root>'));
  });

  it('counts the mixed run as pytest does, with xfail a skip and a strict xpass a failure', () => {
    const { tests } = parse(readFileSync(join(outputs, 'mixed.jsonl'), 'utf8'), '<root>');
    const count = (status: string) => tests.filter((t) => t.status === status).length;
    expect([tests.length, count('passed'), count('failed'), count('error'), count('skipped')]).toEqual([16, 7, 4, 3, 2]);
  });
});

describe('pytest parser on small inputs', () => {
  it('makes one result of the three phases, timed over all of them', () => {
    const report = parse(lines(START, phase('setup', 'passed'), phase('call', 'passed'), phase('teardown', 'passed'), session(0)));
    expect(report).toEqual({
      tests: [{ id: 'tests/test_a.py::test_a', name: 'tests/test_a.py::test_a', file: 'tests/test_a.py', line: 4, status: 'passed', durationMs: 3 }],
      complete: true,
      warnings: [],
    });
  });

  it('places a failure at the test-file frame, else the crash in the test file, else the definition', () => {
    const at = (fields: Record<string, unknown>) => parse(lines(phase('call', 'failed', failure(fields)))).tests[0]?.line;
    expect(at({})).toBe(6);
    expect(at({ frame_line: null, crash_line: 7 })).toBe(7);
    expect(at({ frame_line: null, crash_path: '/p/lib/helper.py', crash_line: 2 })).toBe(4);
  });

  it('counts assertions and strict xpasses as failures, other exceptions as errors', () => {
    const status = (fields: Record<string, unknown>) => parse(lines(phase('call', 'failed', failure(fields)))).tests[0]?.status;
    expect(status({})).toBe('failed');
    expect(status({ exception: null, assertion: false, message: '[XPASS(strict)] why' })).toBe('failed');
    expect(status({ exception: 'KeyError', assertion: false })).toBe('error');
  });

  it('keeps the first failing phase and adds a teardown error to its message', () => {
    const report = parse(lines(
      phase('setup', 'passed'),
      phase('call', 'failed', failure()),
      phase('teardown', 'failed', failure({ exception: 'OSError', assertion: false, message: 'OSError: busy', frame_line: 9 })),
    ));
    expect(report.tests).toMatchObject([{ status: 'failed', line: 6, message: 'assert 1 == 2\n\nthen at teardown: OSError: busy' }]);
  });

  it('makes a setup or teardown exception an error, even an assertion', () => {
    const setup = parse(lines(phase('setup', 'failed', failure()), phase('teardown', 'passed')));
    expect(setup.tests).toMatchObject([{ status: 'error', message: 'at setup: assert 1 == 2' }]);
    const teardown = parse(lines(phase('setup', 'passed'), phase('call', 'passed'), phase('teardown', 'failed', failure({ exception: 'OSError', assertion: false, message: 'OSError: x' }))));
    expect(teardown.tests).toMatchObject([{ status: 'error', message: 'at teardown: OSError: x' }]);
  });

  it('lets a pytest-rerunfailures rerun be decided by its last attempt', () => {
    const report = parse(lines(phase('setup', 'passed'), phase('call', 'rerun'), phase('teardown', 'passed'),
      phase('setup', 'passed'), phase('call', 'passed'), phase('teardown', 'passed'), session(0)));
    expect(report.tests.map((t) => t.status)).toEqual(['passed']);
  });

  it('names the test that was running when the report stopped, and is not complete', () => {
    const report = parse(lines(START, phase('setup', 'passed')));
    expect(report).toEqual({ tests: [], complete: false, warnings: ['pytest stopped while tests/test_a.py::test_a was running'] });
  });

  it('is complete for pytest exits 0, 1 and 5, and for 2 after collection errors only', () => {
    const collectError = JSON.stringify({ type: 'collect', nodeid: 'tests/test_b.py', id: 'tests/test_b.py', outcome: 'failed', file: '/p/tests/test_b.py', line: 3, message: 'SyntaxError: bad' });
    expect([0, 1, 5].map((s) => parse(lines(START, session(s))).complete)).toEqual([true, true, true]);
    expect(parse(lines(START, collectError, session(2))).complete).toBe(true);
    const interrupted = parse(lines(START, phase('setup', 'passed'), phase('call', 'passed'), phase('teardown', 'passed'), session(2)));
    expect([interrupted.complete, interrupted.warnings]).toEqual([false, ['pytest was interrupted (exit status 2); the log has its output']]);
    expect(parse(lines(START, session(3))).warnings).toEqual(['pytest hit an internal error (exit status 3); the log has its output']);
    expect(parse(lines(START)).complete).toBe(false);
  });

  it('reports a module-level skip as a skipped file entry', () => {
    const skip = JSON.stringify({ type: 'collect', nodeid: 'tests/test_b.py', id: 'tests/test_b.py', outcome: 'skipped', file: '/p/tests/test_b.py', line: null, message: 'Skipped: no db' });
    expect(parse(lines(START, skip, session(5))).tests).toEqual([
      { id: 'tests/test_b.py', name: 'tests/test_b.py', file: 'tests/test_b.py', line: null, status: 'skipped', message: 'Skipped: no db' },
    ]);
  });

  it('turns invalid or unknown lines into warnings and keeps the rest', () => {
    const report = parse(lines(START, 'noise', '{"type":"mystery"}', phase('call', 'exploded'), phase('call', 'passed'), session(0)));
    expect(report.tests.map((t) => t.status)).toEqual(['passed']);
    expect(report.warnings).toEqual([
      'line 2: not valid JSON, ignored: noise',
      'line 3: unknown record type "mystery", ignored',
      'line 4: test line with unknown outcome "exploded", ignored',
    ]);
  });

  it('bounds messages to 2 KiB', () => {
    const report = parse(lines(phase('call', 'failed', failure({ message: 'é'.repeat(3000) }))));
    const message = report.tests[0]?.status === 'failed' ? report.tests[0].message : '';
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(2048);
  });

  it('counts a test as finished once its teardown is in', () => {
    const parser = createPytestParser({ root: '/p' });
    parser.push(lines(phase('setup', 'passed'), phase('call', 'passed')));
    expect(parser.finished).toBe(0);
    parser.push(lines(phase('teardown', 'passed')));
    expect(parser.finished).toBe(1);
  });

  describe('what the launcher and the plugin say about pytest itself', () => {
    it('a pytest older than the plugin supports is RUNNER_UNSUPPORTED, naming its version and python', () => {
      const line = JSON.stringify({ type: 'unsupported', pytest: '6.2.5', python: '/usr/bin/python3', supported: '7.0 or later' });
      expect(parse(lines(line))).toEqual({
        tests: [], complete: false, warnings: [],
        unusable: { code: 'RUNNER_UNSUPPORTED', message: "pytest 6.2.5 (/usr/bin/python3) is not supported: run-tests supports pytest 7.0 or later; install one into this python, or into the project's virtualenv" },
      });
    });

    it('no pytest module and none on PATH is RUNNER_MISSING', () => {
      const line = JSON.stringify({ type: 'missing', message: 'python3 (/usr/bin/python3) has no pytest module, and there is no pytest on PATH' });
      expect(parse(lines(line)).unusable).toEqual({ code: 'RUNNER_MISSING', message: 'python3 (/usr/bin/python3) has no pytest module, and there is no pytest on PATH' });
    });

    it('a fallback to another pytest is what ran; a launch line without its fields is ignored with a warning', () => {
      const launch = JSON.stringify({ type: 'launch', argv: ['pytest', 'tests/test_a.py'], why: 'python3 (/x) has no pytest module' });
      expect(parse(lines(launch, START, session(5))).ran).toEqual({ argv: ['pytest', 'tests/test_a.py'], why: 'python3 (/x) has no pytest module' });
      const bad = parse(lines('{"type":"launch","argv":"pytest"}', START, session(5)));
      expect([bad.ran, bad.warnings]).toEqual([undefined, ['line 1: launch line without argv or why, ignored']]);
    });
  });
});
