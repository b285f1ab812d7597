import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FailedTestRecord } from '../../model/results.js';
import { nodeTestId, parseNodeTestId } from './id.js';
import { jsTestsAt } from '../../ecosystems/node/defined-tests.js';
import { expandDirectories, fileOperand, isNodeTestFile } from '../../ecosystems/node/files.js';
import { nodeTestShard, scriptOperands } from './units.js';
import { chooseNodeRunner, escapeJsRegex, nodeDetectionMiss, packageJson, testScript, type TestScript } from '../../ecosystems/node/project.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { refusedOption } from '../../project/runner-args.js';
import { nodeTestChanges } from './changes.js';

/** What one `node --test` runs: files (none = the script's paths, or node's discovery)
 * and name patterns (node runs a test when any pattern matches its name). */
interface Selection {
  readonly files: readonly string[];
  readonly pattern: string | null;
}

const REPORTER_FLAGS = ['--test-reporter', '--test-reporter-destination'] as const;

/** Options that replace the reporter run-tests reads, or after which node never ends. */
const REFUSED: Readonly<Record<string, string>> = {
  '--test-reporter': 'it replaces the reporters run-tests gives node (its own reads the results)',
  '--test-reporter-destination': 'it moves the output of the reporters run-tests gives node',
  '--watch': 'it never ends',
  '--help': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
};

export const nodeTest: Runner = {
  id: 'node-test',
  parsers: { 'node-test': { load: async () => (await import('./events.js')).createNodeTestParser } },
  markers: ['package.json'],
  lookingFor: 'scripts.test running node --test, or node --test files in ., test/, tests/ or __tests__/ (node --test)',
  installHint: 'install Node.js 20 or later',

  detect(facts) {
    const choice = chooseNodeRunner(facts);
    return choice?.id === 'node-test' ? choice.reason : null;
  },

  unmatched: nodeDetectionMiss,
  // node's own options, which do not bundle: `--test-reporter=x` is one word.
  refusedArgument: (args) => refusedOption('node --test', args, REFUSED, { bundles: false }),

  /** The tests defined at the line, run by the exact name of their outermost test. */
  testsAt(file, at, facts) {
    return {
      tests: jsTestsAt('node --test', file, at, facts.read(file)).map((chain) => {
        const split = chain.findIndex((block) => block.kind === 'test');
        const [suites, tests] = [chain.slice(0, split).map((b) => b.name), chain.slice(split).map((b) => b.name)];
        return { id: nodeTestId(file, suites, tests), test_name: [...suites, ...tests].join(' > '), file, line: null, status: 'failed' as const, message: '' };
      }),
    };
  },

  /** The same node that runs run-tests. Our reporter runs in node's parent process and
   * the spec reporter writes the log; node gives neither flag to the test files'
   * processes, so tests never see them. */
  plan(request: PlanRequest): Invocation {
    const pkg = packageJson(request.facts) ?? {};
    const script = testScript(pkg);
    const own = script.runner === 'node-test';
    const report = request.artifacts.file('node-test-events.jsonl');
    const reporter = pathToFileURL(path.join(request.reportersDir, 'node-test', 'reporter.mjs')).href;
    const selecting = request.rerun !== null || request.name !== null;
    const { flags, reporters, patterns } = splitNodeArgs(own ? script.nodeArgs : []);
    const scriptFiles = own ? scriptOperands(request.facts, script.args) : [];
    const logReporters = reporters.length > 0 ? reporters : [['--test-reporter=spec', '--test-reporter-destination=stdout']];
    // Told when the name pattern is run-tests' own: the tests it leaves out are not in the
    // run; those the project's or the user's pattern leaves out are node's skips.
    const ours = (selection: Selection): string => `--test-reporter=${reporter}${selection.pattern === null ? '' : '?selection'}`;
    const command = (selection: Selection): string[] => [
      process.execPath, ...flags, '--test',
      ...logReporters.flat(), ours(selection), `--test-reporter-destination=${report}`,
      ...(selection.pattern === null ? (selecting ? [] : patterns) : [`--test-name-pattern=${selection.pattern}`]),
      ...(request.runnerArgs ?? []),
      ...(selection.files.length > 0 ? selection.files.map(fileOperand) : scriptFiles),
    ];
    // node 20 searches a directory itself, later versions take globs instead: run-tests
    // lists the test files below it, as node 20 would.
    const files = expandDirectories(request.facts, request.files, isNodeTestFile);
    const [first, ...then] = request.rerun ? rerunSelections(request.rerun) : [{ files, pattern: namePattern(request) }];
    const env = { ...request.env, ...(own ? script.env : {}) };
    // Set inside node's own test processes; inherited, it would make node a child reporter.
    delete env.NODE_TEST_CONTEXT;
    const notes = scriptNotes(script, pkg.scripts?.test);
    if (selecting && patterns.length > 0) notes.push("the script's --test-name-pattern is replaced by run-tests' selection");
    const globs = own ? script.args.filter((arg) => !scriptFiles.includes(arg)) : [];
    if (globs.length > 0 && first?.files.length === 0) notes.push(`node ${process.versions.node} does not expand globs: run-tests gave it the files of ${globs.join(', ')}, as npm's shell would`);
    // Shown without the reporters run-tests adds: node's default one is what a person sees.
    const injected = new Set([ours({ files: [], pattern: null }), ours({ files: [], pattern: '' }), `--test-reporter-destination=${report}`, ...(reporters.length > 0 ? [] : logReporters.flat())]);
    return {
      argv: command(first ?? { files: [], pattern: null }),
      ...(then.length > 0 ? { thenArgv: then.map(command) } : {}),
      env,
      cwd: request.root,
      ...(own ? { shownEnv: Object.keys(script.env) } : {}),
      shownArgv: (argv) => ['node', ...argv.slice(1).filter((word) => !injected.has(word))],
      notes,
      reports: [{ path: report, parser: 'node-test' }],
    };
  },

  /** --shard: the test files node runs (docs/runners/node-test.md). */
  shard: nodeTestShard,
  /** run-tests plan: the module graph of the test files (docs/runners/node-test.md). */
  changes: nodeTestChanges,

  /** A test with subtests is reported as its subtests: they speak for it. */
  covers(record, result) {
    const [parent, child] = [parseNodeTestId(record.id, record.file), parseNodeTestId(result.id, result.file)];
    if (parent === null || child === null || record.file !== result.file || child.tests.length <= parent.tests.length) return false;
    return JSON.stringify([parent.suites, parent.tests]) === JSON.stringify([child.suites, child.tests.slice(0, parent.tests.length)]);
  },
};

