import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { validateEvent } from '../../../support/schemas.js';
import { createPytestParser } from '../../../../src/runners/pytest/events.js';
import { parseText } from '../../../../src/parsers/stream.js';
import { expectGolden } from '../../parsers/golden.js';

const here = dirname(fileURLToPath(import.meta.url));
const outputs = join(here, '../../../fixtures/outputs/pytest');
const validate = validateEvent;
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const recorded = (name: string) => readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
const parse = (text: string, root = '/p') => parseText(createPytestParser, text, { root });
const parseRecorded = (name: string) => parse(recorded(name), '<root>');

const lines = (...events: object[]) => events.map((e) => `${JSON.stringify(e)}\n`).join('');
const START = { event: 'run_start', schema: 1, runner: 'pytest', runner_version: '7.2.1', pid: 1 };
const TEST_START = { event: 'test_start', id: 'tests/test_a.py::test_a', name: 'tests/test_a.py::test_a', file: '/p/tests/test_a.py' };

describe('pytest events recorded from real runs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual([
      'collect-error', 'fallback', 'filtered', 'internal-error', 'interrupted', 'mixed', 'no-tests', 'not-found', 'phases', 'rerun', 'truncated', 'xpass',
    ]);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    expectGolden(join(outputs, `${name}.expected.json`), parseRecorded(name));
  });

  it.each(cases.filter((name) => name !== 'truncated'))('%s is written in the event format', (name) => {
    const invalid = recorded(name).split('\n').filter((line) => line !== '' && !validate(JSON.parse(line)));
    expect(invalid).toEqual([]);
  });

  it('counts the mixed run as pytest does, with xfail a skip and a strict xpass a failure', () => {
    const { tests } = parseRecorded('mixed');
    const count = (status: string) => tests.filter((t) => t.status === status).length;
    expect([tests.length, count('passed'), count('failed'), count('error'), count('skipped')]).toEqual([16, 7, 4, 3, 2]);
  });

  it('keeps the first failing phase and adds a teardown error to its message; skips a module that skips itself', () => {
    expect(parseRecorded('phases').tests.slice(0, 2)).toMatchObject([
      { id: 'tests/test_module_skip.py', file: 'tests/test_module_skip.py', line: null, status: 'skipped', message: 'Skipped: no database here' },
      { status: 'failed', line: 11, message: 'assert 1 == 2\n\nthen at teardown: OSError: busy' },
    ]);
  });

  it('bounds messages to 2 KiB without cutting a character', () => {
    const long = parseRecorded('phases').tests[2];
    const message = long?.status === 'failed' ? long.message : '';
    expect([Buffer.byteLength(message), message.startsWith('Failed: éé'), message.endsWith('é')]).toEqual([2048, true, true]);
  });

  it('is incomplete when pytest was interrupted or hit an internal error, saying so', () => {
    const interrupted = parseRecorded('interrupted');
    expect([interrupted.complete, interrupted.tests.length, interrupted.warnings]).toEqual([false, 2, [
      'pytest was interrupted (exit status 2); the log has its output',
      'pytest stopped while tests/test_stop.py::test_stop was running',
    ]]);
    expect(parseRecorded('internal-error').warnings).toEqual(['pytest hit an internal error (exit status 3); the log has its output']);
  });
});

describe('pytest events, small inputs', () => {
  it('names the test that was running when the report stopped, in pytest\'s words', () => {
    expect(parse(lines(START, TEST_START))).toEqual({
      tests: [], complete: false, warnings: ['pytest stopped while tests/test_a.py::test_a was running'],
      running: [{ name: 'tests/test_a.py::test_a', file: 'tests/test_a.py' }],
    });
  });

  it('a pytest older than the plugin supports is RUNNER_UNSUPPORTED; no pytest at all is RUNNER_MISSING', () => {
    const unsupported = "pytest 6.2.5 (/usr/bin/python3) is not supported: run-tests supports pytest 7.0 or later; install one into this python, or into the project's virtualenv";
    expect(parse(lines({ event: 'unusable', code: 'RUNNER_UNSUPPORTED', message: unsupported }))).toEqual({
      tests: [], complete: false, warnings: [], unusable: { code: 'RUNNER_UNSUPPORTED', message: unsupported },
    });
    const missing = 'python3 (/usr/bin/python3) has no pytest module, and there is no pytest on PATH';
    expect(parse(lines({ event: 'unusable', code: 'RUNNER_MISSING', message: missing })).unusable).toEqual({ code: 'RUNNER_MISSING', message: missing });
  });

  it('counts a test as finished once its test_end is in', () => {
    const parser = createPytestParser({ root: '/p' });
    parser.push(lines(START, TEST_START));
    expect(parser.finished).toBe(0);
    parser.push(lines({ ...TEST_START, event: 'test_end', status: 'passed', line: 4 }));
    expect(parser.finished).toBe(1);
  });
});
