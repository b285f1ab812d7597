import path from 'node:path';
import type { FailedTestRecord } from '../../model/results.js';
import { withoutSpecs } from './spec.js';
import { mochaCommand, mochaFiles, mochaShard, type Selection } from './command.js';
import { chooseNodeRunner, escapeJsRegex, localBin, shownBin, NODE_INSTALL_HINT, nodeDetectionMiss, packageJson, testScript, type TestScript } from '../../ecosystems/node/project.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { jsTestsAt } from '../../ecosystems/node/defined-tests.js';
import { mochaId } from './events.js';
import { refusedOption } from '../../project/runner-args.js';
import { mochaChanges } from './changes.js';


export const mocha: Runner = {
  id: 'mocha',
  parsers: { mocha: { load: async () => (await import('./events.js')).createMochaParser } },
  markers: ['package.json'],
  lookingFor: 'package.json listing mocha, a .mocharc file, or scripts.test running mocha',
  installHint: NODE_INSTALL_HINT,

  detect(facts) {
    const choice = chooseNodeRunner(facts);
    return choice?.id === 'mocha' ? choice.reason : null;
  },

  unmatched: nodeDetectionMiss,
  refusedArgument: (args) => refusedOption('mocha', args, REFUSED),

  /** The tests defined at the line, run by an anchored grep of their full titles. */
  testsAt(file, at, facts) {
    const titles = jsTestsAt('mocha', file, at, facts.read(file)).map((chain) => chain.map((block) => block.name).join(' '));
    return { tests: titles.map((title) => ({ id: mochaId(file, title), test_name: title, file, line: null, status: 'failed' as const, message: '' })) };
  },

  /** mocha runs through reporters/mocha/launcher.cjs: it loads the project's own mocha
   * and runs its CLI with the script's arguments and our reporter, so the tests'
   * process.argv holds only the script's arguments. What run-tests adds comes after
   * `--run-tests`, which the launcher takes off before mocha starts. */
  plan(request: PlanRequest): Invocation {
    const { facts } = request;
    const pkg = packageJson(facts) ?? {};
    const script = testScript(pkg);
    const own = script.runner === 'mocha';
    const report = request.artifacts.file('mocha-events.jsonl');
    const command = mochaCommand(request, ['--report', report]);
    const bin = localBin(facts, 'mocha');
    const launcher = path.join(request.reportersDir, 'mocha', 'launcher.cjs');
    const files = mochaFiles(request);
    const [first, ...then] = request.rerun ? rerunSelections(request.rerun) : [{ files, grep: nameGrep(request) }];
    // As a person runs it: the project's mocha, with the script's node flags if it has any.
    const shown = own && script.nodeArgs.length > 0 ? ['node', ...script.nodeArgs, bin] : shownBin(facts, 'mocha');
    return {
      argv: command(first ?? { files: [], grep: null }),
      ...(then.length > 0 ? { thenArgv: then.map(command) } : {}),
      env: { ...request.env, ...(own ? script.env : {}) },
      cwd: request.root,
      ...(own ? { shownEnv: Object.keys(script.env) } : {}),
      shownArgv: (argv) => shownMochaCommand(argv, launcher, shown),
      notes: scriptNotes(script, pkg.scripts?.test),
      reports: [{ path: report, parser: 'mocha' }],
    };
  },

  /** --shard: the spec files mocha's own collect-files finds (docs/runners/mocha.md). */
  shard: mochaShard,
  /** run-tests plan: the module graph of the spec files and setup files (docs/runners/mocha.md). */
  changes: mochaChanges,
};

/** The launcher's command as mocha's: the script's arguments (without its spec when
 * files are named: the launcher replaces it) and the selection, without the launcher's
 * own `--run-tests --mocha d --bin b --report r`. */
function shownMochaCommand(argv: readonly string[], launcher: string, mocha: readonly string[]): readonly string[] {
  const at = argv.indexOf(launcher);
  const own = argv.lastIndexOf('--run-tests');
  if (at === -1 || own < at) return argv;
  const script = argv.slice(at + 1, own);
  const selection = argv.slice(own + 7);
  const grep = selection[0] === '--grep' ? selection[1] ?? '' : null;
  const files = grep === null ? selection : selection.slice(2);
  // A value that starts with `-` is one word with its option, which mocha would read as another.
  const grepArgs = grep === null ? [] : grep.startsWith('-') ? [`--grep=${grep}`] : ['--grep', grep];
  return [...mocha, ...(files.length > 0 ? withoutSpecs(script) : script), ...grepArgs, ...files];
}

/** Options that replace the reporter run-tests reads, or after which mocha reports
 * tests it did not run, never ends or runs none. */
const REFUSED: Readonly<Record<string, string>> = {
  '--reporter': 'it replaces the reporter run-tests reads the results from',
  '-R': 'it is --reporter, which replaces the reporter run-tests reads the results from',
  '--dry-run': 'mocha then reports every test as passed without running it',
  '--watch': 'it never ends',
  '-w': 'it is --watch, which never ends',
  '--list-interfaces': 'it lists the interfaces and runs no test',
  '--list-reporters': 'it lists the reporters and runs no test',
  '--help': 'it prints help and runs no test',
  '-h': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
  '-V': 'it prints the version and runs no test',
};

function nameGrep({ name }: PlanRequest): string | null {
  if (!name) return null;
  return name.regex ? name.text : escapeJsRegex(name.text);
}

function scriptNotes(script: TestScript, text: string | undefined): string[] {
  if (script.note) return [script.note];
  if (script.runner === 'mocha') return [];
  if (script.runner !== null) return [`scripts.test runs ${script.runner}, not mocha; run-tests runs mocha with its configuration files only`];
  return text === undefined ? ['package.json has no scripts.test; run-tests runs mocha with its configuration files'] : [];
}

/** The full title a mocha id (`<file>::<full title>`) names. */
export const mochaTitle = (record: FailedTestRecord): string | null => {
  const prefix = `${record.file ?? ''}::`;
  return record.id.startsWith(prefix) ? record.id.slice(prefix.length) : null;
};

/** A rerun: the failed tests by an anchored grep of their exact full titles in their
 * files; then, in a second mocha, whole files for errors outside tests (load errors,
 * hooks: id = file). A failure tied to no file reruns the whole suite. */
export function rerunSelections(rerun: readonly FailedTestRecord[]): Selection[] {
  if (rerun.some((t) => t.file === null)) return [{ files: [], grep: null }];
  const whole = [...new Set(rerun.filter((t) => t.id === t.file || mochaTitle(t) === null).map((t) => t.file as string))];
  const exact = rerun.filter((t) => !whole.includes(t.file as string));
  const selections: Selection[] = [];
  if (exact.length > 0) {
    const titles = [...new Set(exact.map((t) => mochaTitle(t) as string))];
    selections.push({ files: [...new Set(exact.map((t) => t.file as string))], grep: `^(?:${titles.map(escapeJsRegex).join('|')})$` });
  }
  if (whole.length > 0) selections.push({ files: whole, grep: null });
  return selections;
}
