import { spawn, spawnSync } from 'node:child_process';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../../src/model/report.js';
import { XMLParser } from 'fast-xml-parser';
import { validateEvent, validateReport } from '../support/schemas.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(REPO, 'bin/run-tests.js');
const FIXTURES = path.join(REPO, 'test/fixtures/projects');

/** A fresh temp copy of a fixture project (or of several, under one directory). */
export async function copyFixture(name: string, into?: string): Promise<string> {
  const dir = into ?? fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), `run-tests-${name}-`)));
  await fs.copy(path.join(FIXTURES, name), dir);
  return dir;
}

/** `make` done at most once: for the tests of a file that read what one run made and
 * change none of it, the first test to ask starts it and the others await the same run. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export interface CliResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI with a clean environment for Ruby (no BUNDLE_* leaking in from the caller),
 * with the suite's node or `node`; `asProgram` runs bin/run-tests.js itself, as a user's shell does, rather than `node bin/run-tests.js`. */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; onSpawn?: (pid: number) => void; asProgram?: boolean; bin?: string; cwd?: string; node?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const bin = options.bin ?? BIN;
    const [file, ...argv] = options.asProgram === true ? [bin, ...args] : [options.node ?? process.execPath, bin, ...args];
    const child = spawn(file ?? bin, argv, {
      cwd: options.cwd,
      // Not the CI's variables of a job this suite may run in (CI=true prints live failure
      // lines on stderr, GitHub's add annotations): a test that wants them sets them; nor
      // an extra CA bundle, which jest.config.js leaves out for the whole suite.
      env: { ...process.env, FORCE_COLOR: '0', CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** Runs the CLI with --json (before a `--`, whose words are the runner's) and parses the
 * report; fails loudly if stdout holds anything else. */
export async function runJson(args: readonly string[], options: Parameters<typeof runCli>[1] = {}): Promise<{ exitCode: number | null; report: RunReport; stderr: string }> {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  const result = await runCli([...args.slice(0, end), '--json', ...args.slice(end)], options);
  let report: RunReport;
  try {
    report = JSON.parse(result.stdout) as RunReport;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${result.exitCode}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  if (!validateReport(report)) throw new Error(`report does not match schema/report.schema.json: ${JSON.stringify(validateReport.errors)}`);
  return { exitCode: result.exitCode, report, stderr: result.stderr };
}

/** Every report an end-to-end test sees is checked against the shipped JSON Schema. */
export { validateReport };

/** The failed tests as [name, file, line, status], for exact comparison. */
export const failures = (report: RunReport): [string, string | null, number | null, string][] =>
  report.failed_tests.map((t) => [t.test_name, t.file, t.line, t.status]);

/** Every test a run's `--junit` file lists, passed ones included, as [file, name, outcome]
 * sorted: what ran, for asserting that nothing else did. */
export async function junitTests(file: string): Promise<[string, string, string][]> {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name), htmlEntities: true })
    .parse(await fs.readFile(file, 'utf8')) as { testsuites: { testsuite?: { testcase?: Record<string, unknown>[] }[] } };
  const outcome = (c: Record<string, unknown>): string => ['failure', 'error', 'skipped'].find((k) => k in c) ?? 'passed';
  return (doc.testsuites.testsuite ?? []).flatMap((s) => s.testcase ?? [])
    .map((c): [string, string, string] => [String(c['file']), String(c['name']), outcome(c)])
    .sort((a, b) => {
      const [x, y] = [a.join('\0'), b.join('\0')];
      return x < y ? -1 : x > y ? 1 : 0;
    });
}

/** The skipped tests of a run's `--junit` file as [file, name, reason], in file order:
 * what a skip keeps of its test. */
export async function junitSkips(file: string): Promise<[string, string, string][]> {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name), htmlEntities: true })
    .parse(await fs.readFile(file, 'utf8')) as { testsuites: { testsuite?: { testcase?: { file: string; name: string; skipped?: { message?: string } | '' }[] }[] } };
  return (doc.testsuites.testsuite ?? []).flatMap((s) => s.testcase ?? []).filter((c) => c.skipped !== undefined)
    .map((c): [string, string, string] => [c.file, c.name, typeof c.skipped === 'object' ? c.skipped.message ?? '' : '']);
}

const onPath = (tool: string): boolean => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool]).status === 0;

/** In CI a missing toolchain fails the suite; elsewhere its tests are skipped with a notice. */
export const hasTools = (...tools: string[]): boolean => {
  const missing = tools.filter((t) => !onPath(t));
  if (missing.length > 0 && process.env.CI) throw new Error(`toolchain missing in CI: ${missing.join(', ')} (run scripts/setup-toolchains.sh)`);
  if (missing.length > 0) console.warn(`skipping: ${missing.join(', ')} not installed (run scripts/setup-toolchains.sh)`);
  return missing.length === 0;
};

export { processGone, waitFor } from '../support/wait.js';

/** `.run-tests/runs/<id>/<name>` of the project in `dir`: the run given, or else the newest. */
export function runFile(dir: string, name: string, runId?: string | null): string {
  const runs = path.join(dir, '.run-tests/runs');
  const id = runId ?? fs.readdirSync(runs).filter((n) => !n.startsWith('.')).sort().at(-1) ?? '(no run)';
  return path.join(runs, id, name);
}

export const RUN_ID = /^\d{8}-\d{6}\.\d{3}-[0-9a-f]{8}$/;

/** The events an injected reporter wrote, each checked against schema/events.schema.json. */
export function readEvents(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    if (!validateEvent(event)) throw new Error(`${file}: event does not match schema/events.schema.json: ${line}\n${JSON.stringify(validateEvent.errors)}`);
    return event;
  });
}
