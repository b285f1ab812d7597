/** --shard's units for the JavaScript runners: test files, by their path relative to the
 * project, each with its size. jest, vitest and mocha list them themselves, through the
 * launcher their run goes through (`--list`); node:test's are the files run-tests gives
 * node, or node's own discovery. */
import fs from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../../model/errors.js';
import { runListing } from '../../process/listing.js';
import type { ShardSupport, ShardUnit, UnitsRequest } from '../../runners/types.js';
import { launcherCommand, packageJson, testScript, type LauncherSpec } from './project.js';
import { supportedPackage } from './versions.js';

/** How long a runner may take to list its files (jest builds its haste map, vitest its
 * config, mocha loads the script's --require modules). */
const LISTING_TIMEOUT_MS = 120_000;

/** Sorted by name (code unit order, as every machine sorts the same), each once, with
 * its size in bytes. */
export function shardUnits(root: string, files: Iterable<string>): ShardUnit[] {
  return [...new Set(files)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((name) => ({ name, bytes: fs.statSync(path.join(root, name)).size }));
}

/** The launchers' context: a listing runs the command its run would, so it needs where
 * they are. */
export function listingContext(request: UnitsRequest): UnitsRequest & { readonly reportersDir: string } {
  const { reportersDir } = request;
  if (reportersDir === undefined) throw new HarnessError('USAGE', '--shard: the listing of the test files needs the reporters directory of run-tests');
  return { ...request, reportersDir };
}

/** jest's and vitest's units: the files the runner itself lists for the run's arguments
 * and selection (jest's --listTests, vitest's list --filesOnly), through the launcher the
 * run goes through. A part runs exactly its files: the launcher selects a path as that
 * file, not as a pattern that other files' paths also match. */
export function launcherShard(spec: LauncherSpec): ShardSupport {
  return {
    selects: 'files',
    async units(request) {
      supportedPackage(request.facts, spec.runner);
      const argv = launcherCommand(listingContext(request), spec, ['--list'])({ files: request.files, name: null });
      const script = testScript(packageJson(request.facts) ?? {});
      return listedUnits(spec.runner, request, argv, { ...request.env, ...(script.runner === spec.runner ? script.env : {}) });
    },
  };
}

/** The files a launcher's `--list` printed (a JSON array of absolute paths, the last line
 * of its stdout), as units. Throws a HarnessError quoting the runner when it failed, or
 * named a file outside the project (a unit is a path relative to it). */
export async function listedUnits(runner: string, request: UnitsRequest, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<ShardUnit[]> {
  const outcome = await runListing({ argv, cwd: request.root, env, timeoutMs: LISTING_TIMEOUT_MS });
  const command = argv.join(' ');
  const quoted = (): string => lastLines(`${outcome.stderr}\n${outcome.stdout}`);
  if (outcome.timedOut) throw new HarnessError('RUNNER_FAILED', `--shard: ${runner} did not list its test files within ${LISTING_TIMEOUT_MS / 1000} s`, { command });
  const listed = outcome.exitCode === 0 ? lastJsonList(outcome.stdout) : null;
  if (listed === null) {
    const ended = outcome.exitCode === null ? `was killed by ${outcome.signal ?? 'a signal'}` : `exited ${outcome.exitCode}`;
    throw new HarnessError('RUNNER_FAILED', `--shard: ${runner} could not list its test files (it ${ended}):\n${quoted()}`, { command });
  }
  return shardUnits(request.root, listed.map((file) => relativeUnit(runner, request.root, file)));
}

/** The last non-empty line of the output, when it is a JSON array of strings. */
function lastJsonList(stdout: string): string[] | null {
  const line = stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1) ?? '';
  try {
    const value: unknown = JSON.parse(line);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  } catch {
    return null;
  }
}

/** A listed file relative to the project, `/`-separated (as the root is given, or as its
 * real path: a runner may list real paths). */
export function relativeUnit(runner: string, root: string, file: string): string {
  for (const base of new Set([root, realPath(root)])) {
    const relative = path.relative(base, file);
    if (relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
  }
  throw new HarnessError('USAGE', `--shard: ${runner} runs ${file}, outside the project ${root}; a shard's units are files of the project`, { path: file });
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-20).join('\n');
}
