/** `run-tests --watch`: a run, then a run of what each save needs; q or Ctrl-C ends it. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import { REPO, waitFor } from './helpers.js';
import { gitFixture } from './changed-support.js';

const BIN = path.join(REPO, 'bin/run-tests.js');
/** Every watch a test started: one a failed assertion left running is killed after it. */
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
});

/** The CLI under --watch, its stdin a pipe (q ends it there as on a terminal). */
function watch(cwd: string, args: readonly string[] = []) {
  const child = spawn(process.execPath, [BIN, '--watch', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', CI: undefined } });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const count = (text: string) => stdout.split(text).length - 1;
  return { child, exited, count, out: () => stdout, err: () => stderr };
}

const WATCHING = 'for saves; q to quit';

describe('run-tests --watch', () => {
  it('runs, then reruns on a save what it needs, ignoring what run-tests, installs and git write; q ends it with the last run\'s exit code', async () => {
    const dir = await gitFixture('changed-core');
    const app = path.join(dir, 'app');
    const w = watch(app);
    await waitFor('the first run', () => w.count(WATCHING) === 1);
    expect(w.count('PASSED  2 passed')).toBe(1);
    // Written while nothing else is saved: none of these is a save the watch acts on.
    for (const ignored of ['.run-tests/x.json', 'node_modules/x/index.js', '.git/x']) await fs.outputFile(path.join(app, ignored), 'x');
    await fs.remove(path.join(app, 'notes.txt'));
    await waitFor('the second run', () => w.count(WATCHING) === 2);
    expect(w.out()).toContain('\nsaved: notes.txt\n');
    expect(w.out()).toContain('changed 1 file: the whole suite runs, notes.txt was deleted');
    expect(w.count('PASSED  2 passed')).toBe(2);
    w.child.stdin.write('q');
    expect(await w.exited).toBe(0);
    expect(w.count('saved:')).toBe(1);
  });

  it('after a save, runs what it needs and the last run\'s failures, those first; q ends it with that run\'s exit code', async () => {
    const dir = await gitFixture('changed-node-test');
    const app = path.join(dir, 'app');
    await fs.writeFile(path.join(app, 'src/c.js'), "exports.letter = () => 'x';\n");
    const w = watch(app);
    await waitFor('the first run', () => w.count(WATCHING) === 1);
    expect(w.count('FAILED  3 passed, 1 failed')).toBe(1);
    await fs.appendFile(path.join(app, 'src/b.js'), '// saved\n');
    await waitFor('the second run', () => w.count(WATCHING) === 2);
    const second = w.out().slice(w.out().indexOf('\nsaved: '));
    expect(second).toContain('\nsaved: src/b.js\n');
    expect(second).toContain('changed 1 file: runs 2 units (test/b.test.js: imports src/b.js; test/c.test.js: failed in the last run)');
    expect(second).toContain('$ node --require=./support/setup.js --test ./test/c.test.js ./test/b.test.js\n');
    expect(second).toContain('FAILED  2 passed, 1 failed');
    w.child.stdin.write('q');
    expect(await w.exited).toBe(1);
  });

  it('Ctrl-C (SIGINT) while it waits ends it, interrupted: exit 130', async () => {
    const dir = await gitFixture('changed-core');
    const w = watch(path.join(dir, 'lib'));
    await waitFor('the first run', () => w.count(WATCHING) === 1);
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(130);
    expect(w.count('PASSED  1 passed')).toBe(1);
  });

  it('is refused with --json, --shard and --failed-only, before anything runs', async () => {
    const dir = await gitFixture('changed-core');
    for (const [args, option] of [[['--json'], '--json'], [['--shard', '1/2'], '--shard'], [['--failed-only'], '--failed-only']] as const) {
      const w = watch(path.join(dir, 'lib'), args);
      expect([await w.exited, w.err()]).toEqual([2, `run-tests: --watch reruns on a terminal as files are saved; it cannot be combined with ${option}\n`]);
    }
    expect(fs.existsSync(path.join(dir, 'lib/.run-tests'))).toBe(false);
  });
});
