import fs from 'node:fs';
import path from 'node:path';

/** Shard reports as `run-tests --shard i/n --json` writes them (src/model/report.ts), for
 * a suite of `files` test files of `perFile` tests each, dealt round-robin to `count`
 * shards: every `failEvery`-th test fails with a message of a few lines, each shard lists
 * its first 50 failures and counts the rest (`truncated`), and every file has a duration. */
export function writeShardReports(dir, { count, files, perFile, failEvery, root = '/home/ci/work/project' }) {
  const written = [];
  for (let index = 1; index <= count; index += 1) {
    const units = [];
    for (let f = index - 1; f < files; f += count) units.push(`src/module${f % 40}/feature${f}.test.ts`);
    const tests = [];
    const failures = [];
    const durations = {};
    for (const [u, unit] of units.entries()) {
      let unitMs = 0;
      for (let t = 0; t < perFile; t += 1) {
        const name = `feature ${u} › behaviour group ${t % 7} › does thing number ${t} correctly`;
        const ms = (t * 37 + u * 11) % 90;
        unitMs += ms;
        const failed = (tests.length + index) % failEvery === 0;
        const message = failed ? `Error: expect(received).toEqual(expected)\n\nExpected: ${t}\nReceived: ${t + 1}\n\n  at Object.<anonymous> (${unit}:${t + 3}:7)` : undefined;
        tests.push({ id: `${unit}::${name}`, name, file: unit, line: t + 3, status: failed ? 'failed' : t % 50 === 0 ? 'skipped' : 'passed', duration_ms: ms, ...(failed ? { message } : {}) });
        if (failed) failures.push({ test_name: name, file: unit, line: t + 3, status: 'failed', message, id: `${unit}::${name}`, stack: [{ file: unit, line: t + 3, function: null }], rerun_argv: ['run-tests', '--id', name] });
      }
      durations[unit] = unitMs;
    }
    const n = (status) => tests.filter((t) => t.status === status).length;
    const failedCount = n('failed');
    const report = {
      schema_version: 1, source: 'run', run_id: `20261201-120000.00${index}-abcdef0${index}`, status: failedCount > 0 ? 'failed' : 'passed',
      exit_code: failedCount > 0 ? 1 : 0, framework: 'jest', reason: 'package.json has jest', command: `npx jest ${units.length} files`,
      project_root: root, exit_status: failedCount > 0 ? 1 : 0, signal: null, timed_out: false, duration_ms: 60000 + index * 1000,
      started_at: `2026-12-01T12:00:0${index}.000Z`, finished_at: `2026-12-01T12:01:0${index}.000Z`,
      summary: { run: tests.length, passed: n('passed'), failures: failedCount, errors: 0, skips: n('skipped') },
      failed_tests: failures.slice(0, 50), ...(failures.length > 50 ? { truncated: { failed_tests: failures.length - 50 } } : {}),
      rerun: null, artifact: `${root}/.run-tests/runs/x/output.log`, failures_file: `${root}/.run-tests/last-failures.json`,
      next: 'run-tests --failed-only', warnings: [], error: null, projects: [],
      unit_durations: durations,
      shard: { index, count, units, partition: 'sha256:3f1c0c0ffee' },
      tests,
    };
    const file = path.join(dir, `shard-${index}.json`);
    fs.writeFileSync(file, JSON.stringify(report, null, 2));
    written.push(file);
  }
  return written;
}
