import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { parseCount, parseKeepRuns, parseName, parseSeconds, parseSize, resolveCwd, resolveExistingFile, resolveFiles, resolveOperands } from '../../../src/cli/options.js';

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
    // C1 as C0: U+009B is a terminal's CSI, U+0085 a line break to some regex engines.
    for (const c1 of ['\u0080', '\u0085', '\u009b', '\u009f']) expect(() => parseName(`a${c1}b`)).toThrow('--name must not contain control characters');
    expect(parseName('a\u00a0b')?.text).toBe('a\u00a0b');
    expect(() => parseName('')).toThrow('--name must not be empty');
    expect(() => parseName('/a(b/')).toThrow(/^--name \/a\(b\/ is not a valid regular expression: /);
    expect(parseName('é'.repeat(100))?.text).toHaveLength(100);
    expect(() => parseName('é'.repeat(101))).toThrow('--name is longer than 200 bytes');
  });
});

describe('numbers', () => {
  it('takes positive seconds for --timeout and non-negative for --kill-grace', () => {
    expect(parseSeconds('--timeout', '1.5', { allowZero: false })).toBe(1500);
    expect(parseSeconds('--timeout', '.5', { allowZero: false })).toBe(500);
    expect(parseSeconds('--timeout', '0.001', { allowZero: false })).toBe(1);
    expect(parseSeconds('--kill-grace', '0', { allowZero: true })).toBe(0);
    expect(() => parseSeconds('--timeout', '0', { allowZero: false })).toThrow(/^--timeout must be a positive number of seconds, got "0"$/);
    expect(() => parseSeconds('--timeout', '0.0004', { allowZero: false })).toThrow('--timeout must be a positive number of seconds, got "0.0004"; the least is 0.001');
  });

  it('takes only plain decimals: no sign, hex, exponent, spaces or words that Number() would read', () => {
    for (const bad of ['-1', '+1', 'abc', '', 'Infinity', '0x10', '0b1', '1e3', ' 5', '5 ', '5.', '1_000', '1,5']) {
      expect(() => parseSeconds('--timeout', bad, { allowZero: false }))
        .toThrow(`--timeout must be a positive number of seconds, got ${JSON.stringify(bad)}; write a decimal such as 90 or 1.5`);
    }
    expect(() => parseSeconds('--kill-grace', '-0', { allowZero: true })).toThrow('--kill-grace must be a non-negative number of seconds, got "-0"; write a decimal such as 90 or 1.5');
  });

  it('refuses seconds beyond what a timer can hold (2^31-1 ms, about 24.8 days), naming the limit', () => {
    expect(parseSeconds('--timeout', '2147483.647', { allowZero: false })).toBe(2 ** 31 - 1);
    const limit = 'must be at most 2147483.647 seconds (about 24.8 days, the longest a timer can wait)';
    expect(() => parseSeconds('--timeout', '2147483.648', { allowZero: false })).toThrow(`--timeout ${limit}, got 2147483.648`);
    expect(() => parseSeconds('--kill-grace', '9999999999', { allowZero: true })).toThrow(`--kill-grace ${limit}, got 9999999999`);
    expect(() => parseSeconds('--timeout', '9'.repeat(400), { allowZero: false })).toThrow(`--timeout ${limit}`);
  });

  it('counts are whole decimal numbers within bounds, for any count option', () => {
    expect(parseCount('--min-tests', '3')).toBe(3);
    expect(parseCount('--min-tests', '0')).toBe(0);
    expect(parseCount('--min-tests', '007')).toBe(7);
    for (const bad of ['1.5', '-1', '0x10', ' 5', '', '1e3']) {
      expect(() => parseCount('--min-tests', bad)).toThrow(`--min-tests must be a whole number, got ${JSON.stringify(bad)}`);
    }
    expect(() => parseCount('--min-tests', '9007199254740992')).toThrow('--min-tests must be a whole number from 0 to 9007199254740991, got 9007199254740992');
    expect(parseCount('--limit', '1', { min: 1, max: 100 })).toBe(1);
    expect(() => parseCount('--limit', '0', { min: 1, max: 100 })).toThrow('--limit must be a whole number from 1 to 100, got 0');
    expect(() => parseCount('--limit', '101', { min: 1, max: 100 })).toThrow('--limit must be a whole number from 1 to 100, got 101');
  });

  it('sizes are whole bytes with an optional binary unit, written without spaces', () => {
    expect([parseSize('--max-log', '512K'), parseSize('--max-log', '2m'), parseSize('--max-log', '0')]).toEqual([512 * 1024, 2 * 1024 ** 2, null]);
    for (const bad of [' 5', '5 ', '0x10', '1.5M', '-1', '']) {
      expect(() => parseSize('--max-log', bad)).toThrow(`--max-log must be a whole number of bytes, optionally with K, M or G (0 for no cap), got ${JSON.stringify(bad)}`);
    }
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

  it('rejects an empty operand or --file, which path.resolve would take for the whole directory', () => {
    expect(() => resolveFiles(root, [''], undefined)).toThrow('a file operand is an empty string; name a file or directory (. for all of it)');
    expect(() => resolveFiles(root, [], '')).toThrow('--file needs at least one file, got ""');
    expect(() => resolveFiles(root, [], ' , ')).toThrow('--file needs at least one file, got " , "');
    expect(resolveFiles(root, ['.'], undefined)).toEqual([root]);
    expect(() => resolveExistingFile(root, '')).toThrow('the report file is an empty string; name a file');
  });
});

describe('resolveCwd', () => {
  it('rejects an empty --cwd, which path.resolve would take for the current directory', () => {
    expect(() => resolveCwd('')).toThrow('--cwd needs a directory, got ""');
    expect(resolveCwd(undefined)).toBe(fs.realpathSync(process.cwd()));
  });
});

describe('resolveOperands', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-operands-')));
  fs.outputFileSync(path.join(root, 'tests/test_a.py'), '');
  fs.outputFileSync(path.join(root, 'odd:7.py'), '');

  it('reads file:line and file::node where no such path exists; a path that exists stays a file', () => {
    expect(resolveOperands(root, ['tests/test_a.py:12', 'tests/test_a.py::TestX::test_y[a:1]', 'odd:7.py'], 'tests/test_a.py:12')).toEqual({
      files: [path.join(root, 'odd:7.py')],
      locations: [
        { file: path.join(root, 'tests/test_a.py'), at: { line: 12 }, operand: 'tests/test_a.py:12' },
        { file: path.join(root, 'tests/test_a.py'), at: { node: 'TestX::test_y[a:1]' }, operand: 'tests/test_a.py::TestX::test_y[a:1]' },
      ],
    });
    expect(resolveOperands(root, ['odd:7.py:3'], undefined).locations).toEqual([{ file: path.join(root, 'odd:7.py'), at: { line: 3 }, operand: 'odd:7.py:3' }]);
  });

  it('refuses a line that is not a whole number from 1, an empty node, and a file outside, as data', () => {
    for (const line of ['0', '-1', '1.5', ' 3', '0x10', '99999999999']) {
      expect(() => resolveOperands(root, [`tests/test_a.py:${line}`], undefined)).toThrow(`"tests/test_a.py:${line}": the line after ":" must be a whole number from 1 to 10000000, got ${JSON.stringify(line)}`);
    }
    expect(() => resolveOperands(root, ['tests/test_a.py::'], undefined)).toThrow('name a test after "::"');
    expect(() => resolveOperands(root, ['/etc/hostname:1'], undefined)).toThrow(`file "/etc/hostname" lies outside ${root}`);
    expect(() => resolveOperands(root, ['tests/missing.py:1'], undefined)).toThrow(`file "tests/missing.py:1" does not exist (in ${root})`);
  });
});
