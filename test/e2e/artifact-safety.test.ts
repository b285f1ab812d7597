import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/model/report.js';
import { copyFixture, hasTools, REPO, runCli, runJson, type CliResult } from './helpers.js';

/** Issue 20, item 5: nothing run-tests writes can be turned against the user. Every case
 * runs the real node:test fixture (11 tests, 2 failures, 1 error) or is refused before it. */

const FIXTURE = 'node-test-mixed';
const SUMMARY = { run: 11, passed: 6, failures: 2, errors: 1, skips: 2 };
const BIN = path.join(REPO, 'bin/run-tests.js');
const tmp = async () => fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-safety-')));
const store = (dir: string, name = '') => path.join(dir, '.run-tests', name);

/** A file outside the project, with the bytes it must keep. */
async function outsideFile(name: string): Promise<{ file: string; bytes: Buffer }> {
  const file = path.join(await tmp(), name);
  const bytes = Buffer.from(`precious ${name}\n`);
  await fs.writeFile(file, bytes);
  return { file, bytes };
}

const root = process.getuid?.() === 0;
/** Root writes into any directory whatever its mode, so an unwritable one is tried as nobody. */
const unprivileged = !root || hasTools('setpriv');

function runAsNobody(args: readonly string[]): Promise<CliResult> {
  if (!root) return runCli(args);
  return new Promise((resolve, reject) => {
    const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

const node = hasTools('node') ? describe : describe.skip;

node('links and names in .run-tests are never written through', () => {
  it('replaces links where the latest log and report go, refuses a linked runs/, and leaves every target byte-identical', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.mkdir(store(dir));
    const targets = await Promise.all(['log', 'report'].map(outsideFile));
    const [log, report] = targets.map((t) => t.file);
    await fs.symlink(log!, store(dir, 'last-test.log'));
    await fs.symlink(report!, store(dir, 'last-report.json'));
    const run = await runJson(['--cwd', dir]);
    expect([run.exitCode, run.report.status, run.report.summary]).toEqual([1, 'failed', SUMMARY]);
    expect(run.report.warnings).toEqual([
      `${store(dir, 'last-report.json')} was a symbolic link (to ${report}); run-tests replaces it with its own file (what it pointed at is unchanged)`,
      `${store(dir, 'last-test.log')} was a symbolic link (to ${log}); run-tests replaces it with its own file (what it pointed at is unchanged)`,
    ]);
    for (const { file, bytes } of targets) expect(await fs.readFile(file)).toEqual(bytes);
    for (const name of ['last-test.log', 'last-report.json', 'last-failures.json']) {
      expect([name, (await fs.lstat(store(dir, name))).isFile()]).toEqual([name, true]);
    }
    expect(await fs.readFile(store(dir, 'last-test.log'), 'utf8')).toContain('adds wrongly');
    expect(((await fs.readJson(store(dir, 'last-report.json'))) as RunReport).summary).toEqual(SUMMARY);

    // Every run's own files go below runs/: a link there would take them elsewhere.
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-elsewhere-'));
    await fs.remove(store(dir, 'runs'));
    await fs.symlink(elsewhere, store(dir, 'runs'));
    const refused = await runJson(['--cwd', dir]);
    expect([refused.exitCode, refused.report.status, refused.report.error?.code]).toEqual([3, 'error', 'STORE_UNUSABLE']);
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it('never writes into a file hard-linked where the latest log goes: it is replaced by the run\'s own log', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.mkdir(store(dir));
    const { file, bytes } = await outsideFile('hard-linked');
    await fs.link(file, store(dir, 'last-test.log'));
    const run = await runJson(['--cwd', dir]);
    expect([run.exitCode, run.report.summary, run.report.warnings]).toEqual([1, SUMMARY, []]);
    expect(await fs.readFile(file)).toEqual(bytes);
    // last-test.log is now the run's own log, under its second name.
    const [latest, own] = await Promise.all([fs.stat(store(dir, 'last-test.log')), fs.stat(run.report.artifact ?? '')]);
    expect([latest.ino, latest.nlink]).toEqual([own.ino, 2]);
  });

  it('sets a linked failures list aside without reading or changing what it points at', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.mkdir(store(dir));
    const { file, bytes } = await outsideFile('failures.json');
    await fs.symlink(file, store(dir, 'last-failures.json'));
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.error]).toEqual([3, {
      code: 'STORE_CORRUPT',
      message: `${store(dir, 'last-failures.json')} is unusable (a symbolic link, which run-tests does not follow); run the suite without --failed-only to replace it`,
    }]);
    const run = await runJson(['--cwd', dir]);
    expect([run.exitCode, run.report.summary]).toEqual([1, SUMMARY]);
    const [aside] = (await fs.readdir(store(dir))).filter((name) => name.startsWith('last-failures.json.corrupt-'));
    expect(run.report.warnings).toEqual([`${store(dir, 'last-failures.json')} was unusable (a symbolic link, which run-tests does not follow): kept as ${store(dir, aside)}; this run starts a new list of failures`]);
    expect(await fs.readlink(store(dir, aside!))).toBe(file);
    expect(await fs.readFile(file)).toEqual(bytes);
  });
});

