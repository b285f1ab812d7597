import { describe, it, expect } from '@jest/globals';
import { validateEvent } from '../../../support/schemas.js';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRspecStreamParser } from '../../../../src/runners/rspec/events.js';
import { parseText } from '../../../../src/parsers/stream.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/rspec/', import.meta.url));
const ctx = { root: '<root>' };
const read = (name: string): string => readFileSync(outputs + name, 'utf8');
const parse = (text: string) => parseText(createRspecStreamParser, text, ctx);

describe('rspec stream events, recorded from real runs (scripts/record/rspec.sh)', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.stream.jsonl'));

  it('has the recorded cases', () => {
    expect(cases.sort()).toEqual(['hang.stream.jsonl', 'load-error.stream.jsonl', 'mixed.stream.jsonl', 'truncated.stream.jsonl']);
  });

  it('holds only events valid by schema/events.schema.json (but the line a killed writer cut)', () => {
    const validate = validateEvent;
    for (const file of cases) {
      const lines = readFileSync(outputs + file, 'utf8').split('\n').filter((line) => line.endsWith('}'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect([file, line, validate(JSON.parse(line))]).toEqual([file, line, true]);
    }
  });

  it.each(cases)('%s matches its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.jsonl$/, '.expected.json'), parse(read(file)));
  });

  it("maps the stream of a full run, and of a load error, exactly like rspec's own JSON report", () => {
    expect(parse(read('mixed.stream.jsonl')).tests).toEqual(JSON.parse(read('mixed.expected.json')).tests);
    expect(parse(read('load-error.stream.jsonl')).tests).toEqual(JSON.parse(read('load-error.expected.json')).tests);
  });
});

const line = (event: Record<string, unknown>): string => `${JSON.stringify(event)}\n`;
const start = line({ event: 'run_start', schema: 1, runner: 'rspec', runner_version: '3.12.0', pid: 1 });
const started = line({ event: 'test_start', id: './spec/a_spec.rb[1:1]', name: 'A x', file: './spec/a_spec.rb' });
const passed = line({ event: 'test_end', id: './spec/a_spec.rb[1:1]', name: 'A x', file: './spec/a_spec.rb', line: 2, status: 'passed', duration_ms: 0 });
const end = (over: Record<string, unknown> = {}): string => line({
  event: 'run_end', pid: 1, totals: { tests: 1, failed: 0, errors: 0, skipped: 0 }, interrupted: false, ...over,
});

describe('rspec stream events, small inputs', () => {
  it('is complete when the run ended, with the example id as the id', () => {
    expect(parse(start + started + passed + end())).toEqual({
      tests: [{ id: './spec/a_spec.rb[1:1]', name: 'A x', file: 'spec/a_spec.rb', line: 2, status: 'passed', durationMs: 0 }],
      complete: true, warnings: [],
    });
  });

  it('is incomplete when the run was interrupted, or stopped while an example ran', () => {
    expect(parse(start + started + passed + end({ interrupted: true })).complete).toBe(false);
    const cut = parse(start + started);
    expect([cut.complete, cut.warnings]).toEqual([false, ['the run stopped while "A x" was running']]);
  });

  it('names a load error by the file rspec could not load, with its line', () => {
    const message = "An error occurred while loading ./spec/b_spec.rb.\nNameError:\n  uninitialized constant X\n# ./spec/b_spec.rb:3:in `<top (required)>'";
    const parsed = parse(start + line({ event: 'error', kind: 'load', message }) + end({ totals: { tests: 1, errors: 1 } }));
    expect(parsed.tests).toEqual([{ id: 'spec/b_spec.rb', name: 'load error: spec/b_spec.rb', file: 'spec/b_spec.rb', line: 3, status: 'error', outside: true, message }]);
    expect([parsed.complete, parsed.warnings]).toEqual([true, []]);
  });

  it("keeps the formatter's entry for errors rspec counted but its messages did not name", () => {
    const unattributed = { event: 'error', id: '', name: 'errors outside of examples (unattributed)', message: 'rspec reported 1 error(s)' };
    expect(parse(start + line(unattributed) + end()).tests).toEqual([
      { id: '', name: 'errors outside of examples (unattributed)', file: null, line: null, status: 'error', outside: true, message: 'rspec reported 1 error(s)' },
    ]);
  });

  it("is never a pass when rspec's summary counts a failure no example shows", () => {
    const parsed = parse(start + started + passed + end({ totals: { tests: 1, failed: 1, errors: 0 } }));
    expect(parsed.contradictions).toEqual([{ message: 'the runner counts 1 failed tests, but 0 were reported failing', saysFailed: true }]);
  });

  it('returns nothing complete for empty input', () => {
    expect(parse('')).toMatchObject({ tests: [], complete: false });
  });
});
