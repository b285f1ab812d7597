/** What the runner itself says of a change, through the launcher its runs and --shard go
 * through: jest's `--listTests --findRelatedTests <files>` and vitest's `related`, one
 * file at a time, with the files their configuration loads around every test file
 * (reporters/jest/launch.cjs, reporters/vitest/launch.mjs: `--plan --related <file>...`),
 * and mocha's --require and --file files (reporters/mocha/launcher.cjs: `--list`). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { HarnessError } from '../../model/errors.js';
import { lastLines } from '../../parsers/fields.js';
import { runListing } from '../../process/listing.js';
import type { AffectedRequest, ChangeSupport } from '../../runners/types.js';
import { reportersDir, UNITS_OUT_VAR } from '../listed-units.js';
import { nodeChanges, type RunnerFacts } from './changes.js';
import { launcherCommand, type LauncherSpec } from './project.js';
import { scriptEnv } from './units.js';
import { supportedPackage } from './versions.js';

/** The launcher's answer, as reporters/shared/units-out.cjs writes it. */
interface Answer {
  readonly files: readonly string[];
  readonly setup?: readonly string[];
  readonly related?: Readonly<Record<string, readonly string[]>>;
  readonly triggers?: readonly string[];
}

/** jest's or vitest's facts for a change. */
export async function launcherFacts(request: AffectedRequest, spec: LauncherSpec): Promise<RunnerFacts> {
  supportedPackage(request.facts, spec.runner);
  const changed = request.changed.filter((file) => file.change !== 'deleted').map((file) => file.path);
  const related = changed.flatMap((file) => ['--related', path.join(request.root, file)]);
  const argv = launcherCommand({ ...request, reportersDir: reportersDir(request) }, spec, ['--plan', ...related])({ files: [], name: null });
  const answer = await listingAnswer(request, argv, scriptEnv(request, spec.runner), `${spec.runner}'s related test files`);
  const name = (file: string): string => rootRelative(request.root, file);
  const setup = (answer.setup ?? []).map(name);
  // Its setup files are among them: the plan says why they are the whole suite itself.
  const trigger = spec.runner === 'vitest' ? forcedRerun(request.root, changed.filter((file) => !setup.includes(file)), answer.triggers ?? []) : null;
  return {
    setup,
    related: {
      tool: spec.runner === 'jest' ? 'jest --findRelatedTests' : 'vitest related',
      byFile: answer.related === undefined ? null : byChangedFile(request.root, changed, answer.related, name),
      together: answer.files.map(name),
    },
    ...(trigger === null ? {} : { wholeSuite: trigger }),
  };
}

/** The launcher's answer for `argv`; a RUNNER_FAILED error with its last words when it fails. */
export async function listingAnswer(request: AffectedRequest, argv: readonly string[], env: NodeJS.ProcessEnv, what: string): Promise<Answer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-related-'));
  const out = path.join(dir, 'answer.json');
  try {
    const outcome = await runListing({ argv, cwd: request.root, env: { ...env, [UNITS_OUT_VAR]: out } });
    const answer = readAnswer(out);
    if (outcome.code !== 0 || answer === null) {
      const ended = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
      const said = lastLines(outcome.output, 10).text;
      throw new HarnessError('RUNNER_FAILED', `listing ${what} failed (${ended})${said === '' ? '' : `:\n${said}`}`, { command: argv.join(' ') });
    }
    return answer;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readAnswer(file: string): Answer | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Answer;
    return Array.isArray(parsed.files) ? parsed : null;
  } catch {
    return null;
  }
}

/** vitest's answer by changed file: its keys are the files' real paths, from the project's real path. */
function byChangedFile(root: string, changed: readonly string[], related: Readonly<Record<string, readonly string[]>>, name: (file: string) => string): Map<string, string[]> {
  const realRoot = realPath(root);
  const found = new Map<string, string[]>();
  for (const file of changed) {
    const key = path.relative(realRoot, realPath(path.join(root, file)));
    found.set(file, (related[key] ?? related[file] ?? []).map(name));
  }
  return found;
}

/** vitest reruns every test when a changed file matches its forceRerunTriggers (its
 * config, package.json, setup files): its own rule for the whole suite. */
function forcedRerun(root: string, changed: readonly string[], triggers: readonly string[]): string | null {
  for (const pattern of triggers) {
    const matches = picomatch(pattern);
    const file = changed.find((f) => matches(realPath(path.join(root, f))) || matches(path.join(root, f)));
    if (file !== undefined) return `${file} matches vitest's forceRerunTriggers (${pattern}): vitest reruns every test for it`;
  }
  return null;
}

const rootRelative = (root: string, file: string): string => path.relative(root, path.resolve(root, file)).split(path.sep).join('/');

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** jest's and vitest's ChangeSupport: the module graph joined with the runner's own, which
 * follows what esbuild cannot resolve (moduleNameMapper, vite's aliases). */
export const launcherChanges = (spec: LauncherSpec): ChangeSupport =>
  nodeChanges({ runner: spec.runner, resolvesAliases: true, facts: (request) => launcherFacts(request, spec) });