node('a .run-tests that cannot be used is one line, exit 3, with the JSON report', () => {
  it('refuses a .run-tests that is a link to a directory elsewhere, and writes nothing there', async () => {
    const dir = await copyFixture(FIXTURE);
    const elsewhere = await tmp();
    await fs.symlink(elsewhere, store(dir));
    const { exitCode, report, stderr } = await runJson(['--cwd', dir]);
    expect([exitCode, report.status, report.command, report.error]).toEqual([3, 'error', null, {
      code: 'STORE_UNUSABLE',
      message: `${store(dir)} is a symbolic link (to ${elsewhere}); it must be a directory of run-tests' own, where its log and reports go: remove it and run again`,
    }]);
    expect(stderr).toBe('');
    expect(await fs.readdir(elsewhere)).toEqual([]);
    const human = await runCli(['--cwd', dir]);
    expect(human.exitCode).toBe(3);
    expect(human.stdout).toContain(`error: ${store(dir)} is a symbolic link`);
    expect(human.stderr).not.toContain('internal error');
  });

  it('refuses a .run-tests that is a file, for a run and for --failed-only, and leaves the file alone', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.writeFile(store(dir), 'mine\n');
    for (const args of [[], ['--failed-only']]) {
      const { exitCode, report, stderr } = await runJson(['--cwd', dir, ...args]);
      expect([exitCode, report.error?.code, report.error?.message]).toEqual([3, 'STORE_UNUSABLE',
        `${store(dir)} is not a directory; it must be a directory of run-tests' own, where its log and reports go: remove it and run again`]);
      expect(stderr).toBe('');
    }
    expect(await fs.readFile(store(dir), 'utf8')).toBe('mine\n');
  });

  (unprivileged ? it : it.skip)('refuses a read-only .run-tests before the runner starts', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.chmod(dir, 0o755); // for nobody, when the test runs as root
    await fs.mkdir(store(dir));
    await fs.writeFile(store(dir, 'last-test.log'), 'the last log\n');
    await fs.chmod(store(dir), 0o555);
    const result = await runAsNobody(['--cwd', dir, '--json']);
    const report = JSON.parse(result.stdout) as RunReport;
    expect([result.exitCode, report.status, report.command, report.error]).toEqual([3, 'error', null, {
      code: 'STORE_UNUSABLE',
      message: `${store(dir)} is not writable (EACCES); it must be a directory of run-tests' own, where its log and reports go: make it writable or remove it`,
    }]);
    expect(result.stderr).toBe('');
    expect(await fs.readFile(store(dir, 'last-test.log'), 'utf8')).toBe('the last log\n');
  });
});

