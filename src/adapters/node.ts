import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { FailedTestRecord } from '../core/types.js';
import type { ProjectFacts } from '../detect/facts.js';
import type { Invocation, PlanRequest } from './types.js';

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

export type NodeRunnerId = 'vitest' | 'jest' | 'mocha' | 'node-test';

const BY_DEPENDENCY = ['vitest', 'jest', 'mocha'] as const;
const CONFIG_FILES: Readonly<Record<(typeof BY_DEPENDENCY)[number], RegExp>> = {
  vitest: /^vitest\.config\.[cm]?[jt]s$/,
  jest: /^jest\.config\.(?:[cm]?[jt]s|json)$/,
  mocha: /^\.mocharc\.(?:[cm]?js|jsonc?|ya?ml)$/,
};
/** node --test's default file patterns, as far as detection needs them. */
const NODE_TEST_FILE = /^(?:.*[.\-_])?test\.[cm]?js$|^test-.*\.[cm]?js$/;

/** Which JavaScript runner the project uses, in the documented order: a dependency
 * (vitest, jest, mocha), a config file, what scripts.test runs, else node --test when
 * scripts.test says so or test files exist. */
export function chooseNodeRunner(facts: ProjectFacts): { id: NodeRunnerId; reason: string } | null {
  const pkg = packageJson(facts);
  if (pkg === null) return null;
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
  const script = testScript(pkg);
  if (script.runner) return { id: script.runner, reason: `scripts.test runs ${script.runner === 'node-test' ? 'node --test' : script.runner}` };
  const testFiles = files.filter((f) => NODE_TEST_FILE.test(f));
  const testDir = facts.list('test').filter((f) => /\.[cm]?js$/.test(f));
  if (testFiles.length > 0 || testDir.length > 0) {
    return { id: 'node-test', reason: `no runner in package.json; test files found (${[...testFiles, ...testDir.map((f) => `test/${f}`)].slice(0, 3).join(', ')}): node --test` };
  }
  return null;
}

/** What a project's `scripts.test` says about running its tests. */
export interface TestScript {
  /** The runner it invokes directly, or null. */
  readonly runner: NodeRunnerId | null;
  /** `VAR=value` (and cross-env) assignments before the runner. */
  readonly env: Readonly<Record<string, string>>;
  /** Node's own flags when it runs the runner through `node [flags] path/to/runner`. */
  readonly nodeArgs: readonly string[];
  /** The runner's arguments from the script (after `node --test`, its arguments). */
  readonly args: readonly string[];
  /** Why the script was not used as it stands, for the report's reason. */
  readonly note: string | null;
}

const NONE: TestScript = { runner: null, env: {}, nodeArgs: [], args: [], note: null };
const SHELL_SYNTAX = /&&|\|\||[;|<>`]|\$\(|\$\{|\n/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const WRAPPERS = new Set(['cross-env', 'npx', 'dotenv']);
const RUNNER_BINARIES: readonly [RegExp, Exclude<NodeRunnerId, 'node-test'>][] = [
  [/(?:^|\/)vitest(?:\.m?js)?$/, 'vitest'],
  [/(?:^|\/)jest(?:\.js)?$|(?:^|\/)jest-cli\/bin\/jest\.js$/, 'jest'],
  [/(?:^|\/)_?mocha(?:\.js)?$/, 'mocha'],
];

export function testScript(pkg: PackageJson): TestScript {
  const script = pkg.scripts?.test;
  if (script === undefined || script.trim() === '') return NONE;
  if (SHELL_SYNTAX.test(script)) {
    return { ...NONE, note: `scripts.test is a shell command line (${JSON.stringify(script)}); run-tests runs the runner directly instead` };
  }
  const words = shellWords(script);
  if (words === null) return { ...NONE, note: `scripts.test could not be read as words (${JSON.stringify(script)})` };
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const assignment = ASSIGNMENT.exec(word);
    if (assignment) env[assignment[1] ?? ''] = assignment[2] ?? '';
    else if (!WRAPPERS.has(word)) break;
  }
  const command = words[i] ?? '';
  const rest = words.slice(i + 1);
  if (command === 'node') return nodeCommand(rest, env, script);
  const runner = runnerOf(command);
  if (runner) return { runner, env, nodeArgs: [], args: rest, note: null };
  return { ...NONE, note: `scripts.test runs ${JSON.stringify(command)}, not a runner run-tests knows; it runs the detected runner directly` };
}

function nodeCommand(words: readonly string[], env: Record<string, string>, script: string): TestScript {
  const test = words.indexOf('--test');
  const firstPath = words.findIndex((w) => !w.startsWith('-'));
  if (test !== -1 && (firstPath === -1 || test < firstPath)) {
    return { runner: 'node-test', env, nodeArgs: words.filter((w, k) => k !== test && k < (firstPath === -1 ? words.length : firstPath)), args: firstPath === -1 ? [] : words.slice(firstPath), note: null };
  }
  const runner = firstPath === -1 ? null : runnerOf(words[firstPath] ?? '');
  if (runner) return { runner, env, nodeArgs: words.slice(0, firstPath), args: words.slice(firstPath + 1), note: null };
  return { ...NONE, note: `scripts.test runs node on something other than a known runner (${JSON.stringify(script)})` };
}

function runnerOf(command: string): Exclude<NodeRunnerId, 'node-test'> | null {
  return RUNNER_BINARIES.find(([pattern]) => pattern.test(command))?.[1] ?? null;
}

/** Splits a command line into words the way a POSIX shell would for plain words and
 * quotes, without expanding anything; null on an unterminated quote. */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = `${word ?? ''}${c}`;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && '"\\$`'.includes(line[i + 1] ?? 'x')) word = `${word ?? ''}${line[++i] ?? ''}`;
      else word = `${word ?? ''}${c}`;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = `${word ?? ''}${line[++i] ?? ''}`;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote !== null) return null;
  if (word !== null) words.push(word);
  return words;
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
}

export function launcherInvocation(request: PlanRequest, spec: LauncherSpec): Invocation {
  const { facts } = request;
  const pkg = packageJson(facts) ?? {};
  const script = testScript(pkg);
  const own = script.runner === spec.runner;
  const dir = localPackage(facts, spec.runner);
  const report = request.artifacts.file(`${spec.runner}-events.jsonl`);
  const launcher = path.join(request.reportersDir, spec.runner, spec.launcher);
  const command = ({ files, name }: Selection): string[] => [
    'node', ...(own ? script.nodeArgs : []), launcher,
    '--package', dir, '--report', report,
    ...files.flatMap((f) => ['--path', path.join(request.root, f)]),
    ...(name === null ? [] : ['--name', name]),
    '--', ...(own ? script.args : []),
  ];
  const [first, ...then] = request.rerun ? rerunSelections(request.rerun, spec.nameSeparator) : [{ files: request.files, name: nameFilter(request) }];
  const notes = [
    ...(script.note ? [script.note] : []),
    ...(script.runner !== null && !own ? [`scripts.test runs ${script.runner}, not ${spec.runner}; run-tests runs ${spec.runner} without the script's arguments`] : []),
  ];
  const env = own ? script.env : {};
  return {
    argv: command(first ?? { files: [], name: null }),
    ...(then.length > 0 ? { thenArgv: then.map(command) } : {}),
    env: { ...request.env, ...env },
    cwd: request.root,
    shownEnv: Object.keys(env),
    ...(notes.length > 0 ? { notes } : {}),
    reports: [{ path: report, parser: spec.parser }],
  };
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