/** The script's node flags, with its reporters (kept for the log, each with a
 * destination) and name patterns set apart. */
export function splitNodeArgs(args: readonly string[]): { flags: string[]; reporters: string[][]; patterns: string[] } {
  const flags: string[] = [];
  const names: string[] = [];
  const destinations: string[] = [];
  const patterns: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    const list = flag === REPORTER_FLAGS[0] ? names : flag === REPORTER_FLAGS[1] ? destinations : flag === '--test-name-pattern' ? patterns : null;
    if (list === null) {
      flags.push(arg);
      continue;
    }
    const value = inline ?? args[(i += 1)] ?? '';
    list.push(value);
  }
  const reporters = names.map((name, k) => [`--test-reporter=${name}`, `--test-reporter-destination=${destinations[k] ?? 'stdout'}`]);
  return { flags, reporters, patterns: patterns.map((p) => `--test-name-pattern=${p}`) };
}

function namePattern({ name }: PlanRequest): string | null {
  if (!name) return null;
  return name.regex ? name.text : escapeJsRegex(name.text);
}

function scriptNotes(script: TestScript, text: string | undefined): string[] {
  if (script.note) return [script.note];
  if (script.runner === 'node-test') return [];
  if (script.runner !== null) return [`scripts.test runs ${script.runner}, not node --test; run-tests runs node --test on node's default test files`];
  return text === undefined ? ["package.json has no scripts.test; run-tests runs node --test on node's default test files"] : [];
}

/** A rerun. Node 20 matches a pattern against each test's own name, and a test runs
 * when it or an ancestor matches; a matching describe runs all of it. So each failure
 * is selected by the exact name of its outermost test (its subtests run inside it), in
 * its file; errors of whole files, describe blocks or parent tests (id = file) rerun
 * their files in a second node. A failure tied to no file reruns everything. */
export function rerunSelections(rerun: readonly FailedTestRecord[]): Selection[] {
  if (rerun.some((t) => t.file === null)) return [{ files: [], pattern: null }];
  const outermost = (t: FailedTestRecord): string | null => parseNodeTestId(t.id, t.file)?.tests[0] ?? null;
  const whole = [...new Set(rerun.filter((t) => outermost(t) === null).map((t) => t.file as string))];
  const exact = rerun.filter((t) => !whole.includes(t.file as string));
  const selections: Selection[] = [];
  if (exact.length > 0) {
    const names = [...new Set(exact.map((t) => outermost(t) as string))];
    selections.push({ files: [...new Set(exact.map((t) => t.file as string))], pattern: `^(?:${names.map(escapeJsRegex).join('|')})$` });
  }
  if (whole.length > 0) selections.push({ files: whole, pattern: null });
  return selections;
}