node('a file in .run-tests that cannot be written after the run', () => {
  it('is a warning in the report, which keeps the run\'s status and exit code', async () => {
    const dir = await tmp();
    // The command puts a directory where last-report.json goes, as a full disk would fail the write.
    await fs.writeFile(path.join(dir, 'block.js'), "require('fs').mkdirSync('.run-tests/last-report.json/x', { recursive: true });\nconsole.log('TAP version 13\\n1..2\\nok 1 - kept\\nnot ok 2 - broken\\n');\nprocess.exit(1);\n");
    const { exitCode, report, stderr } = await runJson(['--cwd', dir, '--command', 'node block.js', '--report', 'tap:-']);
    expect([exitCode, report.status, report.summary.run, report.summary.failures, stderr]).toEqual([1, 'failed', 2, 1, '']);
    expect(report.warnings).toEqual([expect.stringMatching(new RegExp(`^could not write ${store(dir, 'last-report.json')}: E(ISDIR|NOTEMPTY|EXIST): `))]);
  });
});

node('a corrupt last-failures.json blocks --failed-only only', () => {
  it('refuses --failed-only; a full run keeps the bad file beside a new one, which the next --failed-only reads', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.mkdir(store(dir));
    await fs.writeFile(store(dir, 'last-failures.json'), '{"version": 2,');
    const blocked = await runJson(['--cwd', dir, '--failed-only']);
    expect([blocked.exitCode, blocked.report.error]).toEqual([3, {
      code: 'STORE_CORRUPT',
      message: `${store(dir, 'last-failures.json')} is unusable (not valid JSON); run the suite without --failed-only to replace it`,
    }]);
    const run = await runJson(['--cwd', dir]);
    expect([run.exitCode, run.report.status, run.report.summary, run.report.failures_file]).toEqual([1, 'failed', SUMMARY, store(dir, 'last-failures.json')]);
    const names = await fs.readdir(store(dir));
    const aside = names.filter((name) => /^last-failures\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(name));
    expect(aside).toHaveLength(1);
    expect(run.report.warnings).toEqual([`${store(dir, 'last-failures.json')} was unusable (not valid JSON): kept as ${store(dir, aside[0])}; this run starts a new list of failures`]);
    expect(await fs.readFile(store(dir, aside[0]), 'utf8')).toBe('{"version": 2,');
    const rerun = await runJson(['--cwd', dir, '--failed-only']);
    expect([rerun.exitCode, rerun.report.rerun?.selected, rerun.report.failed_tests.map((t) => t.test_name)])
      .toEqual([1, 3, ['math > adds wrongly', 'math > explodes', 'with subtests > second fails']]);
  });
});

/** Refused with exit 2, one line on stderr, nothing on stdout, and nothing run. */
async function refused(dir: string, args: readonly string[], message: string): Promise<void> {
  const result = await runCli(args);
  expect([result.exitCode, result.stdout, result.stderr]).toEqual([2, '', `run-tests: ${message}\n`]);
  expect(await fs.pathExists(store(dir, 'last-test.log'))).toBe(false);
}

