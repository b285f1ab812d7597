import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { followReports, type ReportFollower } from '../../core/follow-reports.js';
import { selectProjects } from '../../detect/roots.js';
import type { RunReport } from '../../model/report.js';
import { ARTIFACTS_DIR } from '../../store/artifacts.js';
import { readRun, runIds, type RunInfo } from '../../store/runs.js';
import { parseName, parseSeconds, resolveCwd, resolveFiles, retriesRequest } from '../options.js';
import { packageRoot } from '../package-root.js';

/** What the `run_tests` tool takes: a subset of the CLI's options, by the CLI's names. */
export interface RunInput {
  readonly cwd?: string | undefined;
  readonly files?: readonly string[] | undefined;
  readonly name?: string | undefined;
  readonly ids?: readonly string[] | undefined;
  readonly failed_only?: boolean | undefined;
  readonly timeout?: number | undefined;
  /** true: the working tree against HEAD; a ref: since its merge base. */
  readonly changed?: true | string | undefined;
  readonly retries?: number | undefined;
  readonly flaky_fails?: boolean | undefined;
}

export type RunOutcome =
  | { readonly kind: 'report'; readonly report: RunReport }
  | { readonly kind: 'error'; readonly exitCode: number | null; readonly message: string };

/** What the CLI may write on stderr that is kept for an error message. */
const STDERR_BYTES = 16 * 1024;
const PROGRESS_LOOK_MS = 250;
const RECENT_RUNS = 4;

/** Checks the input with the CLI's own rules (the same messages as on a command line),
 * then builds the argv of `run-tests --json`. Every value goes as `--opt=value` and every
 * file as a path (`./x`), so none is taken for an option or a subcommand; no shell. */
export function runArgv(input: RunInput): { argv: string[]; cwd: string; files: string[] } {
  const cwd = resolveCwd(input.cwd);
  const files = resolveFiles(cwd, input.files ?? [], undefined);
  parseName(input.name);
  retriesRequest({ retries: String(input.retries ?? 0), flakyFails: input.flaky_fails }, false);
  const timeout = input.timeout === undefined ? null : String(input.timeout);
  if (timeout !== null) parseSeconds('timeout', timeout, { allowZero: false });
  const argv = [
    '--json',
    `--cwd=${cwd}`,
    ...(input.name === undefined ? [] : [`--name=${input.name}`]),
    ...(input.failed_only === true ? ['--failed-only'] : []),
    ...(timeout === null ? [] : [`--timeout=${timeout}`]),
    ...(input.retries === undefined ? [] : [`--retries=${input.retries}`]),
    ...(input.flaky_fails === true ? ['--flaky-fails'] : []),
    ...(input.ids ?? []).map((id) => `--id=${id}`),
    ...files,
    // Last: a bare --changed would take a path after it for its ref.
    ...(input.changed === undefined ? [] : [input.changed === true ? '--changed' : `--changed=${input.changed}`]),
  ];
  return { argv, cwd, files };
}

export interface ChildRun {
  /** Settles when the CLI has exited: what it printed, or why it printed no report. */
  readonly outcome: Promise<RunOutcome>;
  /** As Ctrl-C: run-tests kills the runner's whole tree, records the run interrupted, and exits. */
  interrupt(): void;
}

/** Starts this same CLI as a child (`node bin/run-tests.js --json …`), its stdin closed
 * so that it never reads the MCP stream. `onProgress` gets the count of finished tests. */
export function startRun(input: RunInput, onProgress: ((finished: number) => void) | null): ChildRun {
  const { argv, cwd, files } = runArgv(input);
  const bin = path.join(packageRoot(), 'bin', 'run-tests.js');
  const child = spawn(process.execPath, [bin, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_BYTES) stderr += chunk.toString('utf8');
  });
  const stopProgress = onProgress === null ? () => undefined : followChild(child, selectProjects(cwd, files).map((p) => p.root), onProgress);
  const outcome = new Promise<RunOutcome>((resolve, reject) => {
    child.on('error', (error) => {
      stopProgress();
      reject(error);
    });
    child.on('close', (exitCode) => {
      stopProgress();
      resolve(outcomeOf(exitCode, Buffer.concat(stdout).toString('utf8'), stderr));
    });
  });
  return { outcome, interrupt: () => void child.kill('SIGINT') };
}

function outcomeOf(exitCode: number | null, stdout: string, stderr: string): RunOutcome {
  try {
    return { kind: 'report', report: JSON.parse(stdout) as RunReport };
  } catch {
    const message = stderr.trim().replace(/^run-tests: /, '').slice(0, STDERR_BYTES);
    return { kind: 'error', exitCode, message: message === '' ? `run-tests exited ${exitCode} without a report` : message };
  }
}

/** The live count, read as the CLI's own live count is: each project's run directory
 * of the child is found by its pid in run.json, and its reports are followed as they
 * grow; the count is the sum over the projects (a monorepo run's may run at once). */
function followChild(child: ChildProcess, roots: readonly string[], onProgress: (finished: number) => void): () => void {
  const followers: Promise<ReportFollower>[] = [];
  const finished = new Map<string, number>();
  let sent = 0;
  const find = (root: string): RunInfo | null | undefined => {
    const dir = path.join(root, ARTIFACTS_DIR);
    // The child's run is among the newest; older runs are not read on every look.
    return runIds(dir).slice(0, RECENT_RUNS).map((id) => readRun(dir, id)).find((run) => run.info?.pid === child.pid && run.report === null)?.info;
  };
  const waiting = new Set(roots);
  const look = setInterval(() => {
    for (const root of waiting) {
      let info: RunInfo | null | undefined;
      try {
        info = find(root);
      } catch {
        continue; // an unreadable .run-tests: the run itself says what is wrong with it
      }
      if (info === undefined || info === null) continue;
      waiting.delete(root);
      // Only the count is sent: a progress notification carries a number (and a message).
      const follower = followReports(info.reports, info.project_root, {
        update: (progress) => {
          finished.set(root, progress.finished);
          const total = [...finished.values()].reduce((sum, n) => sum + n, 0);
          if (total > sent) onProgress((sent = total));
        },
        failure: () => undefined,
        end: () => undefined,
      });
      follower.catch(() => undefined);
      followers.push(follower);
    }
    if (waiting.size === 0) clearInterval(look);
  }, PROGRESS_LOOK_MS);
  look.unref();
  return () => {
    clearInterval(look);
    // finish() also closes the files; what it parsed is not wanted (the child's report is).
    for (const follower of followers) void follower.then((f) => f.finish()).catch(() => undefined);
  };
}
