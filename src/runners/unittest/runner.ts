import path from 'node:path';
import type { FailedTestRecord } from '../../model/results.js';
import { usageError } from '../../model/errors.js';
import type { ProjectFacts } from '../../project/facts.js';
import type { Runner, Invocation, PlanRequest, ShardUnit, UnitsRequest } from '../types.js';
import { listedUnits, reportersDir } from '../../ecosystems/listed-units.js';
import { escapePythonRegex, pytestConfig, virtualenvPython } from '../../ecosystems/python.js';
import { runsPytest, unittestCommand, type ProjectCommand } from './command.js';
import { rerunArguments, rerunPaths } from './ids.js';
import { projectPython, pythonAffected, pythonPathDirs, type PythonGraphOptions } from '../../ecosystems/python-imports.js';

const EVENTS_VAR = 'RUN_TESTS_UNITTEST_EVENTS';
const FILTER_VAR = 'RUN_TESTS_UNITTEST_FILTER';
/** A conftest.py where pytest looks first: a project that has one is pytest's. */
const CONFTESTS = ['conftest.py', 'tests/conftest.py', 'test/conftest.py'] as const;

/** unittest's default discovery pattern, `test*.py`. */
const TEST_FILE = /^test.*\.py$/;
const SEARCH_DEPTH = 3;

