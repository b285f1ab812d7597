import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseNodeTestJsonl } from '../../../../src/runners/node-test/events.js';
import { nodeTestId, parseNodeTestId } from '../../../../src/runners/node-test/id.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/outputs/node-test');
const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
const root = { root: process.cwd() };
const FILE = join(process.cwd(), 'test/a.test.js');
const REPORTER = new URL('../../../../reporters/node-test/reporter.mjs', import.meta.url).href;

type NodeEvent = [type: string, data: Record<string, unknown>];
const start = (name: string, nesting: number): NodeEvent => ['test:start', { name, nesting, file: FILE, line: 1 }];
const pass = (name: string, nesting: number, extra: Record<string, unknown> = {}, type = 'test'): NodeEvent =>
  ['test:pass', { name, nesting, file: FILE, line: 2, column: 1, details: { type, duration_ms: 1 }, ...extra }];
const fail = (name: string, nesting: number, error: Record<string, unknown>, type = 'test', extra: Record<string, unknown> = {}): NodeEvent =>
  ['test:fail', { name, nesting, file: FILE, line: 2, column: 1, details: { type, duration_ms: 1, error }, ...extra }];
const thrown = (cause: Record<string, unknown>, failureType = 'testCodeFailure') =>
  ({ name: 'Error', code: 'ERR_TEST_FAILURE', message: String(cause['message']), failureType, cause });
const cancelled = { ...thrown({ message: 'test did not finish before its parent and was cancelled' }), failureType: 'cancelledByParent', cause: 'test did not finish before its parent and was cancelled' };

/** What reporters/node-test/reporter.mjs writes for node's events, cut to its first `keep` lines. */
async function events(nodeEvents: readonly NodeEvent[], keep?: number, url = REPORTER): Promise<string> {
  const { default: reporter } = (await import(url)) as { default: (source: AsyncIterable<unknown>) => AsyncIterable<string> };
  async function* source() {
    for (const [type, data] of nodeEvents) yield { type, data };
  }
  const lines: string[] = [];
  for await (const line of reporter(source())) lines.push(line);
  return lines.slice(0, keep).join('');
}
const run = async (...nodeEvents: NodeEvent[]) => parseNodeTestJsonl(await events(nodeEvents), root);

describe('parseNodeTestJsonl on recorded real outputs', () => {
  it('has every recorded case', () => {
    expect(cases.sort()).toEqual(['files', 'filtered', 'mixed', 'truncated']);
  });

  it.each(cases)('%s matches its expected report', (name) => {
    const text = readFileSync(join(outputs, `${name}.jsonl`), 'utf8');
    expectGolden(join(outputs, `${name}.expected.json`), parseNodeTestJsonl(text, { root: '<root>' }));
  });
});

