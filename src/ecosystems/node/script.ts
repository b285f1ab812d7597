/** What a package.json script says about running tests: which runner it starts, with
 * which environment, node flags and arguments. A chain (`a && b`, `a; b`) is read
 * command by command, and `npm run <script>` is followed to that script. */
import { commandChain } from '../../project/command-line.js';

export type NodeRunnerId = 'vitest' | 'jest' | 'mocha' | 'node-test';

export interface ScriptsHolder {
  readonly scripts?: Readonly<Record<string, string>>;
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
  /** The config a wrapper (CONFIG_WRAPPERS) gives the runner when the project has none:
   * its path below node_modules. */
  readonly wrapperConfig?: string;
}

const NONE: TestScript = { runner: null, env: {}, nodeArgs: [], args: [], note: null };
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const WRAPPERS = new Set(['cross-env', 'npx', 'dotenv']);
const RUNNER_BINARIES: readonly [RegExp, Exclude<NodeRunnerId, 'node-test'>][] = [
  [/(?:^|\/)vitest(?:\.m?js)?$/, 'vitest'],
  [/(?:^|\/)jest(?:\.js)?$|(?:^|\/)jest-cli\/bin\/jest\.js$/, 'jest'],
  [/(?:^|\/)_?mocha(?:\.js)?$/, 'mocha'],
];
/** Wrappers whose `<wrapper> test` runs a runner with a config of their own that they
 * publish as a file, given to the runner when the project has no config of that runner
 * (kcd-scripts does exactly that; its README has projects extend `kcd-scripts/jest`).
 * react-scripts builds its jest config in code, with no such file: not one of them. */
const CONFIG_WRAPPERS: ReadonlyMap<string, { readonly runner: Exclude<NodeRunnerId, 'node-test'>; readonly config: string }> = new Map([
  ['kcd-scripts', { runner: 'jest', config: 'kcd-scripts/jest.js' }],
]);
/** Wrappers whose `test` runs a runner with a config built in code, which run-tests
 * cannot hand the runner: named in the NO_RUNNER message, with what `--runner` does. */
const CODE_CONFIG_WRAPPERS: ReadonlyMap<string, NodeRunnerId> = new Map([['react-scripts', 'jest']]);

/** What a wrapper of CODE_CONFIG_WRAPPERS in a script's commands does, or null. */
export function unreadableWrapper(commands: readonly (readonly string[])[]): string | null {
  for (const [command, sub] of commands) {
    const runner = CODE_CONFIG_WRAPPERS.get(command ?? '');
    if (runner !== undefined && sub === 'test') {
      return `${command} test: ${runner} with a config built in code that run-tests cannot give ${runner} (--runner ${runner} runs ${runner} without it)`;
    }
  }
  return null;
}
/** How deep `npm run a` -> `npm run b` -> ... is followed. */
const MAX_DEPTH = 4;

export const runnerLabel = (runner: NodeRunnerId): string => (runner === 'node-test' ? 'node --test' : runner);

export function testScript(pkg: ScriptsHolder): TestScript {
  const script = pkg.scripts?.test;
  if (script === undefined || script.trim() === '') return NONE;
  const commands = commandChain(script);
  if (commands === null) {
    return { ...NONE, note: `scripts.test is a shell command line (${JSON.stringify(script)}); run-tests runs the runner directly instead` };
  }
  const found = findRunner(pkg, commands, ['test']);
  if (found === null) {
    const first = commands[0]?.find((w) => !ASSIGNMENT.test(w) && !WRAPPERS.has(w)) ?? '';
    const what = commands.length === 1 ? `runs ${JSON.stringify(first)}, not a runner run-tests knows` : `(${JSON.stringify(script)}) runs no runner run-tests knows in any of its commands`;
    return { ...NONE, note: `scripts.test ${what}; it runs the detected runner directly` };
  }
  const { result, trail, alone } = found;
  if (alone && trail.length === 1) return result;
  const via = trail.length > 1 ? ` through ${trail.slice(1).map((s) => `scripts[${JSON.stringify(s)}]`).join(' -> ')}` : '';
  const rest = alone ? 'it directly, with its arguments' : 'only that command, with its arguments: the rest is not run';
  return { ...result, note: `scripts.test (${JSON.stringify(script)}) runs ${runnerLabel(result.runner as NodeRunnerId)}${via}; run-tests runs ${rest}` };
}

interface Found {
  readonly result: TestScript;
  /** The scripts followed, from `test` to the one that runs the runner. */
  readonly trail: readonly string[];
  /** Whether it is the only command of every script on the way (nothing else is skipped). */
  readonly alone: boolean;
}

/** The first command of a chain that runs a runner, itself or through `npm run`. */
function findRunner(pkg: ScriptsHolder, commands: readonly (readonly string[])[], trail: readonly string[]): Found | null {
  for (const words of commands) {
    const result = readCommand(pkg, words, trail);
    if (result !== null) return { ...result, alone: result.alone && commands.length === 1 };
  }
  return null;
}

