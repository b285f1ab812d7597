import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processGone, waitFor } from '../../support/wait.js';

const WRITER = fileURLToPath(new URL('../../../reporters/shared/jsonl-writer.cjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'run-tests-jsonl-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let reports = 0;
const reportPath = (): string => join(dir, `report-${(reports += 1)}.jsonl`);

/** `node -e` arguments for a script whose `body` has `out`, a writer on `report`;
 * `before` runs ahead of loading the writer (to count its writes). */
const script = (report: string, body: string[], before: string[] = []): string[] => [
  '-e',
  [
    ...before,
    `const { JsonlWriter } = require(${JSON.stringify(WRITER)});`,
    `const report = ${JSON.stringify(report)};`,
    "const out = new JsonlWriter(report, 'test reporter');",
    ...body,
  ].join('\n'),
];

/** Runs a script to its end; it must end on its own well before the deadline. */
function runScript(report: string, body: string[], before: string[] = []) {
  const result = spawnSync(process.execPath, script(report, body, before), { encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw result.error;
  return result;
}

function linesIn(report: string): unknown[] {
  if (!existsSync(report)) return [];
  return readFileSync(report, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'test', n: i }));
const WRITE_50 = 'for (let n = 0; n < 50; n += 1) out.write({ type: "test", n });';

describe('JsonlWriter', () => {
  it('keeps every line when a test calls process.exit', () => {
    const report = reportPath();
    const { status, stderr } = runScript(report, [WRITE_50, 'process.exit(3);']);
    expect([status, stderr]).toEqual([3, '']);
    expect(linesIn(report)).toEqual(numbered(50));
  });

  it('keeps every line when an uncaught exception ends the process', () => {
    const report = reportPath();
    const { status, stderr } = runScript(report, [WRITE_50, "throw new Error('boom');"]);
    expect(status).toBe(1);
    expect(stderr).toContain('Error: boom');
    expect(linesIn(report)).toEqual(numbered(50));
  });

  it('writes a line from an exit listener added after it (the mocha launcher\'s `exit` line)', () => {
    const report = reportPath();
    const { status } = runScript(report, [WRITE_50, "process.on('exit', (code) => out.write({ type: 'exit', code }));", 'process.exitCode = 2;']);
    expect(status).toBe(2);
    expect(linesIn(report)).toEqual([...numbered(50), { type: 'exit', code: 2 }]);
  });

  it('puts the lines on disk by its timer (every 100 ms) while the process hangs on a promise', async () => {
    const report = reportPath();
    // The first line is written at once, the others wait for the timer: the script says
    // how many were on disk right after its writes, then hangs.
    const body = [
      WRITE_50,
      "console.log('on disk', require('fs').readFileSync(report, 'utf8').split('\\n').length - 1);",
      'setInterval(() => {}, 1000);',
      'new Promise(() => {});',
    ];
    // The writer's clock stands still: however the script is paused between its writes, the
    // write path never finds 100 ms gone, and only the timer writes after the first line.
    const child = spawn(process.execPath, script(report, body, ['performance.now = () => 0;']), { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    try {
      await waitFor('the script to finish its writes', () => stdout.includes('\n'));
      expect(stdout).toBe('on disk 1\n');
      // Only the timer can write them: the script never writes again, nor exits.
      await waitFor('all 50 lines on disk', () => linesIn(report).length === 50);
      expect(linesIn(report)).toEqual(numbered(50));
      expect(processGone(child.pid ?? 0)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });

  it('batches a burst: lines written <100 ms after a write wait, and one write carries many', () => {
    const report = reportPath();
    const countWrites = [
      "const fs = require('fs');",
      'const realWrite = fs.writeSync;',
      'let writes = 0;',
      'fs.writeSync = (...args) => ((writes += 1), realWrite(...args));',
    ];
    // The writer's clock, taken at its load, moves 1 ms a line and only so: no pause of a
    // loaded machine between two lines can pass for 100 ms.
    const stepClock = ["const { performance } = require('perf_hooks');", 'let clock = 0;', 'performance.now = () => clock;'];
    const body = [
      'const onDisk = () => fs.readFileSync(report, "utf8").split("\\n").length - 1;',
      'out.write({ type: "start" });',
      'out.write({ type: "test", n: 0 });',
      'const afterTwo = [onDisk(), writes];',
      'const started = performance.now();',
      'for (let n = 1; n < 10000; n += 1) { clock += 1; out.write({ type: "test", n }); }',
      'const elapsed = performance.now() - started;',
      'const afterBurst = writes;',
      'out.close();',
      'console.log(JSON.stringify({ afterTwo, afterBurst, elapsed, afterClose: writes }));',
    ];
    const { status, stdout, stderr } = runScript(report, body, [...countWrites, ...stepClock]);
    expect([status, stderr]).toEqual([0, '']);
    type Counts = { afterTwo: number[]; afterBurst: number; elapsed: number; afterClose: number };
    const { afterTwo, afterBurst, elapsed, afterClose } = JSON.parse(stdout) as Counts;
    // The start line went out at once; the next one, microseconds later, is pending.
    expect(afterTwo).toEqual([1, 1]);
    // In a synchronous loop only the write path flushes: once per 100 ms, at 100, 200 … 9900.
    expect([elapsed, afterBurst]).toEqual([9999, 1 + Math.floor(elapsed / 100)]);
    expect(afterClose).toBe(afterBurst + 1);
    expect(linesIn(report)).toEqual([{ type: 'start' }, ...numbered(10000)]);
  });

  it('close() writes every line, lets the process end on its own and drops later lines', () => {
    const report = reportPath();
    const body = [
      "const listeners = process.listenerCount('exit');",
      WRITE_50,
      'out.close();',
      "out.write({ type: 'late' });",
      "console.log(listeners - process.listenerCount('exit'));",
    ];
    const { status, signal, stdout, stderr } = runScript(report, body);
    expect([status, signal, stdout, stderr]).toEqual([0, null, '1\n', '']);
    expect(linesIn(report)).toEqual(numbered(50));
  });

  it('without close() the process still ends on its own, with every line', () => {
    const report = reportPath();
    const { status, signal, stderr } = runScript(report, [WRITE_50]);
    expect([status, signal, stderr]).toEqual([0, null, '']);
    expect(linesIn(report)).toEqual(numbered(50));
  });

  it('says a write error once on stderr, never throws, and writes nothing after it', () => {
    const report = reportPath();
    // A descriptor that cannot be written stands in for a full disk or a removed mount.
    const body = ["const fs = require('fs');", 'fs.closeSync(out.fd);', "out.fd = fs.openSync(report, 'r');", WRITE_50, 'out.close();', "console.log('still running');"];
    const { status, stdout, stderr } = runScript(report, body);
    expect([status, stdout]).toEqual([0, 'still running\n']);
    expect(stderr).toBe('run-tests test reporter: cannot write: EBADF: bad file descriptor, write\n');
    expect(linesIn(report)).toEqual([]);
  });

  it('says a record that cannot be serialised once, and keeps the lines before it', () => {
    const report = reportPath();
    const body = [WRITE_50, 'const loop = {};', 'loop.self = loop;', 'out.write(loop);', "out.write({ type: 'after' });", 'out.close();'];
    const { status, stderr } = runScript(report, body);
    expect(status).toBe(0);
    expect(stderr).toMatch(/^run-tests test reporter: cannot write: Converting circular structure to JSON/);
    expect(stderr.split('run-tests test reporter:')).toHaveLength(2);
    expect(linesIn(report)).toEqual(numbered(50));
  });
});
