import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followReports } from '../../../src/core/follow-reports.js';
import type { Progress } from '../../../src/model/progress.js';
import type { FailedTest } from '../../../src/model/results.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const event = (fields: Record<string, unknown>): string =>
  `${JSON.stringify({ Time: '2026-11-30T12:00:00Z', ...fields, Package: 'example.com/m' })}\n`;
const pass = (name: string): string =>
  event({ Action: 'run', Test: name }) + event({ Action: 'output', Test: name, Output: `--- PASS: ${name} (0.00s)\n` }) + event({ Action: 'pass', Test: name, Elapsed: 0 });

describe('followReports', () => {
  it('reads a report larger than one read, with a character split between two reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-tests-follow-'));
    dirs.push(dir);
    let text = '';
    for (let i = 0; text.length < 200_000; i++) text += pass(`TestPass${i}`);
    // A passing test's output pads the report so that the 3 bytes of "€", in the
    // failing test's message, straddle the 64 KiB mark.
    const head = (padding: string) => pass('TestFirst')
      + event({ Action: 'run', Test: 'TestPad' }) + event({ Action: 'output', Test: 'TestPad', Output: `${padding}\n` }) + event({ Action: 'pass', Test: 'TestPad', Elapsed: 0 })
      + event({ Action: 'run', Test: 'TestPrice' });
    const output = event({ Action: 'output', Test: 'TestPrice', Output: '    price_test.go:7: 5€ is too much\n' });
    const padding = 'x'.repeat(64 * 1024 - 1 - Buffer.byteLength(head('')) - output.indexOf('€'));
    const failing = head(padding) + output + event({ Action: 'fail', Test: 'TestPrice', Elapsed: 0 });
    const report = `${failing}${text}${event({ Action: 'fail', Elapsed: 0.1 })}`;
    const euro = Buffer.from(report).indexOf(Buffer.from('€'));
    expect([euro + 1, euro + 2].some((at) => at % (64 * 1024) === 0)).toBe(true);
    const path = join(dir, 'go-test.jsonl');
    writeFileSync(path, report);
    const read = (await followReports([{ path, parser: 'go-json', hints: { module: 'example.com/m' } }], dir, null)).finish();
    expect(read.error).toBeNull();
    expect(read.report?.complete).toBe(true);
    const tests = read.report?.tests ?? [];
    expect(tests.length).toBe(report.split('"Action":"run"').length - 1);
    const failed = tests.filter((t) => t.status !== 'passed');
    expect(failed).toEqual([expect.objectContaining({ name: 'TestPrice', status: 'failed', file: 'price_test.go', line: 7 })]);
    expect(failed[0]?.status === 'failed' && failed[0].message).toBe('price_test.go:7: 5€ is too much');
  });
});

describe('followReports, watched', () => {
  it('tells the live display each failure once, the counts, the announced totals, and then that it ended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-tests-follow-'));
    dirs.push(dir);
    const path = join(dir, 'events.jsonl');
    const line = (fields: Record<string, unknown>): string => `${JSON.stringify(fields)}\n`;
    writeFileSync(path, [
      line({ event: 'run_start', schema: 1, runner: 'minitest', pid: 1, files: 2 }),
      line({ event: 'plan', tests: 4 }),
      line({ event: 'file_start', file: 'test/a_test.rb' }),
      line({ event: 'test_end', id: 'A#test_ok', name: 'A#test_ok', file: 'test/a_test.rb', line: 3, status: 'passed' }),
      line({ event: 'test_end', id: 'A#test_no', name: 'A#test_no', file: 'test/a_test.rb', line: 7, status: 'failed', message: 'Expected 1, got 2', location: { file: 'test/a_test.rb', line: 8 } }),
      line({ event: 'test_end', id: 'A#test_later', name: 'A#test_later', file: 'test/a_test.rb', line: 11, status: 'skipped' }),
      line({ event: 'file_end', file: 'test/a_test.rb' }),
    ].join(''));
    const seen: string[] = [];
    const sink = {
      update: (p: Progress) => seen.push(`update ${JSON.stringify(p)}`),
      failure: (t: FailedTest) => seen.push(`failure ${t.name} ${t.file}:${t.line}`),
      end: () => seen.push('end'),
    };
    const read = (await followReports([{ path, parser: 'minitest-jsonl' }], dir, sink)).finish();
    expect(read.report?.tests.length).toBe(3);
    expect([...new Set(seen)]).toEqual([
      'failure A#test_no test/a_test.rb:8',
      `update ${JSON.stringify({ finished: 3, failed: 1, skipped: 1, total: 4, files: { done: 1, total: 2 } })}`,
      'end',
    ]);
  });
});