export const unittest: Runner = {
  id: 'unittest',
  parsers: { unittest: { load: async () => (await import('./events.js')).createUnittestParser } },
  markers: ['tox.ini', 'noxfile.py', 'setup.py', 'setup.cfg', 'pyproject.toml'],
  lookingFor: 'tox.ini, noxfile.py, a Makefile or CI config running python -m unittest, or load_tests in test files, with no pytest configuration (python -m unittest)',
  installHint: 'install python3 (Debian: apt-get install python3), or create the project\'s virtualenv (.venv)',

  detect(facts) {
    if (hasPytestConfig(facts)) return null;
    const command = unittestCommand(facts);
    const evidence = command !== null ? `${command.source} runs python -m unittest`
      : runsPytest(facts) ? null : loadTestsEvidence(facts);
    if (evidence === null) return null;
    return `${evidence}: unittest through \`${virtualenvPython(facts) ?? 'python3'} -m unittest\``;
  },

  plan(request: PlanRequest): Invocation {
    const command = unittestCommand(request.facts);
    const events = request.artifacts.file('unittest.jsonl');
    const top = topLevel(command);
    const own = command?.pythonPath ?? [];
    const { commands, paths } = request.rerun !== null ? rerunCommands(request.rerun, top)
      : request.files.length > 0 ? fileCommands(request, top, command) : { commands: [command?.args ?? []], paths: [] };
    const shownPaths = [...new Set([...own, ...paths])];
    const reporters = path.join(request.reportersDir, 'unittest');
    const env: NodeJS.ProcessEnv = {
      ...request.env,
      PYTHONPATH: [reporters, ...shownPaths.map((p) => path.join(request.root, p)), request.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
      [EVENTS_VAR]: events,
    };
    if (request.rerun === null && request.name !== null) env[FILTER_VAR] = request.name.regex ? request.name.text : escapePythonRegex(request.name.text);
    else delete env[FILTER_VAR];
    const venv = virtualenvPython(request.facts);
    const python = venv === null ? 'python3' : path.join(request.root, venv);
    const [first = [], ...rest] = commands.map((args) => [python, '-m', 'unittest', ...args]);
    const shownPython = venv ?? 'python3';
    const byOption = loadTestsEvidence(request.facts) === null ? unittestOption(request) : null;
    const dropped = command?.dropped ?? [];
    return {
      argv: first,
      ...(rest.length > 0 ? { thenArgv: rest } : {}),
      env,
      cwd: request.root,
      ...(byOption === null ? { shownEnv: [FILTER_VAR] } : {}),
      // As a person types it: the project's PYTHONPATH, not the one with our hook in it,
      // and the name as unittest's own -k where that selects the same.
      shownArgv: (argv) => [...(shownPaths.length > 0 ? [`PYTHONPATH=${shownPaths.join(':')}`] : []), shownPython, ...argv.slice(1), ...(byOption ?? [])],
      ...(dropped.length > 0 ? { notes: [`${command?.source ?? ''} gives unittest ${dropped.join(' ')}; run-tests leaves ${dropped.length === 1 ? 'it' : 'them'} out`] } : {}),
      // unittest exits 5 when it ran no tests (Python 3.12 and later).
      noTestsExitCodes: [5],
      requires: [python],
      reports: [{ path: events, parser: 'unittest' }],
    };
  },

  /** A unit is a test file: a module unittest's loader took tests from, or one that
   * failed to import or skipped itself, found by unittest's own discovery (or names) with
   * the project's arguments (reporters/unittest/list_units.py). A load_tests is refused. */
  shard: { selects: 'files', units: unittestUnits },

  /** The import graph of the test files, resolved where `python -m unittest` imports
   * from: the root, the top-level directory, the project's PYTHONPATH (outside the
   * project too), `src/`. */
  changes: { affected: (request) => pythonAffected(request, unittestGraphOptions(request)), outside: true },

  /** A module that failed to load (id: the module) or a class whose setUpClass raised
   * (id: the class) is settled once a test in it ran. */
  covers(record, result) {
    return ERROR_ENTRY.test(record.test_name) && (result.id.startsWith(`${record.id}.`) || result.id.startsWith(`${record.id}::`));
  },
};

/** `-k <text>` for a plain --name: unittest matches it as a substring of each test's full
 * name, as our hook does, unless it holds fnmatch's wildcards (`*?[`); it leaves alone the
 * tests a load_tests adds, so the caller asks only where there is none. Null otherwise:
 * the hook's variable is shown. */
function unittestOption({ name, rerun }: PlanRequest): string[] | null {
  if (rerun !== null || name === null || name.regex || /[*?[]/.test(name.text)) return null;
  return ['-k', name.text];
}

/** The names the reporter gives errors outside tests. */
const ERROR_ENTRY = /^(?:load error: |(?:setUp|tearDown)(?:Class|Module) \()/;

/** pytest's configuration: a project that has it is pytest's, which runs unittest tests too. */
const hasPytestConfig = (facts: ProjectFacts): boolean =>
  pytestConfig(facts) !== null || CONFTESTS.some((file) => facts.exists(file));

/** `load_tests in tests/test_docs.py`: a test module that adds tests of its own making
 * (doctests, often), which only unittest's loader calls. */
function loadTestsEvidence(facts: ProjectFacts, dir = '', depth = SEARCH_DEPTH): string | null {
  if (depth === 0) return null;
  const entries = [...facts.list(dir)].sort();
  for (const name of entries.filter((n) => TEST_FILE.test(n))) {
    const file = dir === '' ? name : `${dir}/${name}`;
    if (/^def load_tests\(/m.test(facts.read(file) ?? '')) return `load_tests in ${file}`;
  }
  for (const name of entries) {
    const sub = dir === '' ? name : `${dir}/${name}`;
    if (name.startsWith('.') || name === '__pycache__' || !facts.isDirectory(sub)) continue;
    if (name !== 'tests' && name !== 'test' && name !== 'src' && !facts.exists(`${sub}/__init__.py`)) continue;
    const found = loadTestsEvidence(facts, sub, depth - 1);
    if (found !== null) return found;
  }
  return null;
}

/** What the project's `discover` sets: its start directory, pattern and top-level
 * directory (options or positionals, as unittest reads them). */
export function discoverParts(command: ProjectCommand | null): { start: string | null; pattern: string | null; top: string | null } {
  const args = command?.args ?? [];
  if (args[0] !== 'discover') return { start: null, pattern: null, top: null };
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 1; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const name = OPTION_NAMES.get(arg);
    if (name !== undefined) options.set(name, args[(i += 1)] ?? '');
    else if (!arg.startsWith('-')) positional.push(arg);
  }
  return {
    start: options.get('start') ?? positional[0] ?? null,
    pattern: options.get('pattern') ?? positional[1] ?? null,
    top: options.get('top') ?? positional[2] ?? null,
  };
}

const OPTION_NAMES: ReadonlyMap<string, string> = new Map([
  ['-s', 'start'], ['--start-directory', 'start'], ['-p', 'pattern'], ['--pattern', 'pattern'],
  ['-t', 'top'], ['--top-level-directory', 'top'], ['-k', 'k'],
]);

/** The directory the project's discovery imports test modules from (its top-level
 * directory, else its start directory, else the root): test ids are dotted names
 * relative to it. */
export function topLevel(command: ProjectCommand | null): string {
  const { start, top } = discoverParts(command);
  return (top ?? start ?? '.').replace(/^\.\/?/, '').replace(/\/$/, '') || '.';
}

interface Commands {
  readonly commands: readonly (readonly string[])[];
  /** Root-relative directories test modules are imported from, for PYTHONPATH. */
  readonly paths: readonly string[];
}

/** Files in one command, by the names discovery gives them (a file below the top-level
 * directory is a module of it, else unittest names it as a module of the root); each
 * directory discovered in a command of its own, with the project's pattern. */
function fileCommands(request: Pick<PlanRequest, 'files' | 'facts'>, top: string, command: ProjectCommand | null): Commands {
  const files = request.files.filter((f) => !request.facts.isDirectory(f));
  const dirs = request.files.filter((f) => request.facts.isDirectory(f));
  for (const file of files) {
    if (!file.endsWith('.py') || file.startsWith('-')) throw usageError(`unittest runs .py files and directories; ${JSON.stringify(file)} is neither`);
  }
  const { pattern } = discoverParts(command);
  const discover = dirs.map((dir) => {
    // A package below the top-level directory keeps its dotted names; any other
    // directory is its own top, as `discover -s dir` makes it.
    const inTop = top === '.' || dir === top || dir.startsWith(`${top}/`);
    const asPackage = request.facts.exists(`${dir}/__init__.py`) && inTop && dir !== top;
    return ['discover', '-s', dir, ...(pattern === null ? [] : ['-p', pattern]), ...(asPackage ? ['-t', top] : [])];
  });
  const named = files.map((file) => moduleName(file, top) ?? file);
  return { commands: [...(named.length > 0 ? [named] : []), ...discover], paths: top === '.' ? [] : [top] };
}

/** The recorded failures by dotted name, importable from where the run found them. */
function rerunCommands(rerun: readonly FailedTestRecord[], top: string): Commands {
  for (const record of rerun) {
    if (record.id.startsWith('-')) throw usageError(`${JSON.stringify(record.id)} is not a unittest name: a recorded id never starts with "-"`);
  }
  return { commands: [rerunArguments(rerun)], paths: rerunPaths(rerun, top) };
}

/** `tests/test_a.py` below the top-level directory `tests` as discovery imports it,
 * `test_a`; null at the root's top (the path names the same module) or where it is no
 * module name. */
function moduleName(file: string, top: string): string | null {
  if (top === '.' || !file.startsWith(`${top}/`)) return null;
  const parts = file.slice(top.length + 1, -'.py'.length).split('/');
  return parts.every((part) => /^[A-Za-z_]\w*$/.test(part)) ? parts.join('.') : null;
}

/** Where the project's `python -m unittest` imports from, and its interpreter. */
export function unittestGraphOptions({ root, facts, env }: UnitsRequest): PythonGraphOptions {
  const command = unittestCommand(facts);
  const { start } = discoverParts(command);
  return {
    python: projectPython(root, facts),
    roots: ['.', topLevel(command), ...(start === null ? [] : [start]), ...(command?.pythonPath ?? []), ...(facts.isDirectory('src') ? ['src'] : []), ...pythonPathDirs(root, env)],
    conftests: false,
    plugins: [],
    entryPoints: [],
  };
}

/** The files the run of request.files would take tests from, asked of unittest's loader
 * with the commands plan() gives it and the same PYTHONPATH. */
function unittestUnits(request: UnitsRequest): Promise<ShardUnit[]> {
  const command = unittestCommand(request.facts);
  // A run of some files does not keep the project's -k: its shards would run more.
  if (command?.args.includes('-k')) throw usageError(`--shard: ${command.source} gives unittest -k, which a run of some of its files does not keep`);
  const top = topLevel(command);
  const { commands, paths } = request.files.length > 0 ? fileCommands(request, top, command) : { commands: [command?.args ?? []], paths: [] };
  const shownPaths = [...new Set([...(command?.pythonPath ?? []), ...paths])];
  const venv = virtualenvPython(request.facts);
  return listedUnits(request.root, {
    argv: [venv === null ? 'python3' : path.join(request.root, venv), path.join(reportersDir(request), 'unittest', 'list_units.py'), JSON.stringify(commands)],
    cwd: request.root,
    env: { ...request.env, PYTHONPATH: [...shownPaths.map((p) => path.join(request.root, p)), request.env.PYTHONPATH].filter(Boolean).join(path.delimiter) },
    what: "unittest's test files",
  });
}
