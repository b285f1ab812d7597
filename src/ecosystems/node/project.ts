import path from 'node:path';
import { HarnessError } from '../../model/errors.js';
import type { FailedTestRecord } from '../../model/results.js';
import type { ProjectFacts } from '../../project/facts.js';
import { filesBelow, isNodeTestFile } from './files.js';
import { commandChain } from '../../project/command-line.js';
import { runnerLabel, testScript, unreadableWrapper, type NodeRunnerId, type TestScript } from './script.js';
import type { Invocation, PlanRequest } from '../../runners/types.js';

export { testScript, type NodeRunnerId, type TestScript } from './script.js';

/** Knowledge shared by the JavaScript runners: package.json, which runner a project
 * uses, what its `scripts.test` says, and where the project's local runner lives. */

export interface PackageJson {
  readonly scripts?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly jest?: unknown;
  readonly type?: string;
}

export function packageJson(facts: ProjectFacts): PackageJson | null {
  const text = facts.read('package.json');
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as PackageJson) : null;
  } catch {
    return null;
  }
}

const BY_DEPENDENCY = ['vitest', 'jest', 'mocha'] as const;
const CONFIG_FILES: Readonly<Record<(typeof BY_DEPENDENCY)[number], RegExp>> = {
  vitest: /^vitest\.config\.[cm]?[jt]s$/,
  jest: /^jest\.config\.(?:[cm]?[jt]s|json)$/,
  mocha: /^\.mocharc\.(?:[cm]?js|jsonc?|ya?ml)$/,
};
/** Where detection looks for node --test's files without a runner in package.json:
 * the project's top directory, and the directories tests usually live in. */
const TEST_DIRS = ['test', 'tests', '__tests__'] as const;

/** Which JavaScript runner the project uses, in the documented order: what scripts.test
 * runs (the project's own word: a dependency may be there for an example or a tool),
 * then a dependency (vitest, jest, mocha), a config file, else node --test when test
 * files exist. */
export function chooseNodeRunner(facts: ProjectFacts): { id: NodeRunnerId; reason: string } | null {
  const pkg = packageJson(facts);
  if (pkg === null) return null;
  const script = testScript(pkg);
  if (script.runner) return { id: script.runner, reason: `scripts.test runs ${runnerLabel(script.runner)}` };
  for (const id of BY_DEPENDENCY) {
    const field = pkg.devDependencies?.[id] !== undefined ? 'devDependencies' : pkg.dependencies?.[id] !== undefined ? 'dependencies' : null;
    if (field) return { id, reason: `package.json lists ${id} in ${field}` };
  }
  const files = facts.list('.');
  for (const id of BY_DEPENDENCY) {
    const config = files.find((f) => CONFIG_FILES[id].test(f));
    if (config) return { id, reason: `${config} found` };
  }
  if (pkg.jest !== undefined) return { id: 'jest', reason: 'package.json has a "jest" section' };
  const found = nodeTestFiles(facts);
  if (found.length > 0) return { id: 'node-test', reason: `no runner in package.json; test files found (${found.join(', ')}): node --test` };
  return null;
}

/** A few of the files node --test would run, from where detection looks. */
function nodeTestFiles(facts: ProjectFacts): string[] {
  const top = facts.list('.').filter((f) => !facts.isDirectory(f) && isNodeTestFile(f));
  return [...top, ...TEST_DIRS.flatMap((dir) => filesBelow(facts, dir, isNodeTestFile, 3))].slice(0, 3);
}

/** What detection saw in a package.json project where no JavaScript runner applies,
 * for the NO_RUNNER message: the script it read and where it looked for files. */
export function nodeDetectionMiss(facts: ProjectFacts): string | null {
  const pkg = packageJson(facts);
  if (pkg === null) return facts.exists('package.json') ? 'package.json is not a JSON object' : null;
  const script = pkg.scripts?.test;
  const read = script === undefined ? null : commandChain(script);
  const said = script === undefined ? 'package.json has no scripts.test'
    : read === null ? `scripts.test (${JSON.stringify(script)}) is a shell command line run-tests does not read`
      : `scripts.test (${JSON.stringify(script)}) runs ${unreadableWrapper(read) ?? 'no runner run-tests knows'}`;
  return `${said}; no vitest, jest or mocha in its dependencies, no config file of theirs, and no node --test files in ${['.', ...TEST_DIRS.map((d) => `${d}/`)].join(', ')}`;
}

/** The project's own runner executable from the nearest node_modules/.bin at or above
 * the project (npm, pnpm and yarn workspaces hoist it). Never a package manager. */
export function localBin(facts: ProjectFacts, name: string): string {
  const bin = facts.findUp(`node_modules/.bin/${name}`);
  if (bin === null) {
    throw new HarnessError('RUNNER_MISSING', `${name} is not installed: no node_modules/.bin/${name} in ${facts.root} or above; install the project's dependencies (npm install)`, { path: facts.root });
  }
  return bin;
}

