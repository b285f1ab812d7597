import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateReport } from '../../support/schemas.js';
import { recoverAbandoned } from '../../../src/core/abandoned.js';
import { RUN_ID_ENV } from '../../../src/process/index.js';
import { newRunId } from '../../../src/store/runs.js';
import { processGone, waitFor } from '../../support/wait.js';


const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A project whose run `id` recorded its start, with a TAP report cut off after two
 * results, and whose run-tests (a pid that has exited) never recorded its end. */
function abandonedProject(id: string): { root: string; artifacts: string; runDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-recover-'));
  dirs.push(root);
  const artifacts = path.join(root, '.run-tests');
  const runDir = path.join(artifacts, 'runs', id);
  fs.mkdirSync(runDir, { recursive: true });
  const tap = path.join(artifacts, 'report.tap');
  fs.writeFileSync(tap, 'TAP version 13\n1..3\nok 1 - adds\nnot ok 2 - divides\n');
  fs.writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({
    run_id: id, pid: spawnSync('true').pid, pid_start: 1, started_at: '2026-12-01T17:00:00.000Z', project_root: root,
    framework: 'custom', command: 'make test', log: path.join(artifacts, 'last-test.log'),
    reports: [{ path: tap, parser: 'tap', hints: null }, { path: tap, parser: 'no-such-parser', hints: null }],
  }));
  return { root, artifacts, runDir };
}

describe('recoverAbandoned', () => {
  it('kills what carries the dead run\'s marker and records it abandoned with the results it left', async () => {
    const id = newRunId();
    const { root, artifacts, runDir } = abandonedProject(id);
    const left = spawn('sleep', ['300'], { env: { ...process.env, [RUN_ID_ENV]: id }, detached: true, stdio: 'ignore' });
    left.unref();
    const warnings = await recoverAbandoned(artifacts, 1000);
    const file = path.join(runDir, 'report.json');
    expect(warnings).toEqual([`run ${id} (started 2026-12-01T17:00:00.000Z) was abandoned: run-tests died before it ended; killed 1 process still running it; its report: ${file}`]);
    await waitFor('the left-over sleep to die', () => processGone(left.pid ?? 0));
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(validateReport(report)).toBe(true);
    expect(report).toMatchObject({
      status: 'abandoned', exit_code: 3, run_id: id, started_at: '2026-12-01T17:00:00.000Z', framework: 'custom', command: 'make test',
      project_root: root, artifact: path.join(artifacts, 'last-test.log'),
      summary: { run: 2, passed: 1, failures: 1, errors: 0, skips: 0 },
      failed_tests: [expect.objectContaining({ test_name: 'divides', status: 'failed' })],
    });
    expect((report['warnings'] as string[])[0]).toMatch(/^run-tests \(pid \d+\) died before the run ended; the 2 results its reports held are kept$/);
    expect(await recoverAbandoned(artifacts, 1000)).toEqual([]);
  });

  it('leaves counts unknown when the run left no results', async () => {
    const { artifacts, runDir } = abandonedProject(newRunId());
    fs.rmSync(path.join(artifacts, 'report.tap'));
    expect(await recoverAbandoned(artifacts, 1000)).toHaveLength(1);
    const report = JSON.parse(fs.readFileSync(path.join(runDir, 'report.json'), 'utf8')) as Record<string, unknown>;
    expect(report['summary']).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
    expect(report['warnings']).toEqual([
      expect.stringMatching(/died before the run ended; no results were recorded$/),
      `${path.join(artifacts, 'report.tap')} is missing`,
    ]);
  });
});
