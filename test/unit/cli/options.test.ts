import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { parseCount, parseKeepRuns, parseName, parseSeconds, resolveFiles } from '../../../src/cli/options.js';

describe('parseName', () => {
  it('takes /…/ as a regex and anything else as plain text', () => {
    expect(parseName('/^test_a$/')).toEqual({ text: '^test_a$', regex: true });
    expect(parseName('a (b) [c]')).toEqual({ text: 'a (b) [c]', regex: false });
    expect(parseName('/')).toEqual({ text: '/', regex: false });
    expect(parseName(undefined)).toBeNull();
  });

  it('rejects control characters, empty names and names over 200 bytes', () => {
    expect(() => parseName('a\nb')).toThrow('--name must not contain control characters');
    expect(() => parseName('a\u0000')).toThrow('control characters');
    expect(() => parseName('')).toThrow('--name must not be empty');
    expect(() => parseName('/a(b/')).toThrow(/^--name \/a\(b\/ is not a valid regular expression: /);
    expect(parseName('é'.repeat(100))?.text).toHaveLength(100);
    expect(() => parseName('é'.repeat(101))).toThrow('--name is longer than 200 bytes');
  });
});

describe('numbers', () => {
  it('takes positive seconds for --timeout and non-negative for --kill-grace', () => {
    expect(parseSeconds('--timeout', '1.5', { allowZero: false })).toBe(1500);
    expect(parseSeconds('--kill-grace', '0', { allowZero: true })).toBe(0);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity']) {
      expect(() => parseSeconds('--timeout', bad, { allowZero: false })).toThrow(`--timeout must be a positive number of seconds, got ${JSON.stringify(bad)}`);
    }
    expect(parseCount('--min-tests', '3')).toBe(3);
    expect(() => parseCount('--min-tests', '1.5')).toThrow('--min-tests must be a whole number, got "1.5"');
  });

  it('keeps at least one run: --keep-runs counts the run itself', () => {
    expect(parseKeepRuns('1')).toBe(1);
    expect(parseKeepRuns('20')).toBe(20);
    expect(() => parseKeepRuns('0')).toThrow('--keep-runs must be at least 1 (the run itself is kept), got "0"');
    expect(() => parseKeepRuns('-2')).toThrow('--keep-runs must be a whole number, got "-2"');
  });
});

describe('resolveFiles', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-options-')));
  fs.outputFileSync(path.join(root, 'test/a_test.rb'), '');
  fs.outputFileSync(path.join(root, 'test/b [x]_test.rb'), '');
  fs.outputFileSync(path.join(root, '..outside-name'), '');

  it('merges positional files and --file a,b into unique absolute paths', () => {
    expect(resolveFiles(root, ['test/a_test.rb'], 'test/b [x]_test.rb, test/a_test.rb'))
      .toEqual([path.join(root, 'test/a_test.rb'), path.join(root, 'test/b [x]_test.rb')]);
    expect(resolveFiles(root, ['..outside-name'], undefined)).toEqual([path.join(root, '..outside-name')]);
  });

  it('rejects missing files and files outside the directory', () => {
    expect(() => resolveFiles(root, ['test/missing_test.rb'], undefined)).toThrow(`file "test/missing_test.rb" does not exist (in ${root})`);
    expect(() => resolveFiles(root, ['/etc/hostname'], undefined)).toThrow(`file "/etc/hostname" lies outside ${root}`);
    expect(() => resolveFiles(root, ['../'], undefined)).toThrow('lies outside');
  });
});