/** How a person starts the project's runner: `npx jest` where npx finds it, in the
 * project's own node_modules/.bin; else (hoisted above the project) by its path. */
export function shownBin(facts: ProjectFacts, name: string): string[] {
  const bin = facts.findUp(`node_modules/.bin/${name}`);
  return bin === null || bin === path.join(facts.root, 'node_modules', '.bin', name) ? ['npx', name] : [bin];
}

/** The directory of a package the project depends on, found the same way. */
export function localPackage(facts: ProjectFacts, name: string): string {
  const dir = facts.findUp(`node_modules/${name}/package.json`);
  if (dir === null) {
    throw new HarnessError('RUNNER_MISSING', `${name} is not installed: no node_modules/${name} in ${facts.root} or above; install the project's dependencies (npm install)`, { path: facts.root });
  }
  return dir.slice(0, -'/package.json'.length);
}

export const NODE_INSTALL_HINT = "install the project's dependencies (npm install, pnpm install or yarn)";

/** Escapes text for a JavaScript regular expression, matching it literally. */
export const escapeJsRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** How jest and vitest are started: through a launcher of ours in reporters/<runner>/
 * that calls the runner's programmatic API, so nothing of run-tests reaches the
 * runner's (and the tests') process.argv. */
export interface LauncherSpec {
  readonly runner: 'jest' | 'vitest';
  /** The launcher's file in reporters/<runner>/ (jest's is CommonJS, vitest's an ES module). */
  readonly launcher: 'launch.cjs' | 'launch.mjs';
  /** The separator of the runner's displayed names (` › ` or ` > `). */
  readonly nameSeparator: string;
  readonly parser: 'jest' | 'vitest';
  /** The runner's own executable in its package (`bin/jest.js`). */
  readonly bin: string;
}

/** What a launcher's command is built from: a run's plan, or a listing of its files. */
export interface LauncherContext {
  readonly root: string;
  readonly facts: ProjectFacts;
  readonly reportersDir: string;
  readonly runnerArgs?: readonly string[];
}

/** The launcher's command for a selection: `output` is `--report <file>` for a run,
 * `--list` for the listing of the files that run would run. */
export function launcherCommand(context: LauncherContext, spec: LauncherSpec, output: readonly string[]): (selection: Selection) => string[] {
  const { facts, root } = context;
  const pkg = packageJson(facts) ?? {};
  const script = testScript(pkg);
  const own = script.runner === spec.runner;
  const dir = localPackage(facts, spec.runner);
  const launcher = path.join(context.reportersDir, spec.runner, spec.launcher);
  return ({ files, name }) => [
    'node', ...(own ? script.nodeArgs : []), launcher,
    '--package', dir, ...output,
    // A directory ends in `/`: the launcher selects what is below it, a file is itself.
    ...files.flatMap((f) => ['--path', `${path.join(root, f)}${facts.isDirectory(f) ? '/' : ''}`]),
    ...(name === null ? [] : ['--name', name]),
    '--', ...(own ? [...wrapperConfigArgs(facts, pkg, script, spec.runner), ...script.args] : []), ...(context.runnerArgs ?? []),
  ];
}

export function launcherInvocation(request: PlanRequest, spec: LauncherSpec): Invocation {
  const { facts } = request;
  const pkg = packageJson(facts) ?? {};
  const script = testScript(pkg);
  const own = script.runner === spec.runner;
  const dir = localPackage(facts, spec.runner);
  const report = request.artifacts.file(`${spec.runner}-events.jsonl`);
  const launcher = path.join(request.reportersDir, spec.runner, spec.launcher);
  const command = launcherCommand(request, spec, ['--report', report]);
  const [first, ...then] = request.rerun ? rerunSelections(request.rerun, spec.nameSeparator) : [{ files: request.files, name: nameFilter(request) }];
  const notes = [
    ...(script.note ? [script.note] : []),
    ...(script.runner !== null && !own ? [`scripts.test runs ${script.runner}, not ${spec.runner}; run-tests runs ${spec.runner} without the script's arguments`] : []),
  ];
  const env = own ? script.env : {};
  // With the script's node flags, node runs the runner's own bin, as the launcher stands for it.
  const runner = own && script.nodeArgs.length > 0 ? ['node', ...script.nodeArgs, path.join(dir, spec.bin)] : shownBin(facts, spec.runner);
  return {
    argv: command(first ?? { files: [], name: null }),
    ...(then.length > 0 ? { thenArgv: then.map(command) } : {}),
    env: { ...request.env, ...env },
    cwd: request.root,
    shownEnv: Object.keys(env),
    shownArgv: (argv) => shownLauncherCommand(argv, launcher, runner, request.root, spec.runner),
    ...(notes.length > 0 ? { notes } : {}),
    reports: [{ path: report, parser: spec.parser }],
    noTestsExitCodes: [LAUNCHER_NO_TEST_FILES_EXIT],
  };
}

