import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followReports } from '../../../src/core/follow-reports.js';

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