function readCommand(pkg: ScriptsHolder, words: readonly string[], trail: readonly string[]): Found | null {
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
  if (command === 'node') {
    const result = nodeCommand(rest, env);
    return result === null ? null : { result, trail, alone: true };
  }
  const runner = runnerOf(command);
  if (runner) return { result: { runner, env, nodeArgs: [], args: rest, note: null }, trail, alone: true };
  const wrapper = CONFIG_WRAPPERS.get(command);
  if (wrapper && rest[0] === 'test') {
    const note = `scripts.test runs ${wrapper.runner} through ${command}; run-tests runs ${wrapper.runner} with ${command}'s config (${wrapper.config}) unless the project has its own`;
    return { result: { runner: wrapper.runner, env, nodeArgs: [], args: rest.slice(1), note, wrapperConfig: wrapper.config }, trail, alone: true };
  }
  const called = scriptCalled(command, rest);
  if (called === null || trail.includes(called.name) || trail.length > MAX_DEPTH) return null;
  const line = pkg.scripts?.[called.name];
  const chain = line === undefined ? null : commandChain(line);
  if (chain === null) return null;
  const found = findRunner(pkg, chain, [...trail, called.name]);
  if (found === null) return null;
  const { result } = found;
  return { ...found, result: { ...result, env: { ...env, ...result.env }, args: [...result.args, ...called.extra] } };
}

/** node's flags whose value may come as the next word (`--require ./setup.js`): that word is no path. */
const NODE_VALUE_FLAGS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader', '--env-file', '--conditions', '-C', '--test-reporter', '--test-reporter-destination', '--test-name-pattern', '--test-skip-pattern', '--test-concurrency', '--test-timeout']);

function nodeCommand(words: readonly string[], env: Record<string, string>): TestScript | null {
  const test = words.indexOf('--test');
  const firstPath = words.findIndex((w, k) => !w.startsWith('-') && !NODE_VALUE_FLAGS.has(words[k - 1] ?? ''));
  if (test !== -1 && (firstPath === -1 || test < firstPath)) {
    return { runner: 'node-test', env, nodeArgs: words.filter((w, k) => k !== test && k < (firstPath === -1 ? words.length : firstPath)), args: firstPath === -1 ? [] : words.slice(firstPath), note: null };
  }
  const runner = firstPath === -1 ? null : runnerOf(words[firstPath] ?? '');
  if (runner) return { runner, env, nodeArgs: words.slice(0, firstPath), args: words.slice(firstPath + 1), note: null };
  return null;
}

function runnerOf(command: string): Exclude<NodeRunnerId, 'node-test'> | null {
  return RUNNER_BINARIES.find(([pattern]) => pattern.test(command))?.[1] ?? null;
}

/** Flags of `npm run` that change nothing about what the script runs. */
const QUIET_FLAGS = new Set(['-s', '--silent', '--if-present', '-q', '--quiet']);

/** `npm run <name> [-- args]` (also `npm test`, `npm run-script`, `yarn [run] <name>`,
 * `pnpm [run] <name>`): the script it runs and the arguments it hands on. Any other
 * flag (`--workspaces`, `--prefix`) makes it a command run-tests does not follow. */
export function scriptCalled(command: string, args: readonly string[]): { name: string; extra: readonly string[] } | null {
  if (!['npm', 'yarn', 'pnpm'].includes(command)) return null;
  const dash = args.indexOf('--');
  const own = dash === -1 ? args : args.slice(0, dash);
  const extra = dash === -1 ? [] : args.slice(dash + 1);
  const words = own.filter((w) => !QUIET_FLAGS.has(w));
  if (words.some((w) => w.startsWith('-'))) return null;
  const [verb, name, ...more] = words;
  if (more.length > 0) return null;
  if (verb === 'test' || verb === 't') return name === undefined ? { name: 'test', extra } : null;
  if (verb === 'run' || verb === 'run-script' || (command === 'npm' && verb === 'rum')) return name === undefined ? null : { name, extra };
  // yarn and pnpm run a script by its name alone.
  return command !== 'npm' && verb !== undefined && name === undefined ? { name: verb, extra } : null;
}

/** Whether a script runs the `test` script of every npm workspace instead of tests of
 * its own: a command `npm test --workspaces` (`-ws`, `npm run test --workspaces`, with
 * `--if-present`), and no command that runs a runner. The command, or null. */
export function workspacesTestCommand(pkg: ScriptsHolder): string | null {
  const script = pkg.scripts?.test;
  const commands = script === undefined ? null : commandChain(script);
  if (commands === null || testScript(pkg).runner !== null) return null;
  const delegates = (words: readonly string[]): boolean => {
    const [command, ...args] = words;
    if (command !== 'npm' || !args.some((w) => w === '--workspaces' || w === '-ws')) return false;
    const rest = args.filter((w) => w !== '--workspaces' && w !== '-ws' && !QUIET_FLAGS.has(w));
    return scriptCalled('npm', rest)?.name === 'test';
  };
  const found = commands.find(delegates);
  return found === undefined ? null : found.join(' ');
}
