import { spawn } from 'node:child_process';
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

/** Runs a command to its end with its output drained; resolves with wall time and output
 * tails. `watch(pid)`, if given, starts an observer whose `stop()` value becomes `watched`. */
export function runOnce(cmd, watch = null) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, ...args] = cmd.argv;
    const child = spawn(file, args, { cwd: cmd.cwd, env: cmd.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = tail(child.stdout);
    const stderr = tail(child.stderr);
    const observer = watch && child.pid ? watch(child.pid) : null;
    child.once('error', (error) => {
      observer?.stop();
      reject(error);
    });
    child.once('close', (code, signal) => {
      const ms = performance.now() - started;
      resolve({ ms, code, signal, stdout: stdout(), stderr: stderr(), watched: observer?.stop() });
    });
  });
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

function tail(stream) {
  let kept = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    kept = (kept + chunk).slice(-KEEP_BYTES);
  });
  return () => kept;
}

/** The environment of someone running bundler by hand: no BUNDLE_* or BUNDLER_* settings. */
export function handRunEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^BUNDLER?_/.test(key)));
}
