import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStatus } from '../../../src/model/results.js';
import { removeFile, writeFileAtomic } from '../../../src/store/atomic.js';
import { LAST_FAILURES_VERSION, listIsSettled, readLastFailures, readLastFailuresOrSetAside, writeLastFailures, type LastFailures } from '../../../src/store/last-failures.js';

const dir = mkdtempSync(join(tmpdir(), 'run-tests-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = { id: 'ATest#test_x', test_name: 'ATest#test_x', file: 'test/a_test.rb', line: 3, status: 'failed' as const, message: 'Expected: 1\n  Actual: 2' };

describe('last-failures.json', () => {
  it('round-trips what was written, with its version and time', () => {
    const file = join(dir, 'round-trip.json');
    writeLastFailures(file, { framework: 'minitest', project_root: dir, failed_tests: [record], last_run: { status: 'failed' } });
    const read = readLastFailures(file);
    expect(read).toMatchObject({ version: 2, framework: 'minitest', project_root: dir, failed_tests: [record], last_run: { status: 'failed' } });
    expect(Number.isNaN(Date.parse(read?.created_at ?? ''))).toBe(false);
  });

  it('reads a version 1 file, which has no last_run', () => {
    const file = join(dir, 'v1.json');
    writeFileSync(file, JSON.stringify({ version: 1, created_at: 'x', framework: 'go', project_root: dir, failed_tests: [] }));
    expect(readLastFailures(file)).toMatchObject({ version: 1, failed_tests: [] });
    expect(readLastFailures(file)?.last_run).toBeUndefined();
  });

  it('reads a missing file as no previous run', () => {
    expect(readLastFailures(join(dir, 'missing.json'))).toBeNull();
  });

  it.each([
    ['not JSON', '{"version": 1,', /not valid JSON/],
    ['another version', JSON.stringify({ version: 99, framework: 'go', failed_tests: [] }), /version 99, expected 2/],
    ['a malformed entry', JSON.stringify({ version: 1, framework: 'go', failed_tests: [{ id: 3 }] }), /malformed/],
    ['version 2 without last_run', JSON.stringify({ version: 2, framework: 'go', failed_tests: [] }), /missing last_run/],
  ])('refuses %s with STORE_CORRUPT naming the file', (_, text, why) => {
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, text);
    expect(() => readLastFailures(file)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT', message: expect.stringMatching(why) }));
  });
});

describe('readLastFailuresOrSetAside', () => {
  it('reads a good file as it is', () => {
    const file = join(dir, 'good.json');
    writeLastFailures(file, { framework: 'go', project_root: dir, failed_tests: [record], last_run: { status: 'failed' } });
    expect(readLastFailuresOrSetAside(file)).toMatchObject({ last: { failed_tests: [record] }, warning: null });
  });

  it('sets a corrupt file aside under a name with the time, and says so', () => {
    const sub = join(dir, 'aside');
    mkdirSync(sub);
    const file = join(sub, 'last-failures.json');
    writeFileSync(file, '{"version": 2,');
    const { last, warning } = readLastFailuresOrSetAside(file);
    const [aside, ...more] = readdirSync(sub);
    expect([last, more, aside]).toEqual([null, [], expect.stringMatching(/^last-failures\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/)]);
    expect(warning).toBe(`${file} was unusable (not valid JSON): kept as ${join(sub, aside!)}; this run starts a new list of failures`);
    expect(readFileSync(join(sub, aside!), 'utf8')).toBe('{"version": 2,');
    expect(existsSync(file)).toBe(false);
  });
});

describe('listIsSettled', () => {
  const last = (status?: RunStatus): LastFailures => ({
    version: LAST_FAILURES_VERSION, created_at: 'x', framework: 'go', project_root: dir, failed_tests: [],
    ...(status === undefined ? {} : { last_run: { status } }),
  });

  it('trusts an empty list only after a run that passed or failed, or from a version 1 file', () => {
    expect((['passed', 'failed', undefined] as const).map((s) => listIsSettled(last(s)))).toEqual([true, true, true]);
    expect((['error', 'timed_out', 'interrupted', 'no_tests'] as const).map((s) => listIsSettled(last(s)))).toEqual([false, false, false, false]);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temp file behind', () => {
    const sub = mkdtempSync(join(dir, 'atomic-'));
    const file = join(sub, 'report.json');
    writeFileAtomic(file, 'old\n');
    writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(readdirSync(sub)).toEqual(['report.json']);
  });

  it('throws when the directory is missing, and leaves nothing', () => {
    expect(() => writeFileAtomic(join(dir, 'no-such-dir', 'x.json'), '{}')).toThrow(/ENOENT/);
  });

  it('removes its temp file when the rename fails, and throws the rename\'s error', () => {
    const sub = mkdtempSync(join(dir, 'atomic-'));
    mkdirSync(join(sub, 'taken', 'inside'), { recursive: true });
    expect(() => writeFileAtomic(join(sub, 'taken'), '{}')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(sub)).toEqual(['taken']);
  });
});

describe('removeFile', () => {
  it('removes a file, and treats a missing one as removed', () => {
    const file = join(mkdtempSync(join(dir, 'remove-')), 'stale.jsonl');
    writeFileSync(file, '{}\n');
    removeFile(file);
    expect(existsSync(file)).toBe(false);
    expect(() => removeFile(file)).not.toThrow();
  });

  it('throws for anything else it cannot remove, such as a directory', () => {
    const sub = mkdtempSync(join(dir, 'remove-'));
    expect(() => removeFile(sub)).toThrow(/EISDIR|EPERM/);
    expect(existsSync(sub)).toBe(true);
  });
});
