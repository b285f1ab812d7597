import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/** Output kept per stream: enough to check a summary line, bounded for floods. */
const KEEP_BYTES = 64 * 1024;

/**
 * A command to measure: `{ label, argv, cwd, env, shown, expectCode, expectOutput }`.
 * `shown` is how the report prints it; `expectCode`/`expectOutput` make sure every
 * timed run did the real work (a benchmark of a crash measures nothing).
 */
export function command(spec) {
  const { label, argv, cwd, env = process.env, shown = argv.join(' '), expectCode = 0, expectOutput = null } = spec;
  return { label, argv, cwd, env, shown, expectCode, expectOutput };
}

/** Runs a command to its end with its stdout and stderr going to files, as they go to
 * /dev/null when a person times a command by hand (a pipe read by this process would
 * make every command pay for our reading, and most for the chattiest). Resolves with
 * wall time and the tail of each stream. `watch(pid)`, if given, starts an observer
 * whose `stop()` value becomes `watched`. */
export function runOnce(cmd, watch = null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-bench-out-'));
  const outPath = path.join(dir, 'stdout');
  const errPath = path.join(dir, 'stderr');
  const out = fs.openSync(outPath, 'w');
  const err = fs.openSync(errPath, 'w');
  const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, ...args] = cmd.argv;
    const child = spawn(file, args, { cwd: cmd.cwd, env: cmd.env, stdio: ['ignore', out, err] });
    fs.closeSync(out);
    fs.closeSync(err);
    const observer = watch && child.pid ? watch(child.pid) : null;
    child.once('error', (error) => {
      observer?.stop();
      cleanUp();
      reject(error);
    });
    child.once('close', (code, signal) => {
      const ms = performance.now() - started;
      const result = { ms, code, signal, stdout: tail(outPath), stderr: tail(errPath), watched: observer?.stop() };
      cleanUp();
      resolve(result);
    });
  });
}

/** The last KEEP_BYTES of a file, as text. */
function tail(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const bytes = Buffer.alloc(Math.min(size, KEEP_BYTES));
    fs.readSync(fd, bytes, 0, bytes.length, size - bytes.length);
    return bytes.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Throws when a run did not end the way its command expects. */
export function verify(cmd, result) {
  const problem =
    result.code !== cmd.expectCode ? `exited ${result.code ?? result.signal}, expected ${cmd.expectCode}`
    : cmd.expectOutput && !cmd.expectOutput.test(result.stdout) ? `printed no line matching ${cmd.expectOutput}`
    : null;
  if (problem === null) return result;
  const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
  throw new Error(`${cmd.shown} (in ${cmd.cwd}) ${problem}; its output ended:\n${output}`);
}

/** The environment of someone running bundler by hand: no BUNDLE_* or BUNDLER_* settings. */
export function handRunEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^BUNDLER?_/.test(key)));
}