describe('node:test events as the reporter writes them', () => {
  const FILTERED: NodeEvent[] = [
    start('a', 0), pass('a', 0, { skip: 'test name does not match pattern' }),
    start('b', 0), pass('b', 0, { skip: "'only' option not set" }),
    start('c', 0), pass('c', 0, { skip: true }),
    start('d', 0), pass('d', 0, { skip: 'flaky on CI' }),
    start('e', 0), fail('e', 0, thrown({ name: 'Error', message: 'not yet', stack: null }), 'test', { todo: 'later' }),
  ];
  const named = (report: Awaited<ReturnType<typeof run>>) => report.tests.map((t) => [t.name, t.status, 'message' in t ? t.message : null]);

  it('keeps the tests node skipped, those --test-name-pattern and --test-only filtered out included, with its reasons', async () => {
    expect(named(await run(...FILTERED))).toEqual([
      ['a', 'skipped', 'test name does not match pattern'], ['b', 'skipped', "'only' option not set"],
      ['c', 'skipped', 'skipped'], ['d', 'skipped', 'flaky on CI'], ['e', 'skipped', 'todo: later (failed: Error: not yet)'],
    ]);
  });

  it("drops the tests run-tests' own name pattern left out (the reporter's URL says ?selection): they are not in the run", async () => {
    const report = parseNodeTestJsonl(await events(FILTERED, undefined, `${REPORTER}?selection`), root);
    expect(named(report)).toEqual([
      ['b', 'skipped', "'only' option not set"], ['c', 'skipped', 'skipped'], ['d', 'skipped', 'flaky on CI'], ['e', 'skipped', 'todo: later (failed: Error: not yet)'],
    ]);
  });

  it('counts leaves, not a parent that failed because a child did, and places the failure', async () => {
    const report = await run(
      start('s', 0), start('t', 1), fail('t', 1, thrown({ name: 'AssertionError', code: 'ERR_ASSERTION', message: 'no', stack: `AssertionError [ERR_ASSERTION]: no\n    at TestContext.<anonymous> (${FILE}:7:3)` })),
      fail('s', 0, { ...thrown({ message: '1 subtest failed' }), failureType: 'subtestsFailed', cause: '1 subtest failed' }, 'suite'),
    );
    expect(report.tests).toEqual([{ id: nodeTestId('test/a.test.js', ['s'], ['t']), name: 's > t', file: 'test/a.test.js', line: 7, durationMs: 1, status: 'failed', message: 'no', stack: [{ file: 'test/a.test.js', line: 7, function: 'TestContext.<anonymous>' }] }]);
  });

  it('lists a describe whose hook failed as a file-level error, without the children it cancelled', async () => {
    const report = await run(
      start('s', 0), start('t', 1), fail('t', 1, cancelled),
      fail('s', 0, { ...thrown({ name: 'Error', message: 'db down', stack: null }, 'hookFailed'), message: 'failed running before hook' }, 'suite'),
    );
    expect(report.tests.map((t) => [t.id, t.name, t.status, 'message' in t ? t.message : null])).toEqual([
      ['test/a.test.js', 's', 'error', 'failed running before hook: Error: db down'],
    ]);
  });

  it('keeps a child cancelled by a parent that did not fail on its own', async () => {
    const report = await run(start('p', 0), start('c', 1), fail('c', 1, cancelled), fail('p', 0, { ...thrown({ message: '1 subtest failed' }), failureType: 'subtestsFailed', cause: '1 subtest failed' }));
    expect(report.tests.map((t) => [t.id, t.name, t.status])).toEqual([[nodeTestId('test/a.test.js', [], ['p', 'c']), 'p > c', 'error']]);
  });

  it("says how a file's process ended when it printed nothing: a signal is not blamed on process.exit", async () => {
    const fileFail = (exitCode: number | null, signal: string | null): NodeEvent => ['test:fail', {
      name: FILE, nesting: 0, file: FILE, line: 1, column: 1, details: { type: 'test', duration_ms: 1, error: { ...thrown({ message: 'test failed' }), exitCode, signal, cause: 'test failed' } },
    }];
    const reports = [await run(fileFail(null, 'SIGTERM')), await run(fileFail(3, null))];
    expect(reports.map((r) => r.tests.map((t) => [t.id, t.name, t.status, 'message' in t ? t.message : null]))).toEqual([
      [['test/a.test.js', 'test/a.test.js', 'error', "the test file's process was killed by SIGTERM before all its tests were reported"]],
      [['test/a.test.js', 'test/a.test.js', 'error', "the test file's process exited with code 3 before all its tests were reported (a test may have called process.exit)"]],
    ]);
  });

  it('warns of a file that reported no test: it may have exited with code 0 early', async () => {
    const report = await run(['test:pass', { name: FILE, nesting: 0, file: FILE, line: 1, column: 1, details: { type: 'test', duration_ms: 1 } }]);
    expect([report.tests, report.complete, report.warnings]).toEqual([[], true, [
      '1 test file(s) reported no tests: test/a.test.js; such a file holds no tests, or a test in it ended its process with exit code 0 (process.exit(0)) before node saw a result',
    ]]);
  });

  it('reports timeouts as errors at the definition line', async () => {
    const report = await run(start('slow', 0), fail('slow', 0, { name: 'Error', code: 'ERR_TEST_FAILURE', message: 'test timed out after 50ms', failureType: 'testTimeoutFailure', cause: 'test timed out after 50ms' }));
    expect(report.tests.map((t) => [t.status, t.line, 'message' in t ? t.message : null])).toEqual([['error', 2, 'Error: test timed out after 50ms']]);
  });

  it('is incomplete without run_end, naming the top-level test that was running', async () => {
    const text = await events([start('a', 0), pass('a', 0), start('b', 0), start('c', 1), pass('c', 1)]);
    const cut = parseNodeTestJsonl(text.split('\n').filter((l) => !l.startsWith('{"event":"run_end"')).join('\n'), root);
    expect([cut.complete, cut.tests.map((t) => t.name), cut.warnings]).toEqual([false, ['a'], ['the run stopped while "b" was running']]);
  });
});

describe('node:test ids', () => {
  it('round-trip names with brackets, parentheses, quotes and separators', () => {
    const id = nodeTestId('test/a.test.js', ['a > b'], ['it [x] ("y")', 'sub']);
    expect(parseNodeTestId(id, 'test/a.test.js')).toEqual({ suites: ['a > b'], tests: ['it [x] ("y")', 'sub'] });
    expect(parseNodeTestId('test/a.test.js', 'test/a.test.js')).toBeNull();
  });
});
