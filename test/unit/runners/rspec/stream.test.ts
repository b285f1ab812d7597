import { describe, it, expect } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseRspecStream } from '../../../../src/runners/rspec/stream.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/rspec/', import.meta.url));
const ctx = { root: '<root>' };
const read = (name: string): string => readFileSync(outputs + name, 'utf8');

describe('parseRspecStream on recorded formatter output', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.stream.jsonl'));

  it('has the recorded cases', () => {
    expect(cases.sort()).toEqual(['hang.stream.jsonl', 'load-error.stream.jsonl', 'mixed.stream.jsonl', 'truncated.stream.jsonl']);
  });

  it.each(cases)('%s matches its expected report', (file) => {
    expectGolden(outputs + file.replace(/\.jsonl$/, '.expected.json'), parseRspecStream(read(file), ctx));
  });

  it('maps the stream of a full run exactly like rspec\'s own JSON report', () => {
    expect(parseRspecStream(read('mixed.stream.jsonl'), ctx).tests).toEqual(JSON.parse(read('mixed.expected.json')).tests);
  });
});

const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const start = line({ type: 'start', version: 1, example_count: 1 });
const started = line({ type: 'started', id: './spec/a_spec.rb[1:1]', full_description: 'A x', file_path: './spec/a_spec.rb', line_number: 2 });
const passed = line({ type: 'example', id: './spec/a_spec.rb[1:1]', full_description: 'A x', status: 'passed', file_path: './spec/a_spec.rb', line_number: 2, run_time: 0, pending_message: null });
const summary = (over: Record<string, unknown> = {}): string => line({
  type: 'summary', duration: 0, example_count: 1, failure_count: 0, pending_count: 0, errors_outside_of_examples_count: 0, interrupted: null, ...over,
});

describe('parseRspecStream inline cases', () => {
  it('is complete when the summary is the last record', () => {
    expect(parseRspecStream(start + started + passed + summary(), ctx)).toEqual({
      tests: [{ id: './spec/a_spec.rb[1:1]', name: 'A x', file: 'spec/a_spec.rb', line: 2, status: 'passed', durationMs: 0 }],
      complete: true, warnings: [],
    });
  });

  it('keeps going past a garbage line, with a warning', () => {
    const parsed = parseRspecStream(`${start}not json\n${started}${passed}${summary()}`, ctx);
    expect(parsed.tests).toHaveLength(1);
    expect(parsed.complete).toBe(true);
    expect(parsed.warnings).toEqual(['rspec stream line 2 is not valid JSON (cut off?)']);
  });

  it('is incomplete when a record follows the summary or the run was interrupted', () => {
    expect(parseRspecStream(start + summary() + started + passed, ctx).complete).toBe(false);
    const interrupted = parseRspecStream(start + started + passed + summary({ interrupted: 'SIGINT' }), ctx);
    expect(interrupted.complete).toBe(false);
    expect(interrupted.warnings).toEqual(['rspec was interrupted by SIGINT: its summary covers only part of the run']);
  });

  it('warns on an unknown format version', () => {
    expect(parseRspecStream(line({ type: 'start', version: 2, example_count: 0 }) + summary({ example_count: 0 }), ctx).warnings)
      .toEqual(['rspec stream format version 2, expected 1']);
  });

  it('reports the load errors and count from message records', () => {
    const parsed = parseRspecStream(start + line({ type: 'message', message: 'Run options: x' }) + summary({ errors_outside_of_examples_count: 1 }), ctx);
    expect(parsed.tests).toMatchObject([{ id: '', status: 'error', file: null }]);
  });

  it('returns nothing complete for empty input', () => {
    expect(parseRspecStream('', ctx)).toMatchObject({ tests: [], complete: false });
  });
});