node('--junit is checked before anything runs', () => {
  it('refuses a directory, a FIFO, a device, a link, a missing directory and run-tests\' own files (exit 2)', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.mkdir(store(dir));
    await fs.writeFile(store(dir, 'last-failures.json'), 'the list\n');
    expect(spawnSync('mkfifo', [path.join(dir, 'pipe')]).status).toBe(0);
    const { file: outside, bytes } = await outsideFile('linked.xml');
    await fs.symlink(outside, path.join(dir, 'link.xml'));
    const devNull = await fs.stat('/dev/null');
    const cases: [string, string][] = [
      ['test', `--junit "test": ${dir}/test is a directory; the XML goes into a regular file`],
      ['pipe', `--junit "pipe": ${dir}/pipe is a named pipe (FIFO); the XML goes into a regular file`],
      ['/dev/null', '--junit "/dev/null": /dev/null is a character device; the XML goes into a regular file'],
      ['link.xml', `--junit "link.xml": ${dir}/link.xml is a symbolic link; run-tests does not replace or write through links: give the path it points at`],
      ['nope/results.xml', `--junit "nope/results.xml": directory ${dir}/nope does not exist`],
      ['.run-tests/last-failures.json', `--junit ".run-tests/last-failures.json": ${store(dir, 'last-failures.json')} is run-tests' own (.run-tests/ holds its log, reports and failures list); write the XML elsewhere`],
      ['.run-tests/new.xml', `--junit ".run-tests/new.xml": ${store(dir, 'new.xml')} is run-tests' own (.run-tests/ holds its log, reports and failures list); write the XML elsewhere`],
      ['.run-tests', `--junit ".run-tests": ${store(dir)} is run-tests' own (.run-tests/ holds its log, reports and failures list); write the XML elsewhere`],
    ];
    for (const [target, message] of cases) await refused(dir, ['--cwd', dir, '--junit', target], message);
    expect(await fs.readFile(store(dir, 'last-failures.json'), 'utf8')).toBe('the list\n');
    expect((await fs.lstat(path.join(dir, 'pipe'))).isFIFO()).toBe(true);
    expect(await fs.readFile(outside)).toEqual(bytes);
    const after = await fs.stat('/dev/null');
    expect([after.isCharacterDevice(), after.ino, after.rdev]).toEqual([true, devNull.ino, devNull.rdev]);
  });

  it('refuses run-tests\' own files reached through a .run-tests that is a link', async () => {
    const dir = await copyFixture(FIXTURE);
    const elsewhere = await tmp();
    await fs.symlink(elsewhere, store(dir));
    await refused(dir, ['--cwd', dir, '--junit', '.run-tests/last-failures.json'],
      `--junit ".run-tests/last-failures.json": ${elsewhere}/last-failures.json is run-tests' own (.run-tests/ holds its log, reports and failures list); write the XML elsewhere`);
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it('refuses the file being parsed, by any name, and the report a --command writes', async () => {
    const dir = await copyFixture(FIXTURE);
    const input = path.join(dir, 'in.xml');
    await fs.copy(path.join(REPO, 'test/fixtures/outputs/junit/node-test-mixed.xml'), input);
    const bytes = await fs.readFile(input);
    await fs.link(input, path.join(dir, 'same.xml'));
    await refused(dir, ['parse', 'in.xml', '--cwd', dir, '--junit', 'in.xml'], `--junit "in.xml": ${input} is the file this command reads; write the XML elsewhere`);
    await refused(dir, ['parse', 'in.xml', '--cwd', dir, '--junit', './same.xml'], `--junit "./same.xml": ${dir}/same.xml is the file this command reads; write the XML elsewhere`);
    expect(await fs.readFile(input)).toEqual(bytes);
    await refused(dir, ['--cwd', dir, '--command', 'node --test --test-reporter=junit --test-reporter-destination=out.xml', '--report', 'junit:out.xml', '--junit', 'out.xml'],
      `--junit "out.xml": ${dir}/out.xml is the file this command reads; write the XML elsewhere`);
  });

  (unprivileged ? it : it.skip)('refuses a directory it cannot write to', async () => {
    const dir = await copyFixture(FIXTURE);
    await fs.chmod(dir, 0o755);
    const locked = path.join(dir, 'locked');
    await fs.mkdir(locked, { mode: 0o555 });
    await fs.chmod(locked, 0o555);
    const result = await runAsNobody(['--cwd', dir, '--junit', 'locked/results.xml']);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([2, '', `run-tests: --junit "locked/results.xml": directory ${locked} is not writable (EACCES)\n`]);
    expect(await fs.pathExists(store(dir))).toBe(false);
  });

  it('keeps the run\'s exit code when the XML cannot be written after it, with a warning', async () => {
    const dir = await tmp();
    await fs.mkdir(path.join(dir, 'out'));
    // A command that removes the XML's directory while it runs, as a full disk would fail the write.
    await fs.writeFile(path.join(dir, 'gone.js'), "require('fs').rmSync('out', { recursive: true });\nconsole.log('TAP version 13\\n1..2\\nok 1 - kept\\nnot ok 2 - broken\\n');\nprocess.exit(1);\n");
    const { exitCode, report, stderr } = await runJson(['--cwd', dir, '--command', 'node gone.js', '--report', 'tap:-', '--junit', 'out/results.xml']);
    expect([exitCode, report.status, report.summary.run, report.summary.failures]).toEqual([1, 'failed', 2, 1]);
    expect(stderr).toMatch(new RegExp(`^run-tests: warning: --junit ${dir}/out/results\\.xml was not written: ENOENT: [^\\n]*\\n$`));
  });
});