/** A launcher command (`node … launch.cjs --package d --report r [--path p]… [--name n]
 * -- [script args]`) as the runner's own command line: `npx jest test/a.test.js -t name`.
 * The launcher matches a path as what is under it (jest: an anchored pattern, vitest: a
 * filter), as the runners take a path operand: relative to the root, where it runs. */
function shownLauncherCommand(argv: readonly string[], launcher: string, runner: readonly string[], root: string, id: 'jest' | 'vitest'): readonly string[] {
  const at = argv.indexOf(launcher);
  const end = argv.indexOf('--', at);
  if (at === -1 || end === -1) return argv;
  const paths: string[] = [];
  let name: string | null = null;
  for (let i = at + 1; i < end; i += 2) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--path') paths.push(shownPath(path.relative(root, value) || '.', value.endsWith('/'), id));
    else if (argv[i] === '--name') name = value;
  }
  const given = argv.slice(end + 1);
  // vitest without `run` watches; the launcher always runs once.
  const watching = id === 'vitest' && (given[0] === 'watch' || given[0] === 'dev');
  const script = watching ? given.slice(1) : given;
  const mode = id === 'vitest' && script[0] !== 'run' ? ['run'] : [];
  const pattern = name === null ? [] : name.startsWith('-') ? [`--testNamePattern=${name}`] : ['-t', name];
  return [...runner, ...mode, ...script, ...paths, ...pattern];
}

/** jest reads a path operand as a regex: its special characters (but `.` and `/`, which
 * match themselves) are escaped; vitest reads it as text. A directory keeps its `/`. */
function shownPath(relative: string, directory: boolean, id: 'jest' | 'vitest'): string {
  const text = id === 'jest' ? relative.replace(/[\\^$*+?()[\]{}|]/g, '\\$&') : relative;
  // `./`: a path that starts with `-` is an option to both.
  const operand = text.startsWith('-') ? `./${text}` : text;
  return directory && !operand.endsWith('/') ? `${operand}/` : operand;
}

/** The launchers' exit code when the runner itself found no test file to run
 * (reporters/jest/launch-args.cjs NO_TEST_FILES_EXIT): jest and vitest exit 1 there, as
 * for a failure outside tests, so the launchers say it with a code of their own. */
export const LAUNCHER_NO_TEST_FILES_EXIT = 4;

/** The wrapper's config for the runner (`--config`, with the project as its rootDir,
 * as the wrapper runs it from there), unless the project has a config of its own. */
function wrapperConfigArgs(facts: ProjectFacts, pkg: PackageJson, script: TestScript, runner: 'jest' | 'vitest'): string[] {
  if (script.wrapperConfig === undefined) return [];
  if (facts.list('.').some((f) => CONFIG_FILES[runner].test(f)) || (runner === 'jest' && pkg.jest !== undefined)) return [];
  const config = facts.findUp(`node_modules/${script.wrapperConfig}`);
  if (config === null) {
    throw new HarnessError('RUNNER_MISSING', `scripts.test's wrapper is not installed: no node_modules/${script.wrapperConfig} in ${facts.root} or above; ${NODE_INSTALL_HINT}`, { path: facts.root });
  }
  return ['--config', config, '--rootDir', facts.root];
}

/** What one launcher run selects: files (none = the project's own) and a name pattern. */
export interface Selection {
  readonly files: readonly string[];
  readonly name: string | null;
}

function nameFilter({ name }: PlanRequest): string | null {
  if (name === null) return null;
  return name.regex ? name.text : escapeJsRegex(name.text);
}

/** A rerun: the failed tests by their files and an anchored alternation of their exact
 * names (jest and vitest match the names joined by spaces); then, in a second run whose
 * events go to the same report, whole files for errors outside tests (load errors,
 * hooks: id = file), which a name pattern cannot select. A file with both runs whole,
 * once. A failure tied to no file selects every file: by the names, unless an error
 * outside tests needs its files whole. */
export function rerunSelections(rerun: readonly FailedTestRecord[], separator: string): Selection[] {
  const exactNames = (records: readonly FailedTestRecord[]): string =>
    `^(?:${[...new Set(records.map((t) => escapeJsRegex(t.test_name.split(separator).join(' '))))].join('|')})$`;
  const fileLevel = (t: FailedTestRecord): boolean => t.id === t.file;
  if (rerun.some((t) => t.file === null)) return [{ files: [], name: rerun.some(fileLevel) ? null : exactNames(rerun) }];
  const whole = [...new Set(rerun.filter(fileLevel).map((t) => t.file as string))];
  const exact = rerun.filter((t) => !whole.includes(t.file as string));
  const selections: Selection[] = [];
  if (exact.length > 0) selections.push({ files: [...new Set(exact.map((t) => t.file as string))], name: exactNames(exact) });
  if (whole.length > 0) selections.push({ files: whole, name: null });
  return selections;
}
