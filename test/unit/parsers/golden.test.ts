import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectGolden, goldenText } from './golden.js';

const outputs = fileURLToPath(new URL('../../fixtures/outputs/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'run-tests-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const report = { tests: [{ id: 'a', status: 'failed', line: 3 }], complete: true };

describe('expectGolden', () => {
  it('fails on a missing expected file, naming it and how to write it', () => {
    const file = join(dir, 'missing.expected.json');
    expect(() => expectGolden(file, report, false)).toThrow(`${file} is missing: run UPDATE_GOLDEN=1`);
    expect(existsSync(file)).toBe(false);
  });

  it('fails when the result differs from the expected file, and passes when it is the same', () => {
    const file = join(dir, 'differs.expected.json');
    writeFileSync(file, goldenText({ ...report, complete: false }));
    expect(() => expectGolden(file, report, false)).toThrow(/"complete": false/);
    writeFileSync(file, goldenText(report));
    expect(() => expectGolden(file, report, false)).not.toThrow();
  });

  it('with UPDATE_GOLDEN writes the result, as two-space JSON with a final newline, and nothing else', () => {
    const file = join(dir, 'written.expected.json');
    writeFileSync(file, '{"stale": true}');
    expectGolden(file, report, true);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "tests": [\n    {\n      "id": "a",\n      "status": "failed",\n      "line": 3\n    }\n  ],\n  "complete": true\n}\n',
    );
    expectGolden(join(dir, 'new.expected.json'), report, true);
    expect(readdirSync(dir).sort()).toEqual(['differs.expected.json', 'new.expected.json', 'written.expected.json']);
  });
});

describe('the recorded outputs', () => {
  const files = readdirSync(outputs, { recursive: true, encoding: 'utf8' }).filter((f) => /\.\w+$/.test(f) && !f.endsWith('.context.json') && !f.endsWith('recordings.json'));
  const expected = files.filter((f) => f.endsWith('.expected.json'));
  const recordings = files.filter((f) => !f.endsWith('.expected.json'));
  const stem = (f: string) => f.replace(/\.expected\.json$/, '').replace(/\.(?:jsonl?|xml|tap|txt)$/, '');

  it('each have their expected result beside them, and each expected result its recording', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(100);
    expect(recordings.map(stem).sort()).toEqual(expected.map(stem).sort());
  });
});
