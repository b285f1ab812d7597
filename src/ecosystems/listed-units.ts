/** --shard's units from a lister of ours run in the runner's own runtime (reporters/
 * rspec/list_files.rb, reporters/pytest/run_tests_pytest_units.py …): it asks the runner
 * which files it would run, by the runner's own code, and writes them to the file named
 * by RUN_TESTS_UNITS_OUT as `{"files": [path, …]}`, or `{"refused": why}` where the
 * project's layout cannot be known exactly. Its stdout is the project's (a Rakefile or a
 * conftest may print), so the answer never comes that way. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError, usageError } from '../model/errors.js';
import { lastLines } from '../parsers/fields.js';
import { runListing } from '../process/listing.js';
import type { ShardUnit, UnitsRequest } from '../runners/types.js';

export const UNITS_OUT_VAR = 'RUN_TESTS_UNITS_OUT';

export interface Lister {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** What it lists, for messages: `rspec's files to run`. */
  readonly what: string;
  /** Exit codes that still leave a valid answer (pytest's 1 and 2 with collection errors). */
  readonly okCodes?: readonly number[];
}

/** The files the lister names, as units of `root`. */
export async function listedUnits(root: string, lister: Lister): Promise<ShardUnit[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-units-'));
  const out = path.join(dir, 'units.json');
  try {
    const outcome = await runListing({ argv: lister.argv, cwd: lister.cwd, env: { ...lister.env, [UNITS_OUT_VAR]: out } });
    const answer = readAnswer(out);
    if (answer !== null && 'refused' in answer) throw usageError(`--shard: ${answer.refused}`);
    if (answer === null || !(outcome.code === 0 || (outcome.code !== null && (lister.okCodes ?? []).includes(outcome.code)))) {
      const ended = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
      const said = lastLines(outcome.output, 10).text;
      throw new HarnessError('RUNNER_FAILED', `--shard: listing ${lister.what} failed (${ended})${said === '' ? '' : `:\n${said}`}`, { command: lister.argv.join(' ') });
    }
    return shardUnits(root, answer.files);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The stdout of a runner's own listing that prints there alone (`go list -json`,
 * `cargo metadata`); a RUNNER_FAILED error with its last lines when it fails. */
export async function listingStdout(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, what: string): Promise<string> {
  const outcome = await runListing({ argv, cwd, env });
  if (outcome.code === 0) return outcome.stdout;
  const ended = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
  const said = lastLines(outcome.output, 10).text;
  throw new HarnessError('RUNNER_FAILED', `--shard: listing ${what} failed (${ended})${said === '' ? '' : `:\n${said}`}`, { command: argv.join(' ') });
}

type Answer = { readonly files: readonly string[] } | { readonly refused: string };

function readAnswer(file: string): Answer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { files, refused } = parsed as { files?: unknown; refused?: unknown };
  if (typeof refused === 'string') return { refused };
  if (Array.isArray(files) && files.every((f) => typeof f === 'string')) return { files };
  return null;
}

/** Paths (absolute, or relative to root) as units: root-relative, `/`-separated, each
 * once, sorted, with their sizes. A path outside the root (a test file the suite names
 * elsewhere) cannot be given back as a file operand: refused. */
export function shardUnits(root: string, paths: readonly string[]): ShardUnit[] {
  const names = new Set<string>();
  for (const given of paths) {
    const relative = path.relative(root, path.resolve(root, given)).split(path.sep).join('/');
    if (relative === '' || relative.startsWith('../') || relative === '..' || path.isAbsolute(relative)) {
      throw usageError(`--shard: the suite runs ${given}, which is outside the project (${root})`);
    }
    names.add(relative);
  }
  return [...names].sort(byName).map((name) => ({ name, bytes: sizeOf(path.join(root, name)) }));
}

/** By code unit, as every machine sorts the same. */
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The reporters/ directory a lister lives in; the core gives it with every --shard. */
export function reportersDir(request: UnitsRequest): string {
  if (request.reportersDir === undefined) throw new HarnessError('RUNNER_UNSUPPORTED', `--shard: ${request.root}'s runner lists its tests with a lister in reporters/, and none was given`);
  return request.reportersDir;
}
